import BackgroundBudgetExplorer
import Foundation
import Testing
import TestSupport
@testable import BackgroundBudgetScenario

/// `bgbudget explore`, run in-process.
@Suite struct ExploreCommandTests {
    static let draftLoss = SampleFiles.root.appendingPathComponent("Examples/scenarios/draft-loss.json").path

    /// The lines of the output without the one that gives the time.
    static func timeless(_ output: String) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("distinct shrunk failures:") ? String($0.prefix { $0 != "," }) : String($0) }
            .joined(separator: "\n")
    }

    @Test func exploreFindsTheDraftLossPrintsItShrunkAndExitsOne() throws {
        let outcome = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", "dataSaved:applicationWillTerminate",
                                           "--seeds", "3", "--depth", "2"])
        #expect(outcome.status == .failure)
        #expect(outcome.standardError == "bgbudget: 1 invariant broke: dataSaved\n")
        let output = outcome.standardOutput
        #expect(output.contains("random walks: 3 seeds from 1, up to 1000 sequences of 20 events each: "))
        #expect(output.contains("seeds that found a failure: 3/3"))
        #expect(output.contains("exhaustive search to depth 2: sequences tried: "))
        #expect(output.contains("distinct shrunk failures: 1, time: "))
        #expect(output.contains("  1. open com.example.notes\n  2. home\n  3. purge com.example.notes\n"))
        #expect(output.contains(#"{"at": 0, "do": "purge", "app": "com.example.notes"}"#))
        // Deterministic apart from the time it took.
        let again = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", "dataSaved:applicationWillTerminate",
                                         "--seeds", "3", "--depth", "2"])
        #expect(Self.timeless(again.standardOutput) == Self.timeless(output))
    }

    @Test func exploreWritesTheCounterexampleToOutAndBgbudgetRunReplaysIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("lost-draft.json").path
        let outcome = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant=dataSaved:applicationWillTerminate",
                                           "--seeds=2", "--out", out])
        #expect(outcome.status == .failure)
        #expect(outcome.standardOutput.hasSuffix("the first counterexample is in \(out): bgbudget run \(out)\n"))
        let replay = ScenarioCommand.run(["run", out])
        #expect(replay.status == .success)
        #expect(replay.standardOutput.contains("(state: notRunning, reason: memoryPressure)"))
        let svg = ScenarioCommand.run(["run", out, "--format", "svg"])
        #expect(svg.standardOutput.hasPrefix("<svg"))
    }

    @Test func exploreOfAFixedAppSucceedsAndReportsProgress() {
        let lines = TestLog<String>()
        let outcome = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", "dataSaved:applicationDidEnterBackground,applicationWillTerminate",
                                           "--invariant", "all", "--seeds", "1", "--sequences", "100", "--depth", "2"],
                                          progress: { lines.append($0) })
        #expect(outcome.status == .success, "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("distinct shrunk failures: 0"))
        #expect(outcome.standardOutput.contains("invariants: dataSaved, noWatchdogKill, noKillWithOpenTask"))
        let progress = lines.entries
        #expect(progress.contains { $0.hasPrefix("\rexplore: seed 1/1, ") && $0.contains(" sequences, ") && $0.contains("0 failing seeds") })
        #expect(progress.contains { $0.hasPrefix("\rexplore: exhaustive search to depth 2, ") })
        #expect(progress.last == "\r\u{1B}[K")
    }

    @Test(arguments: [
        (["explore"], "'explore' needs a scenario file: " + ScenarioCommand.exploreUsage),
        (["explore", "a.json", "b.json"], "'explore' takes one scenario file; got 'a.json' and 'b.json'"),
        (["explore", "a.json", "--depth", "13"], "--depth needs a whole number from 0 to 12; got '13'"),
        (["explore", "a.json", "--seeds"], "--seeds needs a value"),
        (["explore", "a.json", "--fast"], "unknown option '--fast' for 'explore'; accepted: --invariant, --seeds, --first-seed, --sequences, --length, --depth, --weight, --time-limit, --jobs, --shard, --out, --report, --force, --help"),
        (["explore", "a.json", "--weight", "open"], "--weight needs EVENT=N, N a whole number from 0 (leave the event out) to 1000000; got 'open'"),
        (["explore", "a.json", "--invariant", "noCrash"], "unknown invariant 'noCrash'; expected one of " + ExplorerInvariant.names.joined(separator: ", ")),
    ])
    func exploreRefusesAWrongCommandLine(arguments: [String], message: String) {
        #expect(ScenarioCommand.run(arguments) == .usage(message))
    }

    @Test func weightsFromTheCommandLineChangeWhatIsPicked() {
        // The user never opens the app, so never types: nothing to lose.
        let unopened = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", "dataSaved:applicationWillTerminate",
                                            "--seeds", "2", "--sequences", "50", "--weight", "open=0"])
        #expect(unopened.status == .success, "\(unopened.standardOutput)")
        #expect(unopened.standardOutput.contains("distinct shrunk failures: 0"))
        let unknown = ScenarioCommand.run(["explore", Self.draftLoss, "--weight", "sing=1"])
        #expect(unknown.status == .usage)
        #expect(unknown.standardError.hasPrefix("bgbudget: --weight: no menu event is called 'sing'; the events are open, "))
        let negative = ScenarioCommand.run(["explore", Self.draftLoss, "--weight=open=-2"])
        #expect(negative.standardError.hasPrefix("bgbudget: --weight needs EVENT=N, N a whole number from 0"))
    }

    @Test func exploreReportsAnUnreadableOrInvalidFile() {
        let missing = ScenarioCommand.run(["explore", "/nonexistent/scenario.json"])
        #expect(missing.status == .failure)
        #expect(missing.standardError.hasPrefix("bgbudget: cannot read '/nonexistent/scenario.json': "))
    }
}
