/// The command line: `JobRunner <jobs.jsonl | queue-folder> --state <folder> [options]`. Every number is
/// checked here, so a value the clock or the scheduler cannot take is a usage error, never a trap.
struct Options {
    var jobs = ""
    var state = ""
    var concurrency = 2
    var allowance = Duration.seconds(1)
    var warningLead = Duration.milliseconds(250)
    var grace = Duration.seconds(30)

    /// The longest time any option takes, a year: far beyond any job's allowance or any shutdown's
    /// grace, and far inside what a `Duration` in nanoseconds or a Dispatch deadline can hold.
    static let maximumSeconds = 31_536_000.0
    /// The most jobs at once: each is a task and a budget; more than this is surely a typo.
    static let maximumConcurrency = 1_024

    static let usage = """
        usage: JobRunner <jobs.jsonl | queue-folder> --state <folder> [--concurrency N] [--allowance S] \
        [--warning-lead S] [--grace S]
          --concurrency N   jobs at once, 1 to \(maximumConcurrency) (2)
          --allowance S     seconds per attempt, more than 0 (1)
          --warning-lead S  seconds before the allowance runs out that a job is warned, more than 0 and
                            less than the allowance (0.25); every job's step must be shorter
          --grace S         seconds from SIGTERM or SIGINT to every job's hard stop, 0 or more (30)
        Seconds are plain decimals, digits or digits.digits (30, 0.25), up to \(Int(maximumSeconds)) (a year): no sign,
        exponent, hex, inf or nan.
        Jobs: a regular file of at most \(JobsInput.maximumBytes / 1024 / 1024) MiB, one JSON job a line, or a folder
        of *.json files, one job each; an id holds no control character or line break.
        Exit status: 0 every job done, or a signal's shutdown left the rest for the next run; 1 a job
        failed; 2 bad arguments, jobs or state; 3 another worker is using the state folder.
        """

    /// Reads the arguments (without the program's name).
    /// - Throws: A ``UsageError`` naming the flag and the value that is wrong.
    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        func value(_ flag: String) throws(UsageError) -> String {
            guard let text = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
            return text
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--state": state = try value(argument)
            case "--concurrency":
                let text = try value(argument)
                guard let count = Int(text), (1...Self.maximumConcurrency).contains(count) else {
                    throw UsageError("--concurrency \(text): needs a whole number from 1 to \(Self.maximumConcurrency)")
                }
                concurrency = count
            case "--allowance": allowance = try Self.seconds(argument, try value(argument), zeroAllowed: false)
            case "--warning-lead": warningLead = try Self.seconds(argument, try value(argument), zeroAllowed: false)
            case "--grace": grace = try Self.seconds(argument, try value(argument), zeroAllowed: true)
            case _ where argument.hasPrefix("-"): throw UsageError("unknown option \(argument)")
            default:
                guard jobs.isEmpty else { throw UsageError("one jobs file or folder, not two (\(jobs), \(argument))") }
                jobs = argument
            }
        }
        guard !jobs.isEmpty, !state.isEmpty else { throw UsageError("needs a jobs file or folder and --state <folder>") }
        // A lead as long as the allowance warns each attempt at its start: it would checkpoint at once,
        // go back in the queue, and no job would ever move.
        guard warningLead < allowance else {
            throw UsageError("--warning-lead \(warningLead.inSeconds) must be less than --allowance \(allowance.inSeconds)")
        }
    }

    /// Checks that every job can make progress under these options: a job's step must finish within
    /// the warning lead, or the step running at the warning could be cut by the hard stop every time.
    /// - Throws: A ``UsageError`` naming the first job whose step is too long.
    func check(_ jobs: [Job]) throws(UsageError) {
        if let job = jobs.first(where: { $0.step >= warningLead }) {
            throw UsageError("job \(job.id): its step (\(job.step.inSeconds) s) must be shorter than --warning-lead "
                             + "\(warningLead.inSeconds), or the hard stop could cut it at every attempt")
        }
    }

    /// A number of seconds, written as a plain decimal (``isPlainDecimal(_:)``): not zero unless
    /// `zeroAllowed`, at most a year.
    private static func seconds(_ flag: String, _ text: String, zeroAllowed: Bool) throws(UsageError) -> Duration {
        let bound = zeroAllowed ? "0 or more" : "more than 0"
        guard isPlainDecimal(text), let value = Double(text), value.isFinite, value <= maximumSeconds else {
            throw UsageError("\(flag) \(text): needs decimal seconds (digits, or digits.digits: 30, 0.25), \(bound), "
                             + "at most \(Int(maximumSeconds))")
        }
        let duration = Duration.nanoseconds(Int64((value * 1e9).rounded()))
        guard zeroAllowed || duration > .zero else { throw UsageError("\(flag) \(text): needs seconds, \(bound)") }
        return duration
    }

    /// Whether `text` is a plain decimal: ASCII digits, or ASCII digits, a point and ASCII digits (`30`,
    /// `0.25`, `007.50`). `Double(_:)` takes much more, none of it seconds a person writes: a sign, an
    /// exponent (`1e3`), hex (`0x10`, `0x1p3`), `inf`, `nan`.
    static func isPlainDecimal(_ text: String) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        return parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
    }
}

/// A command line that cannot be run: what is wrong, then the usage.
struct UsageError: Error, CustomStringConvertible {
    var problem: String

    init(_ problem: String) {
        self.problem = problem
    }

    var description: String { "\(problem)\n\(Options.usage)" }
}

extension Duration {
    /// The duration in seconds, as a decimal number (for messages).
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
