#if canImport(Dispatch)
import Dispatch
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A one-shot signal one thread waits on until another signals it: a Dispatch semaphore where
/// Dispatch exists, else a flag polled with `sched_yield`.
package final class OneShotSignal: Sendable {
    /// A signal not yet signalled.
    package init() {}

    #if canImport(Dispatch)
    private let semaphore = DispatchSemaphore(value: 0)

    /// Wakes the waiter (or lets its coming wait return at once).
    package func signal() { semaphore.signal() }

    /// Blocks until ``signal()`` has been called.
    package func wait() { semaphore.wait() }
    #else
    private let signalled = LockedValue(false)

    /// Wakes the waiter (or lets its coming wait return at once).
    package func signal() { signalled.withLock { $0 = true } }

    /// Blocks until ``signal()`` has been called.
    package func wait() {
        while !signalled.withLock({ $0 }) { sched_yield() }
    }
    #endif
}
