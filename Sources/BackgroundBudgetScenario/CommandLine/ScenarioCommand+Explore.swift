import BackgroundBudgetCore
import BackgroundBudgetExplorer
import BudgetTime

extension ScenarioCommand {
    /// The settings of `bgbudget explore`.
    struct ExploreOptions {
        var file: String?
        var invariants: [ExplorerInvariant] = []
        var seeds: Int?
        var firstSeed: UInt64 = 1
        var sequences = 1_000
        var length = 20
        var depth: Int?
        var out: String?
        /// `--weight EVENT=N` settings, in order.
        var weights: [String] = []
        /// The wall-clock limit of the whole exploration; `nil` for none (`--time-limit 0`).
        var timeLimit: Duration? = defaultTimeLimit
        /// `--force`: search even when the exhaustive search's estimate passes the time limit.
        var force = false
        /// The raw `--invariant` values, in order, for the report.
        var invariantOptions: [String] = []
        /// `--jobs N`: threads to run at once; the machine's processors by default.
        var jobs: Int?
        /// `--shard I/N`: the part of the exploration to run; `nil` for all.
        var shard: ExplorerPartition?
        /// `--report PATH`: where to write the report as JSON.
        var report: String?
    }

    /// The time limit `explore` keeps without `--time-limit`: five minutes. A CI job's own timeout is
    /// usually ten minutes or more, and the build and the other tests need their share of it; a search
    /// cut short still prints (and saves) what it found.
    static let defaultTimeLimit: Duration = .seconds(300)

    /// The options of `explore` that take a value, in the order the usage lists them.
    static let exploreValued = ["--invariant", "--seeds", "--first-seed", "--sequences", "--length", "--depth", "--weight",
                                "--time-limit", "--jobs", "--shard", "--out", "--report"]

    /// The usage line of `explore`, as messages give it.
    static let exploreUsage = "bgbudget explore FILE [--invariant NAME]... [--seeds N] [--first-seed S] [--sequences N] [--length N] "
        + "[--depth D] [--weight EVENT=N]... [--time-limit SECONDS] [--force] [--jobs N] [--shard I/N] [--out PATH] [--report PATH]"

