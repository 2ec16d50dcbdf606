/// The system's clock as one process of an app sees it: deadlines fire as usual, but the work they run
/// is queued on one of the process's queues, so it waits while the app is suspended and never runs once
/// the process has ended.
///
/// ``Application/runLater(after:_:)``, ``ApplicationQueue/asyncAfter(_:_:)`` and the sleeps of
/// ``ApplicationClock`` all schedule through one: the only way app code waits for time.
import BudgetClock
import BudgetTime

final class ProcessClock: BudgetClock {
    /// The system's clock.
    let base: any BudgetClock
    /// The process whose code the work is.
    let process: ProcessContext
    /// The queue the work runs on: the app's main queue, or a queue the process made.
    let queue: AppExecutor

    /// The queue's epoch when the clock was made: timers count for it only while it lasts.
    let queueEpoch: UInt64

    init(base: any BudgetClock, process: ProcessContext, queue: AppExecutor) {
        self.base = base
        self.process = process
        self.queue = queue
        self.queueEpoch = queue.epoch
    }

    var now: BudgetInstant { base.now }

    /// Schedules `work` on the base clock; at the deadline it is queued on ``queue`` for ``process``
    /// (dropped if the process has ended) and the queue is drained: at once on a ``VirtualClock`` when
    /// the queue is idle and not suspended, after the item it runs otherwise.
    @discardableResult
    func schedule(at deadline: BudgetInstant, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        schedule(at: deadline, job: false, work)
    }

    /// Schedules `work`, counted as a Swift task's job (``AppExecutor/State/jobs``) when `job` is true.
    func schedule(at deadline: BudgetInstant, job: Bool, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let process = process, queue = queue, epoch = queueEpoch
        // Counted until due, so that the end of the process counts it among what it drops.
        queue.countTimer(+1, epoch: epoch, job: job)
        return base.schedule(at: deadline) {
            // Queued as system work: the clock's thread may be inside the app's own code
            // (`simulateWork`), and the work must not be taken for a call of that code.
            ProcessContext.detached {
                queue.countTimer(-1, epoch: epoch, job: job)
                guard !process.isEnded else { return }
                queue.enqueue(work, for: queue.owner == nil ? process.epoch : nil, job: job)
                queue.drain()
            }
        }
    }

    @discardableResult
    func cancel(_ work: ScheduledWork) -> Bool {
        let cancelled = base.cancel(work)
        if cancelled { queue.countTimer(-1, epoch: queueEpoch) }
        return cancelled
    }

    func simulateWork(for duration: Duration) { base.simulateWork(for: duration) }
}
