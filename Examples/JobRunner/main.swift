// A worker that runs jobs under budgets on real time: N at once, each warned before its allowance runs
// out (it checkpoints and goes back in the queue), and on SIGTERM or SIGINT all of them warned at once
// and stopped within the grace period. A restart resumes every job from its checkpoint; a job's result
// is printed once, in the run that finished it. See README.md.
import BudgetClock
import Foundation
import JobBudgets
import SavedState

/// The command line: `JobRunner <jobs.jsonl | queue-folder> --state <folder> [options]`.
struct Options {
    var jobs = ""
    var state = ""
    var concurrency = 2
    var allowance = Duration.seconds(1)
    var warningLead = Duration.milliseconds(250)
    var grace = Duration.seconds(30)

    static let usage = """
        usage: JobRunner <jobs.jsonl | queue-folder> --state <folder> [--concurrency N] [--allowance S] \
        [--warning-lead S] [--grace S]
        """

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func seconds(_ text: String?, _ flag: String) throws -> Duration {
            guard let text, let value = Double(text), value >= 0 else { throw JobFileError(description: "\(flag) needs seconds >= 0") }
            return .milliseconds(Int64(value * 1000))
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--state": state = rest.popFirst() ?? ""
            case "--concurrency":
                guard let count = rest.popFirst().flatMap(Int.init), count > 0 else { throw JobFileError(description: "--concurrency needs a number > 0") }
                concurrency = count
            case "--allowance": allowance = try seconds(rest.popFirst(), argument)
            case "--warning-lead": warningLead = try seconds(rest.popFirst(), argument)
            case "--grace": grace = try seconds(rest.popFirst(), argument)
            case _ where argument.hasPrefix("-"): throw JobFileError(description: "unknown option \(argument)")
            default: jobs = argument
            }
        }
        guard !jobs.isEmpty, !state.isEmpty else { throw JobFileError(description: Self.usage) }
    }
}

/// Writes a line to standard output at once (no buffering: a parent process reads it as it comes).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Runs the jobs until all are done, or until a signal's shutdown has stopped them all.
func runWorker(_ options: Options) async throws -> Int32 {
    let jobs = try loadJobs(from: options.jobs)
    let clock = DispatchClock(label: "JobRunner.clock")
    let scheduler = BudgetScheduler(clock: clock)
    let signals = ShutdownSignals(scheduler: scheduler, grace: options.grace) { number in
        say("signal \(number == SIGTERM ? "SIGTERM" : "SIGINT"): every job warned, hard stops within \(options.grace)")
    }
    defer { signals.cancel() }
    let worker = Worker(clock: clock, scheduler: scheduler, state: URL(fileURLWithPath: options.state),
                        concurrency: options.concurrency, allowance: options.allowance, warningLead: options.warningLead,
                        report: say)
    try await worker.run(jobs)
    clock.shutdown()
    return 0
}

do {
    exit(try await runWorker(try Options(Array(CommandLine.arguments.dropFirst()))))
} catch {
    FileHandle.standardError.write(Data("JobRunner: \(error)\n".utf8))
    exit(2)
}
