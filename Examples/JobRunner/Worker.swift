import BudgetClock
import Foundation
import JobBudgets
import SavedState

/// Runs jobs `concurrency` at a time, each attempt under a budget, until every job is done or the
/// scheduler shuts down. Shared by the JobRunner example and the ServiceLifecycleWorker package.
///
/// An attempt that reaches its warning saves a checkpoint and goes back in the queue (unless the
/// scheduler is shutting down); an attempt cut by the hard stop leaves its last checkpoint standing.
/// A job whose checkpoint holds a result is skipped: its result was reported by the run that saved it.
struct Worker: Sendable {
    var clock: DispatchClock
    var scheduler: BudgetScheduler
    /// The folder of the checkpoints, one `StateStore` per job.
    var state: URL
    var concurrency: Int
    var allowance: Duration
    var warningLead: Duration
    /// Where progress lines go (`start a`, `checkpoint a at step 3`, `done a result 42`…).
    var report: @Sendable (String) -> Void

    func run(_ jobs: [Job]) async throws {
        var queue: [(Job, StateStore<Checkpoint>, Checkpoint)] = []
        for job in jobs {
            let store = try StateStore<Checkpoint>(directory: state, name: "job-\(job.id)")
            let loaded = try store.load()
            for issue in loaded.issues { report("state \(job.id): \(issue)") }
            let checkpoint = loaded.value ?? Checkpoint()
            if checkpoint.result != nil {
                report("skip \(job.id): done in an earlier run")
            } else {
                queue.append((job, store, checkpoint))
            }
        }
        let pending = LockedValue(queue[...])
        let finished = LockedValue(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    while !scheduler.isShuttingDown, let (job, store, checkpoint) = pending.withLock({ $0.popFirst() }) {
                        switch await attempt(job, store: store, from: checkpoint) {
                        case .done: finished.withLock { $0 += 1 }
                        case .failed: break
                        case .again(let next):
                            if !scheduler.isShuttingDown { pending.withLock { $0.append((job, store, next)) } }
                        }
                    }
                }
            }
        }
        let left = queue.count - finished.withLock { $0 }
        report(left == 0 ? "all jobs done" : "\(scheduler.isShuttingDown ? "shutdown" : "failed"): \(left) job(s) left for the next run")
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
            switch outcome.result {
            case .success(.done(let result)):
                report("done \(job.id) result \(result)")
                return .done
            case .success(.checkpointed(let step)):
                report("checkpoint \(job.id) at step \(step)\(scheduler.isShuttingDown ? " (shutdown)" : "")")
            case .failure(let error):
                report("stopped \(job.id): \(outcome.stopReason.map { "\($0)" } ?? "\(error)"); its last checkpoint stands")
            }
            return .again(try store.load().value ?? Checkpoint())
        } catch {
            report("error \(job.id): \(error)")
            return .failed
        }
    }
}