    /// `bgbudget explore FILE [options]` (``exploreUsage``): random walks from each seed and, with `--depth`, the
    /// exhaustive search, on `--jobs` threads, all of it or one `--shard`; prints a summary and each failure (an
    /// invariant breaking for an app) with the smallest of its finds' minima, and the first one's scenario file, its
    /// relative paths rebased to the current folder (or writes it to `--out`, rebased to that file's folder);
    /// `--report` writes the report as JSON for `merge`. Exits with ``ExitStatus/failure`` when an invariant broke.
    /// - Parameters:
    ///   - arguments: The arguments after `explore`.
    ///   - progress: Where the progress line goes; `nil` for none.
    ///   - interrupted: Asked as the search goes whether to stop now with what it found (Ctrl-C).
    static func exploreCommand(_ arguments: [String], progress: (@Sendable (String) -> Void)?,
                               interrupted: (@Sendable () -> Bool)? = nil) -> Outcome {
        let options: ExploreOptions
        switch parseExplore(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let failed): return failed.outcome
        }
        guard let file = options.file else { return .usage("'explore' needs a scenario file: \(exploreUsage)") }
        if let out = options.out, out == options.report { return .usage("--out and --report name the same file '\(quotedPath(out))'") }
        // Refused before anything is read or searched: a finding is never lost to an unwritable --out or --report.
        for (path, option) in [(options.out, "--out"), (options.report, "--report")] {
            if let path, let problem = OutputFile.problemWriting(path) {
                return .refused("cannot write '\(quotedPath(path))' (\(option)): \(problem); nothing was explored")
            }
        }
        var explorer: Explorer
        let digest: String
        switch loadExplorer(file, invariants: options.invariants, weights: options.weights) {
        case .success(let loaded): (explorer, digest) = loaded
        case .failure(let failed): return failed.outcome
        }
        let setup = ExploreReport.Setup(file: file, digest: digest, apps: explorer.target.appIDs.count, menuEvents: explorer.menu.entries.count,
                                        invariants: explorer.invariants.map(\.name), invariantOptions: options.invariantOptions,
                                        weights: options.weights, seeds: options.seeds ?? (options.depth == nil ? 100 : nil),
                                        firstSeed: options.firstSeed, sequences: options.sequences, length: options.length, depth: options.depth)
        if let broken = explorer.setupFailure() {
            return setupBroken(broken, header: ExploreReport(setup: setup).header + "\n", explored: true)
        }
        let jobs = options.jobs ?? defaultJobs
        let started = ContinuousClock.now
        let limit = options.timeLimit
        let remaining: @Sendable () -> Duration? = { limit.map { $0 - started.duration(to: .now) } }
        let meter = ProgressMeter(started: started, limit: options.timeLimit, write: progress)
        explorer.interruption = { @Sendable in
            meter.tick()
            return interrupted?() ?? false
        }
        var estimate: TreeEstimate?
        if let depth = options.depth, depth >= 2 {
            var measured = TreeEstimate(explorer, depth: depth)
            measured.pieces = (options.shard?.count ?? 1) * jobs
            estimate = measured
            if let limit = options.timeLimit, !options.force, measured.seconds > limit.seconds {
                return .refused("the exhaustive search to depth \(depth) would try about \(roughCount(measured.sequences)) sequences "
                    + "(\(explorer.menu.entries.count) events per level), about \(roughDuration(measured.seconds)) at "
                    + "\(roughDuration(measured.secondsPerSequence)) each: past the time limit of \(roughDuration(limit.seconds)); "
                    + "use a smaller --depth (\(measured.deepestWithin(limit.seconds).map { "\($0) fits" } ?? "even 1 does not fit")), "
                    + "a longer --time-limit, more --shard or --jobs, or --force to search until the limit")
            }
            meter.say("\rexplore: exhaustive search to depth \(depth): about \(roughCount(measured.sequences)) sequences, "
                + "about \(roughDuration(measured.seconds))\n")
        }
        var report = exploreRun(explorer, setup: setup, shard: options.shard, jobs: jobs, remaining: remaining, meter: meter,
                                interrupted: interrupted, estimate: estimate?.sequences)
        meter.say("\r\u{1B}[K")
        if report.stopped != nil, !report.interrupted {
            report.stopped = "stopped at the time limit of \(roughDuration(options.timeLimit?.seconds ?? 0))"
        }
        var messages = ""
        if let path = options.report, let problem = OutputFile.replace(path, with: report.json) {
            messages += "bgbudget: cannot write '\(quotedPath(path))' (--report): \(problem)\n"
        }
        return reportOutcome(report, time: formatSeconds(started.duration(to: .now).nanosecondsSaturating), out: options.out, messages: messages)
    }

    /// What `explore` and `merge` print for a report, with the first counterexample saved to `out` or
    /// printed, and how they exit.
    static func reportOutcome(_ report: ExploreReport, time: String?, out: String?, messages: String = "") -> Outcome {
        var output = report.text(time: time)
        var messages = messages
        if let first = report.groups.first {
            let saved = saveCounterexample(first.minimum.scenarioFile, from: report.setup.file, to: out)
            output += saved.standardOutput
            messages += saved.standardError
        }
        guard let broke = report.brokeMessage else {
            return Outcome(status: report.interrupted ? .interrupted : (messages.isEmpty ? .success : .failure),
                           standardOutput: output, standardError: messages)
        }
        return Outcome(status: .failure, standardOutput: output, standardError: messages + broke)
    }

    /// Writes the first counterexample to `out`, or prints it; when writing fails (after the check
    /// before the search passed: the disk filled, the folder went), it is printed instead and standard
    /// error says why it could not be written and where it was to go. A finding is never lost.
    /// - Parameters:
    ///   - scenarioFile: The counterexample, as the explorer wrote it.
    ///   - file: The explored scenario file, whose folder its relative paths resolve from.
    ///   - out: Where to write it, or `nil` to print it.
    /// - Returns: What to add to standard output and to standard error.
    static func saveCounterexample(_ scenarioFile: String, from file: String, to out: String?) -> (standardOutput: String, standardError: String) {
        var messages = ""
        if let out {
            // Relative Info.plist paths resolve against the file's folder: move them to the new one.
            guard let problem = OutputFile.replace(out, with: ScenarioFileRebase.text(scenarioFile, from: file, to: out)) else {
                return ("the first counterexample is in \(out): bgbudget run \(out)\n", "")
            }
            messages = "bgbudget: cannot write '\(quotedPath(out))': \(problem); the counterexample is printed on standard output instead\n"
        }
        // Printed, it is saved where the command ran: its relative paths are rebased to the current folder.
        let printed = "\nthe first counterexample, as a scenario file that bgbudget run replays when saved in the current folder "
            + "(its relative paths lead from there; --out PATH writes it elsewhere):\n"
            + ScenarioFileRebase.text(scenarioFile, from: file, to: "counterexample.json")
        return (printed, messages)
    }

    /// The report of a file whose own events already break an invariant, before anything is explored:
    /// the same words for `explore` and `check`, and the same exit status and message as a failure found.
    static func setupBroken(_ broken: ExplorerFailure, header: String, explored: Bool) -> Outcome {
        let output = header + broken.description + "\n"
            + (explored ? "nothing was explored: every sequence would start broken; 'bgbudget check FILE' re-checks the file alone\n" : "")
        return Outcome(status: .failure, standardOutput: output, standardError: "bgbudget: 1 invariant broke: \(broken.invariant)\n")
    }

    /// Reads a scenario file and makes its explorer, with the command line's invariants and weights.
    static func loadExplorer(_ file: String, invariants: [ExplorerInvariant], weights: [String]) -> Result<(Explorer, String), Failed> {
        do {
            let bytes = try InputFile.contents(of: file, limit: InputFile.scenarioLimit)
            let target = try ExplorerTarget(jsonBytes: bytes, file: file)
            let standard = ExplorerMenu.standard(for: target.scenario.apps.map(\.manifest))
            let menu: ExplorerMenu
            do {
                menu = try standard.weighted(settings: weights)
            } catch {
                return .failure(Failed(outcome: .usage(weightProblem(error, menu: standard))))
            }
            return .success((try Explorer(target: target, invariants: invariants.isEmpty ? ExplorerInvariant.builtIn : invariants, menu: menu),
                             fnv1a64(bytes)))
        } catch let error as InputFileError {
            return .failure(Failed(outcome: .failure("bgbudget: cannot read '\(quotedPath(file))': \(error)")))
        } catch {
            return .failure(Failed(outcome: .failure("\(error)")))
        }
    }

    /// How many names an unknown `--weight` message lists before it says how many more there are.
    static let weightNamesShown = 12

    /// A `--weight` that the menu cannot take, in the words of a usage error: what was wrong, the
    /// closest name, and the event kinds (at most ``weightNamesShown``).
    static func weightProblem(_ error: ExplorerError, menu: ExplorerMenu) -> String {
        switch error {
        case .unknownMenuEvent(let name, let known):
            var kinds: [String] = []
            for entry in menu.entries where !kinds.contains(ExplorerMenu.name(of: entry.event)) { kinds.append(ExplorerMenu.name(of: entry.event)) }
            let shown = kinds.prefix(weightNamesShown).joined(separator: ", ")
            let more = kinds.count > weightNamesShown ? " and \(kinds.count - weightNamesShown) more" : ""
            return "--weight: no menu event is called '\(clipped(name))'\(suggestion(for: name, among: known)); "
                + "the events are \(shown)\(more), or one entry's whole description ('\(menu.entries.last.map { $0.event.description } ?? "wait 600 s")')"
        case .badWeightSetting(let text):
            return "--weight needs EVENT=N, N a whole number from 0 (leave the event out) to 1000000; got '\(clipped(text))'"
        case .emptyMenu:
            return "--weight left every event out: the menu would be empty"
        default:
            return "--weight: \(error)"
        }
    }

    /// Reads the options of `explore`.
    static func parseExplore(_ arguments: [String]) -> Result<ExploreOptions, Failed> {
        var options = ExploreOptions()
        var index = 0
        var given: Set<String> = []
        var repeatedValues: Set<String> = []
        func fail(_ message: String) -> Result<ExploreOptions, Failed> { .failure(Failed(outcome: .usage(message))) }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let (name, inlineValue) = split(argument)
            if name == "--help" || name == "-h" { return .failure(Failed(outcome: .success(help(for: "explore")))) }
            if name == "--force" {
                guard inlineValue == nil else { return fail("--force takes no value; got '\(clipped(argument))'") }
                guard given.insert(name).inserted else { return fail("--force given twice") }
                options.force = true
            } else if exploreValued.contains(name) {
                var value = inlineValue ?? ""
                if inlineValue == nil {
                    guard index < arguments.count else { return fail("\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                if name == "--invariant" || name == "--weight" {
                    // Repeatable, but the same setting twice is a slip.
                    guard repeatedValues.insert(name + " " + value).inserted else { return fail("\(name) '\(clipped(value))' given twice") }
                } else {
                    guard given.insert(name).inserted else { return fail("\(name) given twice") }
                }
                switch name {
                case "--invariant":
                    do {
                        options.invariants += try ExplorerInvariant.named(value)
                        options.invariantOptions.append(value)
                    } catch {
                        return fail("\(error)")
                    }
                case "--shard":
                    guard let shard = parseShard(value) else {
                        return fail("--shard needs I/N, N a whole number from 1 to 10000 and I from 1 to N; got '\(clipped(value))'")
                    }
                    options.shard = shard.count == 1 ? nil : shard
                case "--report":
                    guard !value.isEmpty else { return fail("--report needs a file path") }
                    options.report = value
                case "--first-seed":
                    guard let seed = UInt64(value) else { return fail("--first-seed needs a whole number from 0; got '\(clipped(value))'") }
                    options.firstSeed = seed
                case "--weight":
                    guard let equals = value.lastIndex(of: "="), equals > value.startIndex,
                          let weight = Int(value[value.index(after: equals)...]), (0...1_000_000).contains(weight) else {
                        return fail("--weight needs EVENT=N, N a whole number from 0 (leave the event out) to 1000000; got '\(clipped(value))'")
                    }
                    options.weights.append(value)
                case "--out":
                    guard !value.isEmpty else { return fail("--out needs a file path") }
                    options.out = value
                case "--time-limit":
                    guard let seconds = Double(value), seconds.isFinite, (0...604_800).contains(seconds) else {
                        return fail("--time-limit needs seconds from 0 (no limit) to 604800; got '\(clipped(value))'")
                    }
                    options.timeLimit = seconds == 0 ? nil : .nanoseconds(Int64((seconds * 1e9).rounded()))
                default:
                    let range = name == "--depth" ? 0...12 : (name == "--length" ? 1...10_000 : (name == "--jobs" ? 1...256 : 1...100_000_000))
                    guard let number = Int(value), range.contains(number) else {
                        return fail("\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound); got '\(clipped(value))'")
                    }
                    switch name {
                    case "--seeds": options.seeds = number
                    case "--sequences": options.sequences = number
                    case "--length": options.length = number
                    case "--jobs": options.jobs = number
                    default: options.depth = number
                    }
                }
            } else if argument.hasPrefix("-") && argument != "-" {
                let known = exploreValued + ["--force", "--help"]
                return fail("unknown option '\(clipped(argument))' for 'explore'\(suggestion(for: name, among: known)); "
                    + "accepted: \(known.joined(separator: ", "))")
            } else {
                if let file = options.file {
                    return fail("'explore' takes one scenario file; got '\(clipped(file))' and '\(clipped(argument))'")
                }
                options.file = argument
            }
        }
        return .success(options)
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// `about 79,000`: a count to two significant figures, with thousands separated.
func roughCount(_ value: Double) -> String {
    guard value.isFinite, value < 1e15 else { return "more than 10^15" }
    var whole = Int64(value.rounded())
    if whole >= 100 {
        var scale: Int64 = 1
        while whole / scale >= 100 { scale *= 10 }
        whole = (whole + scale / 2) / scale * scale
    }
    var text = String(whole)
    var index = text.count - 3
    while index > 0 {
        text.insert(",", at: text.index(text.startIndex, offsetBy: index))
        index -= 3
    }
    return text
}

/// `40 ms`, `12 s`, `6 min`, `3.5 h`, `12 days`, `more than a century`: a duration for a person.
func roughDuration(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds < 3.2e9 else { return "more than a century" }
    func one(_ value: Double) -> String {
        value >= 10 ? String(Int(value.rounded())) : String(Double((value * 10).rounded()) / 10).replacingZeroTenths()
    }
    if seconds < 1 { return "\(one(seconds * 1000)) ms" }
    if seconds < 120 { return "\(one(seconds)) s" }
    if seconds < 7_200 { return "\(one(seconds / 60)) min" }
    if seconds < 172_800 { return "\(one(seconds / 3_600)) h" }
    return "\(one(seconds / 86_400)) days"
}

extension String {
    /// `3` for `3.0`.
    fileprivate func replacingZeroTenths() -> String {
        hasSuffix(".0") ? String(dropLast(2)) : self
    }
}
