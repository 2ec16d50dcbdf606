import Foundation

/// Runs blocking work on a new thread and returns its result, leaving the concurrency pool free.
package func onDedicatedThread<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
