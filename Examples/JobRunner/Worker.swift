import BudgetLock
import BudgetClock
import Foundation
import JobBudgets
import SavedState

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Runs jobs `concurrency` at a time, each attempt under a budget, until every job is done or the
/// scheduler shuts down. Shared by the JobRunner example and the ServiceLifecycleWorker package.
///
/// An attempt that reaches its warning saves a checkpoint and goes back in the queue (unless the
/// scheduler is shutting down); an attempt cut by the hard stop leaves its last checkpoint standing; a
/// job that throws an error of its own has failed, and the next run tries it again from its checkpoint.
///
/// Each result is reported once across kills: a finished job saves its result, reports its `done`
/// line, then makes its mark, `job-<id>.reported`, with one `open(2)` straight after the line's
/// `write(2)`. A run reports the saved results that have no mark (a kill came between the save and the
/// report) before it starts any job, and skips the ones that have. The one gap is a kill between those
/// two system calls, after the line is out and before its mark: the next run reports that line again.
struct Worker: Sendable {
    var clock: DispatchClock
    var scheduler: BudgetScheduler
    /// The folder of the checkpoints, one `StateStore` per job.
    var state: URL
    var concurrency: Int
    var allowance: Duration
    var warningLead: Duration
    /// Where progress lines go (`start a`, `checkpoint a at step 3`, `done a result 42`…), one call
    /// per line; a `done` line is out when the call returns (see the type's discussion).
    var report: @Sendable (String) -> Void

    /// How a run ended.
    struct Summary: Sendable {
        /// The jobs that failed in this run, in the order they failed.
        var failed: [String]
        /// The jobs not done: failed, or left by a shutdown; the next run takes them up.
        var left: Int
    }

    /// Runs the jobs until every one is done or has failed, or the scheduler shuts down.
    /// - Returns: The jobs that failed and the number left for the next run.
    /// - Throws: An error from reading the state folder, before any job runs.
    @discardableResult
    func run(_ jobs: [Job]) async throws -> Summary {
        var queue: [(Job, StateStore<Checkpoint>, Checkpoint)] = []
        for job in jobs {
            let store = try StateStore<Checkpoint>(directory: state, name: "job-\(job.id)")
            let loaded = try store.load()
            for issue in loaded.issues { report("state \(job.id): \(issue)") }
            let checkpoint = loaded.value ?? Checkpoint()
            if let result = checkpoint.result {
                if FileManager.default.fileExists(atPath: reportedMark(of: job)) {
                    report("skip \(job.id): done in an earlier run")
                } else {
                    reportDone(job, result: result)     // an earlier run saved it, then was killed
                }
            } else {
                queue.append((job, store, checkpoint))
            }
        }
        let pending = LockedValue(queue[...])
        let finished = LockedValue(0)
        let failed = LockedValue<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    while !scheduler.isShuttingDown, let (job, store, checkpoint) = pending.withLock({ $0.popFirst() }) {
                        switch await attempt(job, store: store, from: checkpoint) {
                        case .done: finished.withLock { $0 += 1 }
                        case .failed: failed.withLock { $0.append(job.id) }
                        case .again(let next):
                            if !scheduler.isShuttingDown { pending.withLock { $0.append((job, store, next)) } }
                        }
                    }
                }
            }
        }
        let summary = Summary(failed: failed.withLock { $0 }, left: queue.count - finished.withLock { $0 })
        if !summary.failed.isEmpty {
            report("failed: \(summary.failed.joined(separator: ", ")); \(summary.left) job(s) left for the next run")
        } else {
            report(summary.left == 0 ? "all jobs done" : "shutdown: \(summary.left) job(s) left for the next run")
        }
        return summary
    }

    /// The mark that a job's `done` line was reported.
    private func reportedMark(of job: Job) -> String {
        state.appendingPathComponent("job-\(job.id).reported").path
    }

    /// Reports a saved result, then marks it reported: the `open` that makes the mark is the first
    /// system call after the line's `write`.
    private func reportDone(_ job: Job, result: Int) {
        let mark = reportedMark(of: job)
        report("done \(job.id) result \(result)")
        let descriptor = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            return report("state \(job.id): cannot mark its result reported (\(String(cString: strerror(errno)))); "
                          + "the next run reports it again")
        }
        // Flushed to disk, with the folder's entry, so that a power cut does not undo the mark either.
        flushToDisk(descriptor)
        close(descriptor)
        let folder = open(state.path, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            flushToDisk(folder)
            close(folder)
        }
    }

    /// Flushes a file to the drive itself. On Apple systems `fsync` reaches only the drive's cache,
    /// which "may not physically write the data … for quite some time" (fsync(2), which points to
    /// `F_FULLFSYNC`); where `F_FULLFSYNC` fails (some file systems lack it), `fsync` is the fallback.
    private func flushToDisk(_ descriptor: Int32) {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        _ = fsync(descriptor)
    }

    /// What the queue does with a job after an attempt.
    private enum Next {
        case done, failed
        case again(Checkpoint)
    }

    /// Runs one attempt at a job.
    private func attempt(_ job: Job, store: StateStore<Checkpoint>, from checkpoint: Checkpoint) async -> Next {
        report(checkpoint.nextStep == 0 ? "start \(job.id)" : "resume \(job.id) from step \(checkpoint.nextStep)")
        do {
            let outcome = try await withBackgroundTask(named: job.id, allowance: allowance, warningLead: warningLead,
                                                       scheduler: scheduler) { task in
                try await runAttempt(of: job, from: checkpoint, store: store, clock: clock, task: task)
            }
            switch (outcome.result, outcome.stopReason) {
            case (.success(.done(let result)), _):
                reportDone(job, result: result)
                return .done
            case (.success(.checkpointed(let step)), _):
                report("checkpoint \(job.id) at step \(step)\(scheduler.isShuttingDown ? " (shutdown)" : "")")
            case (.failure, let reason?):
                report("stopped \(job.id): \(reason); its last checkpoint stands")
            case (.failure(let error), nil) where error is CancellationError:
                report("stopped \(job.id): cancelled; its last checkpoint stands")    // the caller's task was cancelled
            case (.failure(let error), nil):
                report("failed \(job.id): \(error); its last checkpoint stands")
                return .failed
            }
            return .again(try store.load().value ?? Checkpoint())
        } catch {
            report("error \(job.id): \(error)")
            return .failed
        }
    }
}
