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
    }

    /// `bgbudget explore FILE [--invariant NAME]… [--seeds N] [--first-seed S] [--sequences N] [--length N]
    /// [--depth D] [--weight EVENT=N]… [--out PATH]`: random walks from each seed and, with `--depth`, the exhaustive
    /// search; prints a summary and each failure shrunk, with the first one's scenario file, its relative
    /// paths rebased to the current folder (or writes it to `--out`, rebased to that file's folder). Exits with ``ExitStatus/failure`` when an invariant broke.
    static func exploreCommand(_ arguments: [String], progress: (@Sendable (String) -> Void)?) -> Outcome {
        let options: ExploreOptions
        switch parseExplore(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let failed): return failed.outcome
        }
        guard let file = options.file else {
            return .usage("'explore' needs a scenario file: bgbudget explore FILE [--invariant NAME]… [--seeds N] [--depth D]")
        }
        let explorer: Explorer
        do {
            let bytes = try InputFile.contents(of: file, limit: InputFile.scenarioLimit)
            let target = try ExplorerTarget(jsonBytes: bytes, file: file)
            let menu = try ExplorerMenu.standard(for: target.scenario.apps.map(\.manifest)).weighted(settings: options.weights)
            explorer = try Explorer(target: target, invariants: options.invariants.isEmpty ? ExplorerInvariant.builtIn : options.invariants,
                                    menu: menu)
        } catch let error as InputFileError {
            return .failure("bgbudget: cannot read '\(quotedPath(file))': \(error)")
        } catch {
            return .failure("\(error)")
        }
        let started = ContinuousClock.now
        var lines = ["explore \(file): \(explorer.target.appIDs.count) app(s), \(explorer.menu.entries.count) events to choose from, "
                     + "invariants: \(explorer.invariants.map(\.name).joined(separator: ", "))"]
        var failures: [ExplorerFailure] = []
        func collect(_ found: [ExplorerFailure]) {
            for failure in found where !failures.contains(where: { $0.invariant == failure.invariant && $0.events == failure.events }) {
                failures.append(failure)
            }
        }
        if let seeds = options.seeds ?? (options.depth == nil ? 100 : nil), seeds > 0 {
            var tried = 0, failingSeeds = 0
            for offset in 0..<seeds {
                let seed = options.firstSeed &+ UInt64(offset)
                let report = explorer.randomWalks(seed: seed, sequences: options.sequences, length: options.length) { report in
                    if report.sequencesTried % 100 == 0 {
                        progress?("\rexplore: seed \(offset + 1)/\(seeds), \(tried + report.sequencesTried) sequences, \(failingSeeds) failing seeds\u{1B}[K")
                    }
                }
                tried += report.sequencesTried
                if !report.failures.isEmpty { failingSeeds += 1 }
                collect(report.failures)
            }
            lines.append("random walks: \(seeds) seeds from \(options.firstSeed), up to \(options.sequences) sequences of \(options.length) events each: "
                         + "sequences tried: \(tried), seeds that found a failure: \(failingSeeds)/\(seeds)")
        }
        if let depth = options.depth {
            let report = explorer.exhaustive(depth: depth) { report in
                progress?("\rexplore: exhaustive search, \(report.sequencesTried) sequences, \(report.statesSeen) states\u{1B}[K")
            }
            lines.append("exhaustive search to depth \(depth): sequences tried: \(report.sequencesTried), states seen: \(report.statesSeen), "
                         + "failing sequences: \(report.failingSequences)")
            collect(report.failures)
        }
        progress?("\r\u{1B}[K")
        let elapsed = started.duration(to: .now)
        lines.append("distinct shrunk failures: \(failures.count), time: \(formatSeconds(elapsed.nanosecondsSaturating)) s")
        for failure in failures { lines.append(failure.description) }
        var output = lines.joined(separator: "\n") + "\n"
        if let first = failures.first {
            if let out = options.out {
                // Relative Info.plist paths resolve against the file's folder: move them to the new one.
                if let problem = OutputFile.replace(out, with: ScenarioFileRebase.text(first.scenarioFile, from: file, to: out)) {
                    return .failure("bgbudget: cannot write '\(quotedPath(out))': \(problem)")
                }
                output += "the first counterexample is in \(out): bgbudget run \(out)\n"
            } else {
                // Printed, it is saved where the command ran: its relative paths are rebased to the current folder.
                output += "\nthe first counterexample, as a scenario file that bgbudget run replays when saved in the current folder "
                    + "(its relative paths lead from there; --out PATH writes it elsewhere):\n"
                    + ScenarioFileRebase.text(first.scenarioFile, from: file, to: "counterexample.json")
            }
        }
        guard !failures.isEmpty else { return .success(output) }
        var names: [String] = []
        for failure in failures where !names.contains(failure.invariant) { names.append(failure.invariant) }
        return Outcome(status: .failure, standardOutput: output,
                       standardError: "bgbudget: \(names.count) invariant\(names.count == 1 ? "" : "s") broke: \(names.joined(separator: ", "))\n")
    }

    /// Reads the options of `explore`.
    static func parseExplore(_ arguments: [String]) -> Result<ExploreOptions, Failed> {
        var options = ExploreOptions()
        var index = 0
        func fail(_ message: String) -> Result<ExploreOptions, Failed> { .failure(Failed(outcome: .usage(message))) }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let (name, inlineValue) = split(argument)
            let valued = ["--invariant", "--seeds", "--first-seed", "--sequences", "--length", "--depth", "--weight", "--out"]
            if name == "--help" || name == "-h" { return .failure(Failed(outcome: .success(help(for: "explore")))) }
            if valued.contains(name) {
                var value = inlineValue ?? ""
                if inlineValue == nil {
                    guard index < arguments.count else { return fail("\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                func count(_ range: ClosedRange<Int>) -> Int? {
                    guard let number = Int(value), range.contains(number) else { return nil }
                    return number
                }
                switch name {
                case "--invariant":
                    do {
                        options.invariants += try ExplorerInvariant.named(value)
                    } catch {
                        return fail("\(error)")
                    }
                case "--first-seed":
                    guard let seed = UInt64(value) else { return fail("--first-seed needs a whole number from 0; got '\(clipped(value))'") }
                    options.firstSeed = seed
                case "--weight":
                    guard value.contains("=") else { return fail("--weight needs EVENT=N (N from 0 to 1000000); got '\(clipped(value))'") }
                    options.weights.append(value)
                case "--out":
                    guard !value.isEmpty else { return fail("--out needs a file path") }
                    options.out = value
                default:
                    let range = name == "--depth" ? 0...12 : (name == "--length" ? 1...10_000 : 0...100_000_000)
                    guard let number = count(range) else {
                        return fail("\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound); got '\(clipped(value))'")
                    }
                    switch name {
                    case "--seeds": options.seeds = number
                    case "--sequences": options.sequences = number
                    case "--length": options.length = number
                    default: options.depth = number
                    }
                }
            } else if argument.hasPrefix("-") && argument != "-" {
                return fail("unknown option '\(clipped(argument))' for 'explore'; accepted: \(valued.joined(separator: ", ")), --help")
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
