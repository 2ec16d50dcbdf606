// A worker that runs jobs under budgets on real time: N at once, each warned before its allowance runs
// out (it checkpoints and goes back in the queue), and on SIGTERM or SIGINT all of them warned at once
// and stopped within the grace period. A restart resumes every job from its checkpoint, and prints the
// results an earlier run saved but was killed before printing: each result is printed once. One
// worker per state folder (a lock). See README.md.
import BudgetClock
import Foundation
import JobBudgets
import SavedState

/// Writes a line to standard output at once (no buffering: a parent process reads it as it comes).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Runs the jobs until all are done or have failed, or until a signal's shutdown has stopped them all.
/// - Returns: The exit status: 0, or 1 when a job failed.
func runWorker(_ options: Options) async throws -> Int32 {
    let jobs = try loadJobs(from: options.jobs)
    try options.check(jobs)
    // Held until the process ends (the kernel drops it then, however the process ends).
    _ = try WorkerLock.acquire(in: URL(fileURLWithPath: options.state))
    let clock = DispatchClock(label: "JobRunner.clock")
    let scheduler = BudgetScheduler(clock: clock)
    let signals = ShutdownSignals(scheduler: scheduler, grace: options.grace) { number in
        say("signal \(number == SIGTERM ? "SIGTERM" : "SIGINT"): every job warned, hard stops within \(options.grace)")
    }
    defer { signals.cancel() }
    let worker = Worker(clock: clock, scheduler: scheduler, state: URL(fileURLWithPath: options.state),
                        concurrency: options.concurrency, allowance: options.allowance, warningLead: options.warningLead,
                        report: say)
    let summary = try await worker.run(jobs)
    clock.shutdown()
    return summary.failed.isEmpty ? 0 : 1
}

do {
    exit(try await runWorker(try Options(Array(CommandLine.arguments.dropFirst()))))
} catch {
    FileHandle.standardError.write(Data("JobRunner: \(error)\n".utf8))
    exit(error is WorkerLock.Held ? 3 : 2)
}
