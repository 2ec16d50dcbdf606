import BudgetLock
import BudgetClock

extension BackgroundTask {
    /// The warning and the hard stop of one budget, raised by its handlers, and the task running its
    /// work, which the hard stop cancels directly.
    ///
    /// Cancelling the work's task from the stop handler, rather than waking a watcher task that
    /// wakes the caller that cancels the work, takes the work's wake-up straight to the cancellation:
    /// a mass stop of thousands of jobs then costs one task resumption per job instead of four.
    ///
    /// The warning and the stop share one lock, so that a job costs one lock object besides its budget.
    final class Signals: Sendable {
        private let state = LockedValue(State())

        private struct State: Sendable {
            /// Whether the warning has come.
            var warned = false
            /// Tasks in ``waitForWarning()``.
            var warningWaiters = CountWaiters()
            var reason: BudgetStopReason?
            var work = Work.notStarted
            /// The work's task, waiting in ``workFinished()`` for a cancellation under way to return.
            var finishWaiter: UnsafeContinuation<Void, Never>?
        }

        /// Where the work's task is, as the hard stop sees it.
        private enum Work: Sendable {
            case notStarted
            case running(WorkTask)
            /// A stop handler is cancelling the task (outside the lock); the task must not finish before.
            case cancelling
            case finished
        }

        /// Whether the warning has come.
        var isWarned: Bool { state.withLock { $0.warned } }

        /// Records the warning and resumes the tasks waiting for it (after unlocking).
        func warn() {
            let waiters = state.withLock { state in
                state.warned = true
                return state.warningWaiters.takeSatisfied(by: 1)
            }
            for waiter in waiters { waiter.resume() }
        }

        /// Suspends until the warning has come, or throws `CancellationError` if the task is cancelled first.
        func waitForWarning() async throws {
            try await waitForCount(1, in: state, current: { $0.warned ? 1 : 0 }, waiters: \.warningWaiters)
        }

        /// The reason of the hard stop, once it has come.
        var reason: BudgetStopReason? { state.withLock { $0.reason } }

        /// Records the hard stop and cancels the work's task if it is running (after unlocking: the
        /// cancellation runs the work's own cancellation handlers).
        func stop(_ stopReason: BudgetStopReason) {
            let target = state.withLock { state -> WorkTask? in
                state.reason = stopReason
                guard case let .running(task) = state.work else { return nil }
                state.work = .cancelling
                return task
            }
            guard let target else { return }
            target.task.cancel()
            let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
                state.work = .finished
                defer { state.finishWaiter = nil }
                return state.finishWaiter
            }
            waiter?.resume()
        }

        /// Called by the work's task as it starts, with itself: from now until ``workFinished()``
        /// returns, the hard stop cancels it. Returns `true` if the hard stop came first (the task
        /// must then cancel itself).
        func workStarted(_ task: UnsafeCurrentTask) -> Bool {
            state.withLock { state in
                guard state.reason == nil else { return true }
                state.work = .running(WorkTask(task: task))
                return false
            }
        }

        /// Called by the work's task once the work has returned, before the task ends: afterwards the
        /// hard stop no longer touches the task. Waits for a cancellation under way to return.
        func workFinished() async {
            let cancelling = state.withLock { state -> Bool in
                if case .cancelling = state.work { return true }
                state.work = .finished
                return false
            }
            guard cancelling else { return }
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    guard case .cancelling = state.work else { return true }
                    state.finishWaiter = continuation
                    return false
                }
                if done { continuation.resume() }
            }
        }
    }

    /// The running task of a budget's work, kept so that the hard stop can cancel it from its own thread.
    ///
    /// Why `@unchecked Sendable` is safe: the only use from another thread is `cancel()`, which is
    /// `swift_task_cancel`, the same call `Task.cancel()` makes and safe from any thread; and it is
    /// made only while the task is alive. ``Signals`` hands the reference out only between
    /// ``Signals/workStarted(_:)`` and ``Signals/workFinished()``, both called by the task itself while
    /// it runs, and `workFinished()` does not return (so the task cannot end) while a `cancel()` is under
    /// way. A child task of a task group is also kept alive by its group until its result is taken.
    struct WorkTask: @unchecked Sendable {
        let task: UnsafeCurrentTask
    }
}
