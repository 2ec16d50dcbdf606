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
    let folder = URL(fileURLWithPath: options.state)
    let clock = DispatchClock(label: "JobRunner.clock")
    let scheduler = BudgetScheduler(clock: clock)
    let signals = ShutdownSignals(scheduler: scheduler, grace: options.grace) { number in
        say("signal \(number == SIGTERM ? "SIGTERM" : "SIGINT"): every job warned, hard stops within \(options.grace)")
    }
    defer { signals.cancel() }
    var queue: [(Job, StateStore<Checkpoint>, Checkpoint)] = []
    for job in jobs {
        let store = try StateStore<Checkpoint>(directory: folder, name: "job-\(job.id)")
        let loaded = try store.load()
        for issue in loaded.issues { say("state \(job.id): \(issue)") }
        let checkpoint = loaded.value ?? Checkpoint()
        if checkpoint.result != nil {
            say("skip \(job.id): done in an earlier run")
        } else {
            queue.append((job, store, checkpoint))
        }
    }
    let pending = LockedValue(queue[...])
    let finished = LockedValue(0)
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<options.concurrency {
            group.addTask {
                while !scheduler.isShuttingDown, let (job, store, checkpoint) = pending.withLock({ $0.popFirst() }) {
                    say(checkpoint.nextStep == 0 ? "start \(job.id)" : "resume \(job.id) from step \(checkpoint.nextStep)")
                    let next: Checkpoint
                    do {
                        let outcome = try await withBackgroundTask(named: job.id, allowance: options.allowance,
                                                                   warningLead: options.warningLead, scheduler: scheduler) { task in
                            try await runAttempt(of: job, from: checkpoint, store: store, clock: clock, task: task)
                        }
                        switch outcome.result {
                        case .success(.done(let result)):
                            say("done \(job.id) result \(result)")
                            finished.withLock { $0 += 1 }
                            continue
                        case .success(.checkpointed(let step)):
                            say("checkpoint \(job.id) at step \(step)\(scheduler.isShuttingDown ? " (shutdown)" : "")")
                        case .failure(let error):
                            say("stopped \(job.id): \(outcome.stopReason.map { "\($0)" } ?? "\(error)"); its last checkpoint stands")
                        }
                        next = try store.load().value ?? Checkpoint()
                    } catch {
                        say("error \(job.id): \(error)")
                        continue
                    }
                    if !scheduler.isShuttingDown { pending.withLock { $0.append((job, store, next)) } }
                }
            }
        }
    }
    let left = queue.count - finished.withLock { $0 }
    say(scheduler.isShuttingDown ? "shutdown: \(left) job(s) left for the next run" : "all jobs done")
    clock.shutdown()
    return 0
}

do {
    exit(try await runWorker(try Options(Array(CommandLine.arguments.dropFirst()))))
} catch {
    FileHandle.standardError.write(Data("JobRunner: \(error)\n".utf8))
    exit(2)
}
