import BudgetClock
import Foundation
import JobBudgets
import Logging
import ServiceLifecycle

/// The JobRunner example's jobs as a `Service`: run it in a `ServiceGroup`, which turns `SIGTERM` into
/// a graceful shutdown.
///
/// - Graceful shutdown → ``BudgetScheduler/shutdown(grace:)``: every job is warned at once (it saves
///   a checkpoint and returns), and any job still running when `grace` has passed is stopped.
/// - Cancellation (the group's own escalation) → `shutdown(grace: .zero)`: every job's warning and
///   hard stop are due now, and the jobs' tasks are cancelled with the service's.
///
/// `run()` returns once every job has finished or stopped.
public struct JobService: Service {
    let jobs: [Job]
    let state: URL
    let concurrency: Int
    let allowance: Duration
    let warningLead: Duration
    let grace: Duration
    let logger: Logger

    /// Reads the jobs (a JSON Lines file or a queue folder, as JobRunner does) and makes the service.
    /// - Throws: An error naming the file and line of a job that cannot be read.
    public init(jobs path: String, state: URL, concurrency: Int = 2, allowance: Duration = .seconds(1),
                warningLead: Duration = .milliseconds(250), grace: Duration = .seconds(25), logger: Logger) throws {
        jobs = try loadJobs(from: path)
        self.state = state
        self.concurrency = concurrency
        self.allowance = allowance
        self.warningLead = warningLead
        self.grace = grace
        self.logger = logger
    }

    /// Runs the jobs until all are done or a shutdown has stopped them.
    public func run() async throws {
        let clock = DispatchClock(label: "JobService.clock")
        defer { clock.shutdown() }
        let scheduler = BudgetScheduler(clock: clock)
        let logger = self.logger
        let worker = Worker(clock: clock, scheduler: scheduler, state: state, concurrency: concurrency,
                            allowance: allowance, warningLead: warningLead, report: { logger.info("\($0)") })
        let grace = self.grace
        try await withTaskCancellationHandler {
            try await withGracefulShutdownHandler {
                try await worker.run(jobs)
            } onGracefulShutdown: {
                logger.info("graceful shutdown: every job warned, hard stops within \(grace)")
                scheduler.shutdown(grace: grace)
            }
        } onCancel: {
            scheduler.shutdown(grace: .zero)
        }
    }
}
