/// The task executor of one process of an app (``Application/taskExecutor``): every job of a task that
/// prefers it runs on the app's main queue, as work of that process.
///
/// So a task's code is frozen with the app — a job enqueued while the app is suspended waits on the
/// suspended queue — and ends with the process: a job for an ended process is dropped, and the task it
/// belongs to never resumes, as a killed process's threads never run again. On a ``VirtualClock`` a job
/// runs inline on the thread that enqueues it (the one that starts the task, resumes its continuation
/// or advances the clock), after the item the queue runs, if any: deterministic, with no thread of its
/// own.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class ProcessTaskExecutor: TaskExecutor {
    /// The app's main queue.
    let queue: AppExecutor
    /// The epoch of the process whose jobs this executor runs.
    let epoch: UInt64

    init(queue: AppExecutor, epoch: UInt64) {
        self.queue = queue
        self.epoch = epoch
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.enqueue({ [self] in GlobalExecutorHooks.timed(job) { job.runSynchronously(on: asUnownedTaskExecutor()) } }, for: epoch, job: true)
        queue.drain()
    }
}
