import BackgroundBudgetExplorer
import Foundation
import Testing
import TestSupport
@testable import BackgroundBudgetScenario

/// `explore --jobs`, `--shard` and `--report`, and `bgbudget merge`, in-process: the shards of an
/// exploration merge into the exploration in one piece, byte for byte, whatever the number of jobs;
/// finds of one failure are one group with its smallest minimum; and merge refuses reports that are
/// not one exploration's shards, saying which file and why.
@Suite(.timeLimit(.minutes(2))) struct ExploreShardTests {
    static let draftLoss = ExploreCommandTests.draftLoss
    static let options = ["--invariant", "dataSaved:applicationWillTerminate", "--seeds", "5", "--sequences", "50", "--depth", "2"]

    private func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explore-shard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.path)
    }

    private func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Two apps whose background tasks outlive a swipe from the app switcher: one failure for each app,
    /// found by the walks and by the exhaustive search at its last level.
    static let twoApps = """
        {"apps": [{"id": "com.example.leaky", "behaviour": {"applicationDidEnterBackground": [
                      {"do": "beginTask", "name": "upload", "onExpiration": "ignore"}]}},
                  {"id": "com.example.notes", "behaviour": {"applicationDidEnterBackground": [
                      {"do": "beginTask", "name": "save", "work": 20, "onExpiration": "end"}]}}],
         "events": []}
        """

    @Test func fourShardsMergeIntoTheWholeByteForByteWhateverTheJobs() throws {
        try withDirectory { folder in
            let file = folder + "/two-apps.json"
            try Self.twoApps.write(toFile: file, atomically: true, encoding: .utf8)
            let options = [file, "--invariant", "noKillWithOpenTask:anyExit", "--seeds", "6", "--sequences", "50", "--depth", "2"]
            let whole = ScenarioCommand.run(["explore"] + options + ["--jobs", "1", "--report", folder + "/whole.json"])
            #expect(whole.status == .failure)
            #expect(whole.standardOutput.contains("noKillWithOpenTask for com.example.leaky: found by "))
            #expect(whole.standardOutput.contains("noKillWithOpenTask for com.example.notes: found by "))
            #expect(whole.standardOutput.contains(" and the exhaustive search, "))
            let threaded = ScenarioCommand.run(["explore"] + options + ["--jobs", "3", "--report", folder + "/threaded.json"])
            #expect(try read(folder + "/threaded.json") == read(folder + "/whole.json"))
            #expect(ExploreCommandTests.timeless(threaded.standardOutput) == ExploreCommandTests.timeless(whole.standardOutput))
            var reports: [String] = []
            for index in 1...4 {
                let path = folder + "/shard-\(index).json"
                let shard = ScenarioCommand.run(["explore"] + options + ["--shard", "\(index)/4", "--jobs", "2", "--report", path])
                #expect(shard.status != .usage, "\(shard.standardError)")
                #expect(shard.standardOutput.contains("shard \(index)/4: "))
                reports.append(path)
            }
            let merged = ScenarioCommand.run(["merge"] + reports.reversed() + ["--report", folder + "/merged.json"])
            #expect(merged.status == .failure)
            #expect(merged.standardError == "bgbudget: 1 invariant broke: noKillWithOpenTask\n")
            #expect(try read(folder + "/merged.json") == read(folder + "/whole.json"))
            // The text too, but the time explore measured.
            #expect(merged.standardOutput == ExploreCommandTests.timeless(whole.standardOutput))
            // The report reads back as it was written.
            let report = try ExploreReport(file: folder + "/whole.json")
            #expect(try report.json == read(folder + "/whole.json"))
            #expect(report.walks.map(\.seed) == [1, 2, 3, 4, 5, 6])
            #expect(report.exhaustive?.finds.count == 2)
            // The whole exploration's report counts its last level's states; only shards list them.
            #expect(report.exhaustive?.lastStates.isEmpty == true)
            #expect((report.exhaustive?.lastStateCount ?? 0) > 0)
            #expect(try ExploreReport(file: reports[0]).exhaustive?.lastStates.isEmpty == false)
        }
    }

    @Test func findsOfOneFailureFromSeveralSeedsAreOneGroupWithOneMinimum() throws {
        let outcome = ScenarioCommand.run(["explore", Self.draftLoss] + Self.options)
        let output = outcome.standardOutput
        #expect(output.contains("distinct shrunk failures: 1, time: "))
        #expect(output.contains("dataSaved for com.example.notes: found by 5 seeds (1, 2, 3, 4, 5), each find shrunk to the same minimum:\n"))
        #expect(output.contains("  1. open com.example.notes\n  2. home\n  3. purge com.example.notes\n"))
        #expect(output.components(separatedBy: "broke at event").count == 2)
    }

    @Test func theSmallestOfAGroupsMinimaIsChosenWhicheverShardFoundIt() {
        func find(_ events: [String], wait: Int64, at seed: UInt64) -> ExploreReport.Walk {
            let measure = Explorer.ShrinkMeasure(events: events.count, totalWait: wait, menuPositions: 0, menuOrder: events.map { _ in 0 })
            return ExploreReport.Walk(offset: Int(seed) - 1, seed: seed, sequencesTried: 1, find: ExploreReport.Find(
                invariant: "leak", app: "com.example.a", message: "m", events: events, failingEvent: events.count - 1,
                foundLength: 9, measure: measure, foundAt: nil, scenarioFile: "{}"))
        }
        let setup = ExploreReport.Setup(file: "f.json", digest: "0", apps: 1, menuEvents: 3, invariants: ["leak"], invariantOptions: [],
                                        weights: [], seeds: 3, firstSeed: 1, sequences: 1, length: 1, depth: nil)
        var report = ExploreReport(setup: setup)
        report.walks = [find(["a", "b", "c", "d", "e"], wait: 0, at: 1), find(["a", "b", "c", "d"], wait: 5, at: 2),
                        find(["a", "b", "d", "c"], wait: 5, at: 3)]
        let groups = report.groups
        #expect(groups.count == 1)
        #expect(groups.first?.minimum.events == ["a", "b", "c", "d"])
        #expect(groups.first?.seeds == [1, 2, 3])
        #expect(groups.first?.headline == "leak for com.example.a: found by 3 seeds (1, 2, 3), shrunk to 3 minima; the smallest:")
    }

    @Test func mergeRefusesReportsThatAreNotOneExplorationsShards() throws {
        try withDirectory { folder in
            func explore(_ extra: [String], _ name: String) -> String {
                let path = folder + "/" + name
                _ = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", "dataSaved:applicationWillTerminate", "--seeds", "3",
                                         "--sequences", "20", "--report", path] + extra)
                return path
            }
            let one = explore(["--shard", "1/3"], "one.json"), two = explore(["--shard", "2/3"], "two.json")
            let three = explore(["--shard", "3/3"], "three.json"), other = explore(["--shard", "3/3", "--length", "7"], "other.json")
            let fourths = explore(["--shard", "2/4"], "fourths.json"), whole = explore([], "whole.json")
            #expect(ScenarioCommand.run(["merge", one, two]) == .refused("the reports of shard 3/3 are missing: merge needs every shard's report"))
            #expect(ScenarioCommand.run(["merge", one, two, two, three]) == .refused("'\(two)' is shard 2/3 again: give each shard's report once"))
            #expect(ScenarioCommand.run(["merge", one, two, other]).standardError
                    == "bgbudget: '\(other)' explored with --length 7, not 20: every shard must have the same options "
                    + "(all but --shard, --jobs, --time-limit, --force, --out and --report)\n")
            #expect(ScenarioCommand.run(["merge", one, fourths]) == .refused("'\(fourths)' is a shard of 4, not of 3"))
            #expect(ScenarioCommand.run(["merge", one, whole]) == .refused("'\(whole)' is the report of a whole exploration, not of a shard: there is nothing to merge it with"))
            // A report of the whole alone is printed as it is.
            #expect(ScenarioCommand.run(["merge", whole]).status == .failure)
            #expect(ScenarioCommand.run(["merge", one, two, three]).standardOutput.hasPrefix("explore \(Self.draftLoss): "))
            // Files that are not reports: each says what and where.
            let bad = folder + "/bad.json"
            try "{\"format\": \"bgbudget-explore-report\", \"version\": 2}".write(toFile: bad, atomically: true, encoding: .utf8)
            #expect(ScenarioCommand.run(["merge", bad]) == .failure("bgbudget: '\(bad)' is an explore report of version 2; this bgbudget reads version 1"))
            let edited = try read(one).replacingOccurrences(of: "\"sequencesTried\": ", with: "\"sequencesTried\": -")
            try edited.write(toFile: bad, atomically: true, encoding: .utf8)
            #expect(ScenarioCommand.run(["merge", bad]) == .failure("bgbudget: '\(bad)': $.walks[0].sequencesTried must be a whole number from 0"))
            // A shard whose seeds are not its own: edited, or of another build.
            try read(one).replacingOccurrences(of: "\"seed\": \"1\"", with: "\"seed\": \"9\"").write(toFile: bad, atomically: true, encoding: .utf8)
            #expect(ScenarioCommand.run(["merge", bad, two, three]) == .refused("'\(bad)' disagrees with the other shards on the seeds it ran "
                + "(seed 9 at place 1 is not its own), which every shard computes alike: were they made by the same bgbudget?"))
            try "[1,".write(toFile: bad, atomically: true, encoding: .utf8)
            #expect(ScenarioCommand.run(["merge", bad]).standardError.hasPrefix("bgbudget: '\(bad)' is not an explore report: "))
            try "{\"scenario\": 1}".write(toFile: bad, atomically: true, encoding: .utf8)
            #expect(ScenarioCommand.run(["merge", bad]).standardError.contains("is not an explore report (no \"format\""))
            #expect(ScenarioCommand.run(["merge", folder + "/none.json"]).standardError.hasPrefix("bgbudget: cannot read '\(folder)/none.json': "))
        }
    }

    @Test(arguments: [
        (["explore", "a.json", "--shard", "0/4"], "--shard needs I/N, N a whole number from 1 to 10000 and I from 1 to N; got '0/4'"),
        (["explore", "a.json", "--shard", "5/4"], "--shard needs I/N, N a whole number from 1 to 10000 and I from 1 to N; got '5/4'"),
        (["explore", "a.json", "--shard", "+1/4"], "--shard needs I/N, N a whole number from 1 to 10000 and I from 1 to N; got '+1/4'"),
        (["explore", "a.json", "--jobs", "0"], "--jobs needs a whole number from 1 to 256; got '0'"),
        (["explore", "a.json", "--jobs", "2", "--jobs=2"], "--jobs given twice"),
        (["explore", "a.json", "--shard", "1/2", "--shard", "2/2"], "--shard given twice"),
        (["explore", "a.json", "--report", ""], "--report needs a file path"),
        (["merge"], "'merge' needs the shards' reports: " + ScenarioCommand.mergeUsage),
        (["merge", "a.json", "--report", "x", "--report", "y"], "--report given twice"),
        (["merge", "a.json", "--out", "x", "--report", "x"], "--out and --report name the same file 'x'"),
        (["merge", "a.json", "--reprot", "x"], "unknown option '--reprot' for 'merge' (did you mean \"--report\"?); accepted: --report, --out, --help"),
    ])
    func theCommandLineRefusesWhatItCannotMean(arguments: [String], message: String) {
        #expect(ScenarioCommand.run(arguments) == .usage(message))
    }

    @Test func theHelpListsTheNewOptionsAndMerge() {
        let explore = ScenarioCommand.help(for: "explore")
        for option in ["--jobs N", "--shard I/N", "--report PATH", "[--jobs N] [--shard I/N] [--out PATH] [--report PATH]"] {
            #expect(explore.contains(option), "\(option)")
        }
        #expect(ScenarioCommand.run(["explore", "--job", "2"]).standardError.contains("(did you mean \"--jobs\"?)"))
        #expect(ScenarioCommand.help.contains(ScenarioCommand.mergeUsage))
        #expect(ScenarioCommand.run(["help", "merge"]) == .success(ScenarioCommand.help(for: "merge")))
        #expect(ScenarioCommand.help(for: "merge").contains(ScenarioCommand.mergeUsage))
        #expect(ScenarioCommand.exploreUsage.contains("[--jobs N] [--shard I/N] [--out PATH] [--report PATH]"))
    }
}
