import BackgroundBudgetCore
import BackgroundBudgetExplorer
import BudgetTime
import Foundation

/// The `bgbudget` command-line tool, as a function from arguments to an outcome, so that tests run
/// it in-process; the executable is ``main(_:)``, which prints the outcome without ever trapping and
/// returns the status to exit with.
///
/// ```text
/// bgbudget run FILE [--format log|jsonl|svg] [--out PATH] [--from TIME] [--to TIME]
/// bgbudget validate FILE
/// bgbudget explore FILE [--invariant NAME]... [--seeds N] [--depth D] [--jobs N] [--shard I/N] [--report PATH] …
/// bgbudget check FILE [--invariant NAME]...
/// bgbudget merge REPORT... [--report PATH] [--out PATH]
/// bgbudget --help
/// ```
///
/// ```swift
/// let outcome = ScenarioCommand.run(["run", "Examples/scenarios/state-lab.json", "--format", "jsonl"])
/// // outcome.status == .success; outcome.standardOutput is the JSON Lines trace
/// ```
package enum ScenarioCommand {
    /// How the tool exits.
    package enum ExitStatus: Int32, Sendable, Hashable {
        /// Done: the trace was printed or written, or the scenario is valid.
        case success = 0
        /// The scenario is invalid or cannot be read, its run was refused at an event, or the output
        /// cannot be written. The message on standard error says where.
        case failure = 1
        /// The command line is wrong (unknown command or option, missing file), or asks for what cannot
        /// be done (an `--out` that cannot be written, a search past the time limit). Nothing was run.
        case usage = 2
        /// `explore` was interrupted (Ctrl-C) before it found anything; what it tried is printed.
        case interrupted = 130
    }

    /// What the tool prints and how it exits.
    package struct Outcome: Sendable, Hashable {
        /// The exit status.
        package var status: ExitStatus
        /// What goes to standard output: the trace, help, or a validation summary.
        package var standardOutput: String
        /// What goes to standard error: errors, each ending in a newline.
        package var standardError: String

        static func success(_ output: String) -> Outcome { Outcome(status: .success, standardOutput: output, standardError: "") }
        static func failure(_ message: String) -> Outcome { Outcome(status: .failure, standardOutput: "", standardError: message + "\n") }
        static func usage(_ message: String) -> Outcome {
            Outcome(status: .usage, standardOutput: "", standardError: "bgbudget: \(message)\nTry 'bgbudget --help'.\n")
        }
        /// A command line that is well formed but asks for what cannot be done: exit 2, without the hint.
        static func refused(_ message: String) -> Outcome {
            Outcome(status: .usage, standardOutput: "", standardError: "bgbudget: \(message)\n")
        }
    }

    /// The commands, for messages.
    static let commands = ["run", "validate", "explore", "check", "merge", "help"]

    /// Runs the tool.
    /// - Parameter arguments: The arguments after the program name.
    /// - Returns: What to print and the exit status. Errors never throw: they are in the outcome.
    /// - Parameter progress: Where `explore` writes its progress line as it goes (the executable passes
    ///   a writer to standard error when standard error is a terminal); `nil` writes none.
    /// - Parameter interrupted: Asked by `explore` as it searches whether to stop now and report what it
    ///   found (the executable answers `true` after a Ctrl-C); `nil` never stops it.
    package static func run(_ arguments: [String], progress: (@Sendable (String) -> Void)? = nil,
                            interrupted: (@Sendable () -> Bool)? = nil) -> Outcome {
        guard let command = arguments.first else { return .usage("missing command; expected one of run, validate, explore, check, merge, --help") }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "--help", "-h":
            return .success(help)
        case "help":
            // `bgbudget help explore` is `bgbudget explore --help`.
            guard let topic = rest.first else { return .success(help) }
            guard rest.count == 1, commands.contains(topic) else {
                return .usage("'help' takes one command: run, validate, explore, check, merge; got '\(clipped(rest.joined(separator: " ")))'")
            }
            return .success(help(for: topic))
        case "run":
            return runCommand(rest)
        case "validate":
            return validateCommand(rest)
        case "explore":
            return exploreCommand(rest, progress: progress, interrupted: interrupted)
        case "check":
            return checkCommand(rest)
        case "merge":
            return mergeCommand(rest)
        default:
            if command.hasPrefix("-") { return .usage("unknown option '\(clipped(command))'; expected a command: run, validate, explore, check, merge, --help") }
            let close = command.count > 64 ? nil : commands.min { editDistance(command, $0) < editDistance(command, $1) }
            let hint = close.map { editDistance(command, $0) <= 2 ? " (did you mean '\($0)'?)" : "" } ?? ""
            return .usage("unknown command '\(clipped(command))'\(hint); expected one of run, validate, explore, check, merge, --help")
        }
    }

    private static func runCommand(_ arguments: [String]) -> Outcome {
        var file: String?
        var format: ScenarioRun.Format?
        var out: String?
        var window: (from: BudgetInstant?, to: BudgetInstant?) = (nil, nil)
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let (name, inlineValue) = split(argument)
            switch name {
            case "--help", "-h":
                return .success(help(for: "run"))
            case "--format", "-f", "--out", "-o", "--from", "--to":
                let canonical = name.hasPrefix("--") ? name : (name == "-f" ? "--format" : "--out")
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { return .usage("\(canonical) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                if canonical == "--from" || canonical == "--to" {
                    if (canonical == "--from" ? window.from : window.to) != nil { return .usage("\(canonical) given twice") }
                    do {
                        let instant = try TimelineWindow.instant(parsing: value, option: canonical)
                        if canonical == "--from" { window.from = instant } else { window.to = instant }
                    } catch {
                        return .usage(error.description)
                    }
                } else if canonical == "--format" {
                    if format != nil { return .usage("--format given twice") }
                    guard let parsed = ScenarioRun.Format(rawValue: value) else {
                        return .usage("unknown format '\(clipped(value))' for --format; accepted: log, jsonl, svg")
                    }
                    format = parsed
                } else {
                    if out != nil { return .usage("--out given twice") }
                    guard !value.isEmpty else { return .usage("--out needs a file path") }
                    out = value
                }
            case _ where argument.hasPrefix("-") && argument != "-":
                return .usage("unknown option '\(clipped(argument))' for 'run'; accepted: --format, --out, --from, --to, --help")
            default:
                if let file { return .usage("'run' takes one scenario file; got '\(clipped(file))' and '\(clipped(argument))'") }
                file = argument
            }
        }
        guard let file else { return .usage("'run' needs a scenario file: bgbudget run FILE [--format log|jsonl|svg] [--out PATH]") }
        if window.from != nil || window.to != nil, format != .svg {
            return .usage("--from and --to choose the stretch of the timeline to draw: use them with --format svg")
        }
        let text: String
        switch rendered(file, as: format ?? .log, window: window) {
        case .success(let output): text = output
        case .failure(let failed): return failed.outcome
        }
        guard let out else { return .success(text) }
        if let problem = OutputFile.replace(out, with: text) {
            return .failure("bgbudget: cannot write '\(quotedPath(out))': \(problem)")
        }
        return .success("")
    }

    /// Loads, runs and renders a scenario file. The scenario and its trace are gone when this
    /// returns, so only the text is in memory while it is written.
    private static func rendered(_ file: String, as format: ScenarioRun.Format,
                                 window: (from: BudgetInstant?, to: BudgetInstant?)) -> Result<String, Failed> {
        let scenario: Scenario
        switch load(file) {
        case .success(let loaded): scenario = loaded
        case .failure(let outcome): return .failure(Failed(outcome: outcome))
        }
        let run: ScenarioRun
        do {
            run = try scenario.run()
        } catch {
            var located = error
            located.file = file
            return .failure(Failed(outcome: .failure(located.description)))
        }
        guard format == .svg, window.from != nil || window.to != nil else { return .success(run.rendered(as: format)) }
        do {
            return .success(try run.timeline(from: window.from, to: window.to))
        } catch {
            return .failure(Failed(outcome: .failure("bgbudget: \(quotedPath(file)): \(error)")))
        }
    }

    /// A failed outcome, as an error.
    struct Failed: Error {
        var outcome: Outcome
    }

    private static func validateCommand(_ arguments: [String]) -> Outcome {
        var file: String?
        for argument in arguments {
            if argument == "--help" || argument == "-h" { return .success(help(for: "validate")) }
            if argument.hasPrefix("-") { return .usage("unknown option '\(clipped(argument))' for 'validate'; it takes only a file") }
            if let file { return .usage("'validate' takes one scenario file; got '\(clipped(file))' and '\(clipped(argument))'") }
            file = argument
        }
        guard let file else { return .usage("'validate' needs a scenario file: bgbudget validate FILE") }
        let bytes: [UInt8]
        do {
            bytes = try InputFile.contents(of: file, limit: InputFile.scenarioLimit)
        } catch {
            return .failure("bgbudget: cannot read '\(quotedPath(file))': \(error)")
        }
        let scenario: Scenario
        do {
            scenario = try Scenario(jsonBytes: bytes, file: file)
        } catch {
            return invalid(file, Scenario.problems(inJSONBytes: bytes, file: file), first: error)
        }
        let apps = scenario.apps.count, events = scenario.events.count
        return .success("\(file): valid: \(apps) app\(apps == 1 ? "" : "s"), \(events) event\(events == 1 ? "" : "s"), "
            + "ends at \(formatSeconds(scenario.endInstant.nanoseconds)) s\n")
    }

    /// `validate`'s answer for a file that does not read: every problem, one a line, each with its
    /// position, then how many there were when more than one (exit 1, as for one).
    private static func invalid(_ file: String, _ problems: Scenario.Problems, first: ScenarioError) -> Outcome {
        // The reading that threw and the one that collects agree on the first problem; should they
        // not, the thrown one is still reported.
        let errors = problems.errors.isEmpty ? [first] : problems.errors
        var text = errors.map(\.description).joined(separator: "\n")
        if problems.truncated {
            text += "\nbgbudget: \(quotedPath(file)): stopped after \(errors.count) problems"
        } else if errors.count > 1 {
            text += "\nbgbudget: \(quotedPath(file)): \(errors.count) problems"
        }
        return .failure(text)
    }

    private enum Loaded {
        case success(Scenario)
        case failure(Outcome)
    }

    /// Reads and decodes a scenario file: a regular file of at most ``InputFile/scenarioLimit`` bytes.
    private static func load(_ file: String) -> Loaded {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.contents(of: file, limit: InputFile.scenarioLimit)
        } catch {
            return .failure(.failure("bgbudget: cannot read '\(quotedPath(file))': \(error)"))
        }
        do {
            return .success(try Scenario(jsonBytes: bytes, file: file))
        } catch {
            return .failure(.failure(error.description))
        }
    }

    /// A command-line argument as messages quote it: at most ``BoundedText/quoteLimit`` characters.
    static func clipped(_ argument: String) -> String {
        BoundedText.clipped(argument)
    }

    /// A path as messages quote it: whole, unless it is longer than any path a system accepts.
    static func quotedPath(_ path: String) -> String {
        BoundedText.clipped(path, limit: 1024)
    }

    /// `--name=value` as (`--name`, `value`); anything else as (argument, nil).
    static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
