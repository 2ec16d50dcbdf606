import BudgetLock
import BudgetTime
import BudgetClock

/// Draining a scope: the hook a job framework's tests wait on before they look at what the jobs did.
///
/// A scope has *drained* when nothing of it is left running: no budget of it is live, no stop handler
/// of the pass that stopped its last budgets is still running, and no
/// ``withBackgroundTask(named:allowance:warningLead:grace:maximumAllowance:scope:operation:)`` call in it
/// is still under way. The last part is what ``waitForNoLiveBudgets()`` alone does not see: a hard
/// stop ends a budget at its instant, but the job it cancelled returns when its own code has
/// unwound (a `defer`, a clean-up `await`, the framework's error reporting), which may be later.
///
/// ```swift
/// let drained = Task { try await scope.waitUntilDrained() }
/// scope.shutdown(grace: .seconds(10))
/// clock.advance(by: .seconds(10))                 // a VirtualClock: the hard stop of every job
/// #expect(try await drained.value == .seconds(10))  // the instant the last job returned
/// ```
extension BudgetScope {
    /// The number of ``withBackgroundTask(named:allowance:warningLead:grace:maximumAllowance:scope:operation:)``
    /// calls in this scope under way: begun and not yet returned (a job stopped by its hard stop
    /// counts until its code has unwound and the call has returned).
    public var activeCallCount: Int { calls.count }

    /// Whether the scope has drained now: no budget of it is live and no
    /// ``withBackgroundTask(named:allowance:warningLead:grace:maximumAllowance:scope:operation:)`` call in
    /// it is under way. A new request may fill it again.
    public var isDrained: Bool { calls.count == 0 && liveCount == 0 }

    /// Suspends until the scope has drained: no budget of it live, the stop handlers of the pass that
    /// stopped its last budgets returned, and every
    /// ``withBackgroundTask(named:allowance:warningLead:grace:maximumAllowance:scope:operation:)`` call in
    /// it returned. Returns at once if it has.
    ///
    /// Nothing here moves time: on a ``/BudgetClock/VirtualClock`` the test advances the clock (past
    /// the hard stops of a ``shutdown(grace:)``, say) while the wait is pending, and the wait is
    /// resumed by the end, stop or return that drains the scope, so the instant it returns is the
    /// instant the scope drained. On a ``/BudgetClock/DispatchClock`` the clock's own timer stops the
    /// budgets, and the wait returns as the last job does. Requests made in the scope while it drains
    /// are waited for too: the wait returns at a moment when both counts are zero together.
    ///
    /// - Returns: The scheduler's clock's instant when the drain was seen.
    /// - Throws: `CancellationError` if the waiting task is cancelled first (nothing else changes:
    ///   the scope's budgets and jobs carry on).
    @discardableResult
    public func waitUntilDrained() async throws -> BudgetInstant {
        while true {
            try await calls.waitForZero()
            try await waitForNoLiveBudgets()
            // A call may have begun between the two waits (its budget then keeps the count above
            // zero, or it is still about to request one): look at both again under their locks.
            if isDrained { return scheduler.clock.now }
            try Task.checkCancellation()
        }
    }
}

/// The number of `withBackgroundTask` calls under way in one scope, and the tasks waiting for it to
/// fall to zero. Kept by the ``BudgetScope`` object, outside the scheduler's state, so that counting
/// a call costs a lock of its own and never the scheduler's.
final class ScopeCalls: Sendable {
    private struct State: Sendable {
        var count = 0
        var waiters: [(id: UInt64, continuation: UnsafeContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private let state = LockedValue(State())

    /// The calls under way now.
    var count: Int { state.withLock { $0.count } }

    /// Counts a call in.
    func enter() {
        state.withLock { $0.count += 1 }
    }

    /// Counts a call out, and resumes the waiters (after unlocking) if none is left.
    func leave() {
        let woken = state.withLock { state -> [UnsafeContinuation<Void, any Error>] in
            state.count -= 1
            guard state.count == 0, !state.waiters.isEmpty else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters.map(\.continuation)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Suspends until no call is under way; returns at once if none is.
    /// - Throws: `CancellationError` if the task is cancelled first.
    func waitForZero() async throws {
        // The waiter's identity once added; `.max` once cancelled (a cancellation may come first).
        let id = LockedValue<UInt64?>(nil)
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let ready: Bool? = state.withLock { state in
                    if state.count == 0 { return true }
                    return id.withLock { id in
                        if id == .max { return nil }
                        state.nextID &+= 1
                        id = state.nextID
                        state.waiters.append((state.nextID, continuation))
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
            let removed = state.withLock { state in
                id.withLock { id -> UnsafeContinuation<Void, any Error>? in
                    defer { id = .max }
                    guard let mine = id, let index = state.waiters.firstIndex(where: { $0.id == mine }) else { return nil }
                    return state.waiters.remove(at: index).continuation
                }
            }
            removed?.resume(throwing: CancellationError())
        }
    }
}
