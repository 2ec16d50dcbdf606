/// Tasks waiting for a count (sleepers on a clock, live budgets) to reach a number, kept inside the
/// owner's locked state; the owner resumes the ones it returns after unlocking.
///
/// This is how tests wait for a suspension without polling: a waiter is resumed by the very change
/// that makes the count reach its number, never by a `Task.yield()` loop.
import BudgetLock

package struct CountWaiters: Sendable {
    private var waiters: [(id: UInt64, count: Int, continuation: UnsafeContinuation<Void, any Error>)] = []
    private var nextID: UInt64 = 0

    package init() {}

    /// Whether no task waits (the owner's fast path).
    package var isEmpty: Bool { waiters.isEmpty }

    /// Adds a waiter for `count`.
    /// - Returns: Its identity, for ``remove(_:)``.
    package mutating func add(count: Int, _ continuation: UnsafeContinuation<Void, any Error>) -> UInt64 {
        nextID &+= 1
        waiters.append((nextID, count, continuation))
        return nextID
    }

    /// Takes the waiter with this identity out, if it is still waiting.
    package mutating func remove(_ id: UInt64) -> UnsafeContinuation<Void, any Error>? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).continuation
    }

    /// Takes out every waiter whose number `current` has reached.
    package mutating func takeSatisfied(by current: Int) -> [UnsafeContinuation<Void, any Error>] {
        guard !waiters.isEmpty else { return [] }
        var satisfied: [UnsafeContinuation<Void, any Error>] = []
        waiters.removeAll { waiter in
            guard current >= waiter.count else { return false }
            satisfied.append(waiter.continuation)
            return true
        }
        return satisfied
    }
}

/// Suspends until the count that `lock`'s state keeps at `current` reaches `count`, or throws
/// `CancellationError` if the calling task is cancelled first.
package func waitForCount<State: Sendable>(
    _ count: Int, in lock: LockedValue<State>, current: @escaping @Sendable (State) -> Int,
    waiters: WritableKeyPath<State, CountWaiters> & Sendable
) async throws {
    // The waiter's identity once added; `.max` once cancelled (a cancellation may come first).
    let id = LockedValue<UInt64?>(nil)
    try await withTaskCancellationHandler {
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
            let ready: Bool? = lock.withLock { state in
                if current(state) >= count { return true }
                return id.withLock { id in
                    if id == .max { return nil }
                    id = state[keyPath: waiters].add(count: count, continuation)
                    return false
                }
            }
            switch ready {
            case true?: continuation.resume()
            case nil: continuation.resume(throwing: CancellationError())
            case false?: break
            }
        }
    } onCancel: {
        let removed = lock.withLock { state in
            id.withLock { id in
                defer { id = .max }
                return id.flatMap { state[keyPath: waiters].remove($0) }
            }
        }
        removed?.resume(throwing: CancellationError())
    }
}
