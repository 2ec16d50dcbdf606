import BackgroundBudgetExplorer
import Foundation
import Testing
import BackgroundBudgetCore
@testable import BackgroundBudgetScenario

@Suite struct ScenarioCommandTests {
    /// Runs `body` with a fresh directory, removed afterwards.
    private func withDirectory(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgbudget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory)
    }

    /// Writes a scenario file and returns its path.
    private func file(_ name: String, _ text: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private let valid = """
        {"apps": [{"id": "com.example.news", "displayName": "News"}],
         "events": [{"at": 0, "do": "open", "app": "com.example.news"}, {"at": 4, "do": "home"}]}
        """

    @Test func runPrintsTheLogByDefaultAndTheOtherFormatsOnRequest() throws {
        try withDirectory { directory in
            let path = try file("ok.json", valid, in: directory)
            let log = ScenarioCommand.run(["run", path])
            #expect(log.status == .success)
            #expect(log.standardError == "")
            #expect(log.standardOutput.split(separator: "\n").last == "2026-01-01 00:00:04.000 News[1069:307] (state: suspended, reason: noBackgroundWork)")
            let jsonl = ScenarioCommand.run(["run", "--format", "jsonl", path])
            #expect(jsonl.standardOutput == (try Scenario(json: valid).run().rendered(as: .jsonl)))
            let svg = ScenarioCommand.run(["run", path, "--format=svg"])
            #expect(svg.standardOutput.hasPrefix("<svg"))
        }
    }

    @Test func runWritesToOutAndPrintsNothing() throws {
        try withDirectory { directory in
            let path = try file("ok.json", valid, in: directory)
            let out = directory.appendingPathComponent("timeline.svg").path
            let outcome = ScenarioCommand.run(["run", path, "-f", "svg", "-o", out])
            #expect(outcome == ScenarioCommand.Outcome(status: .success, standardOutput: "", standardError: ""))
            #expect(try String(contentsOfFile: out, encoding: .utf8) == (try Scenario(json: valid).run().rendered(as: .svg)))
        }
    }

    @Test func validateChecksWithoutRunning() throws {
        try withDirectory { directory in
            // Home with nothing on screen is valid JSON and a valid scenario; only a run refuses it.
            let refused = #"{"apps": [{"id": "com.example.news"}], "events": [{"at": 1, "do": "home"}]}"#
            let path = try file("refused.json", refused, in: directory)
            #expect(ScenarioCommand.run(["validate", path]) == .success("\(path): valid: 1 app, 1 event, ends at 1.000 s\n"))
            let run = ScenarioCommand.run(["run", path])
            #expect(run.status == .failure)
            #expect(run.standardOutput == "")
            #expect(run.standardError == "\(path):1:51: error: $.events[0]: the run stopped: cannot pressHome: no app is in the foreground\n")
        }
    }

    @Test func anInvalidScenarioFailsWithTheFileLineColumnAndPath() throws {
        try withDirectory { directory in
            let path = try file("bad.json", "{\"apps\": [],\n \"events\": [{\"at\": 1, \"do\": \"hme\"}]}", in: directory)
            for command in ["run", "validate"] {
                let outcome = ScenarioCommand.run([command, path])
                #expect(outcome.status == .failure)
                #expect(outcome.standardOutput == "")
                #expect(outcome.standardError.hasPrefix("\(path):2:29: error: $.events[0].do: unknown value \"hme\"; accepted: \"launch\""))
            }
            let malformed = try file("malformed.json", "{\"apps\": [}", in: directory)
            #expect(ScenarioCommand.run(["validate", malformed]).standardError
                == "\(malformed):1:11: error: $.apps[0]: malformed JSON: unexpected '}'; expected a value (object, array, string, number, true, false or null)\n")
        }
    }

    @Test func unreadableInputAndUnwritableOutputFail() throws {
        try withDirectory { directory in
            let missing = directory.appendingPathComponent("missing.json").path
            #expect(ScenarioCommand.run(["run", missing]) == .failure("bgbudget: cannot read '\(missing)': no such file"))
            #expect(ScenarioCommand.run(["validate", directory.path]) == .failure("bgbudget: cannot read '\(directory.path)': it is a directory"))
            let path = try file("ok.json", valid, in: directory)
            let out = directory.appendingPathComponent("no/such/dir/out.svg").path
            let outcome = ScenarioCommand.run(["run", path, "--out", out])
            #expect(outcome.status == .failure)
            #expect(outcome.standardError.hasPrefix("bgbudget: cannot write '\(out)'"))
        }
    }

    @Test func misuseIsAUsageErrorWithAHint() {
        let cases: [([String], String)] = [
            ([], "missing command; expected one of run, validate, explore, check, merge, --help"),
            (["rn", "x.json"], "unknown command 'rn' (did you mean 'run'?); expected one of run, validate, explore, check, merge, --help"),
            (["--verbose"], "unknown option '--verbose'; expected a command: run, validate, explore, check, merge, --help"),
            (["run"], "'run' needs a scenario file: bgbudget run FILE [--format log|jsonl|svg] [--out PATH]"),
            (["run", "a.json", "b.json"], "'run' takes one scenario file; got 'a.json' and 'b.json'"),
            (["run", "a.json", "--format"], "--format needs a value"),
            (["run", "a.json", "--format", "png"], "unknown format 'png' for --format; accepted: log, jsonl, svg"),
            (["run", "a.json", "--format", "log", "-f", "svg"], "--format given twice"),
            (["run", "a.json", "--out="], "--out needs a file path"),
            (["run", "a.json", "--out", "x", "--out", "y"], "--out given twice"),
            (["run", "a.json", "--quiet"], "unknown option '--quiet' for 'run'; accepted: --format, --out, --from, --to, --help"),
            (["run", "a.json", "--from", "6x"], TimelineWindowError.notADuration(option: "--from", value: "6x").description),
            (["run", "a.json", "--to", "-5"], TimelineWindowError.notADuration(option: "--to", value: "-5").description),
            (["run", "a.json", "--to", "1h", "--to", "2h"], "--to given twice"),
            (["run", "a.json", "--from", "1h"], "--from and --to choose the stretch of the timeline to draw: use them with --format svg"),
            (["validate"], "'validate' needs a scenario file: bgbudget validate FILE"),
            (["validate", "--format", "svg"], "unknown option '--format' for 'validate'; it takes only a file"),
            (["validate", "a.json", "b.json"], "'validate' takes one scenario file; got 'a.json' and 'b.json'"),
        ]
        for (arguments, message) in cases {
            #expect(ScenarioCommand.run(arguments) == .usage(message), "\(arguments)")
            #expect(ScenarioCommand.run(arguments).status.rawValue == 2)
        }
    }

    @Test func helpDescribesTheCommandsExitCodesAndTheWholeVocabulary() {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let outcome = ScenarioCommand.run(arguments)
            #expect(outcome.status == .success)
            #expect(outcome.standardOutput == ScenarioCommand.help)
        }
        // A command's --help is that command's page (BgbudgetOutputTests has the details).
        #expect(ScenarioCommand.run(["run", "--help"]) == .success(ScenarioCommand.help(for: "run")))
        #expect(ScenarioCommand.run(["validate", "-h"]) == .success(ScenarioCommand.help(for: "validate")))
        let help = ScenarioCommand.help
        #expect(help.contains("bgbudget run FILE [--format log|jsonl|svg] [--out PATH]"))
        #expect(help.contains("  2  the command line is wrong"))
        for verb in ScenarioAction.vocabulary { #expect(help.contains("  \(verb.name)")) }
        for verb in ScenarioStep.vocabulary { #expect(help.contains("  \(verb.name)")) }
    }
}
