/// `BudgetInstant` is the `Instant` of both clocks' `Clock` conformances: `advanced(by:)` and
/// `duration(to:)` are the protocol's requirements, saturating at the ends of the range.
import BudgetLock
import BudgetTime

extension BudgetInstant: InstantProtocol {}

/// What a clock that counts its sleepers is told (``VirtualClock``, so a test can wait for them).
package protocol SleeperCounting: Sendable {
    /// A task has suspended in `sleep(until:)`.
    func sleeperAdded()
    /// A sleeping task was woken or cancelled.
    func sleeperRemoved()
}

/// One `sleep(until:)` in flight: its continuation and its scheduled wake-up, behind one lock.
///
/// The clock's work and the cancellation handler race; whichever takes the continuation first resumes
/// it (after unlocking), and the other finds nothing. The lock is taken before the clock's own (when
/// scheduling or cancelling), never inside it: clocks run work outside their locks.
private final class Sleeper: Sendable {
    struct State {
        var continuation: UnsafeContinuation<Void, any Error>?
        var work: ScheduledWork?
        var cancelled = false
    }

    let state = LockedValue(State())
}

extension BudgetClock {
    /// Suspends until the clock reaches `deadline`, or throws `CancellationError` when the task is
    /// cancelled first (the wake-up is then cancelled on the clock, so nothing is left pending).
    package func sleepOnSchedule(until deadline: BudgetInstant, counting: (any SleeperCounting)? = nil) async throws {
        try Task.checkCancellation()
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let admitted = sleeper.state.withLock { state -> Bool in
                    guard !state.cancelled else { return false }
                    state.continuation = continuation
                    counting?.sleeperAdded()
                    state.work = schedule(at: deadline) {
                        let woken = sleeper.state.withLock { state in
                            defer { state.continuation = nil }
                            return state.continuation
                        }
                        guard let woken else { return }
                        counting?.sleeperRemoved()
                        woken.resume()
                    }
                    return true
                }
                if !admitted { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let cancelled = sleeper.state.withLock { state -> UnsafeContinuation<Void, any Error>? in
                state.cancelled = true
                if let work = state.work { cancel(work) }
                defer { state.continuation = nil }
                return state.continuation
            }
            guard let cancelled else { return }
            counting?.sleeperRemoved()
            cancelled.resume(throwing: CancellationError())
        }
    }
}
