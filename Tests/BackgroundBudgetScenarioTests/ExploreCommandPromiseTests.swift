import Foundation
import Testing
import TestSupport
import BackgroundBudget
@testable import BackgroundBudgetScenario

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What `bgbudget explore` and `bgbudget check` promise on the command line (issue 38, items 2, 3, 4
/// and 7; issue 39, item 5): a finding is never lost, a saved counterexample is re-checked with the
/// same verdict, a search is bounded and says so, and the command line refuses what it cannot mean.
@Suite(.timeLimit(.minutes(2))) struct ExploreCommandPromiseTests {
    static let draftLoss = ExploreCommandTests.draftLoss
    /// The invariant the draft-loss app breaks, and the one its fix keeps.
    static let broken = "dataSaved:applicationWillTerminate"
    static let fixed = "dataSaved:applicationDidEnterBackground,applicationWillTerminate"

    private func withDirectory(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explore-promise-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory)
    }

    // MARK: Never lose a finding (38.3, 39.5)

    @Test func anOutThatCannotBeWrittenIsRefusedBeforeTheSearch() throws {
        try withDirectory { directory throws in
            let missing = directory.appendingPathComponent("no/such/cx.json").path
            #expect(ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", Self.broken, "--out", missing])
                == .refused("cannot write '\(missing)' (--out): the folder '\(directory.path)/no/such' does not exist; nothing was explored"))
            #expect(ScenarioCommand.run(["explore", Self.draftLoss, "--out", directory.path])
                == .refused("cannot write '\(directory.path)' (--out): it is a directory; nothing was explored"))
            #expect(ScenarioCommand.run(["explore", Self.draftLoss, "--out", directory.path + "/"]).status == .usage)
            let tooLong = directory.appendingPathComponent(String(repeating: "x", count: 256)).path
            #expect(ScenarioCommand.run(["explore", Self.draftLoss, "--out", tooLong])
                == .refused("cannot write '\(tooLong)' (--out): file name too long; nothing was explored"))
            // The check leaves nothing behind.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test(.enabled(if: getuid() != 0, "root may write into any folder")) func aReadOnlyFolderIsRefusedBeforeTheSearch() throws {
        try withDirectory { directory throws in
            let locked = directory.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            #expect(chmod(locked.path, 0o555) == 0)
            defer { chmod(locked.path, 0o755) }
            let out = locked.appendingPathComponent("cx.json").path
            #expect(ScenarioCommand.run(["explore", Self.draftLoss, "--out", out])
                == .refused("cannot write '\(out)' (--out): permission denied: cannot create a file in '\(locked.path)'; nothing was explored"))
        }
    }

    @Test func aNameOfTwoHundredFiftyFiveBytesIsWritten() throws {
        try withDirectory { directory throws in
            let name = String(repeating: "n", count: 250) + ".json"
            #expect(name.utf8.count == 255)
            let out = directory.appendingPathComponent(name).path
            let outcome = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", Self.broken, "--seeds", "1", "--out", out])
            #expect(outcome.status == .failure)
            #expect(outcome.standardOutput.hasSuffix("the first counterexample is in \(out): bgbudget run \(out)\n"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [name])
            #expect(ScenarioCommand.run(["run", out]).status == .success)
        }
    }

    @Test func aWriteThatFailsAtTheEndPrintsTheCounterexampleAndSaysWhy() throws {
        try withDirectory { directory throws in
            // The folder was fine when the search began; by its end the path is a folder.
            let saved = ScenarioCommand.saveCounterexample(#"{"apps": [], "events": []}"#, from: Self.draftLoss, to: directory.path)
            #expect(saved.standardError
                == "bgbudget: cannot write '\(directory.path)': it is a directory; the counterexample is printed on standard output instead\n")
            #expect(saved.standardOutput.hasPrefix("\nthe first counterexample, as a scenario file that bgbudget run replays"))
            #expect(saved.standardOutput.hasSuffix(#"{"apps": [], "events": []}"#))
        }
    }

    // MARK: Papercuts (38.7)

    @Test(arguments: [
        (["--seeds", "0"], "--seeds needs a whole number from 1 to 100000000; got '0'"),
        (["--sequences", "0"], "--sequences needs a whole number from 1 to 100000000; got '0'"),
        (["--seeds", "1", "--seeds", "2"], "--seeds given twice"),
        (["--depth=1", "--depth", "1"], "--depth given twice"),
        (["--out", "a", "--out", "b"], "--out given twice"),
        (["--time-limit", "1", "--time-limit", "2"], "--time-limit given twice"),
        (["--force", "--force"], "--force given twice"),
        (["--invariant", "all", "--invariant", "all"], "--invariant 'all' given twice"),
        (["--weight", "open=1", "--weight", "open=1"], "--weight 'open=1' given twice"),
        (["--weight=open=-2"], "--weight needs EVENT=N, N a whole number from 0 (leave the event out) to 1000000; got 'open=-2'"),
        (["--time-limit", "soon"], "--time-limit needs seconds from 0 (no limit) to 604800; got 'soon'"),
        (["--time-limit", "-1"], "--time-limit needs seconds from 0 (no limit) to 604800; got '-1'"),
        (["--seed", "3"], "unknown option '--seed' for 'explore' (did you mean \"--seeds\"?); accepted: --invariant, --seeds, --first-seed, "
            + "--sequences, --length, --depth, --weight, --time-limit, --jobs, --shard, --out, --report, --force, --help"),
    ])
    func exploreRefusesTheCommandLinesItCannotMean(extra: [String], message: String) {
        #expect(ScenarioCommand.run(["explore", "a.json"] + extra) == .usage(message))
    }

    @Test func anUnknownWeightExitsTwoWithADidYouMeanAndAShortList() {
        let outcome = ScenarioCommand.run(["explore", Self.draftLoss, "--weight", "rebot=0"])
        #expect(outcome.status == .usage)
        #expect(outcome.standardError.hasPrefix("bgbudget: --weight: no menu event is called 'rebot' (did you mean \"reboot\"?); the events are open, "))
        #expect(outcome.standardError.hasSuffix("\nTry 'bgbudget --help'.\n"))
        // Capped: twelve names and how many more, not the whole menu.
        let list = outcome.standardError.split(separator: ";")[1]
        #expect(list.split(separator: ",").count <= ScenarioCommand.weightNamesShown + 1)
        #expect(list.contains(" more, or one entry's whole description ('"))
        #expect(outcome.standardError.count < 400)
        let none = ScenarioCommand.run(["explore", Self.draftLoss, "--weight", "sing=1"])
        #expect(none.standardError.hasPrefix("bgbudget: --weight: no menu event is called 'sing'; the events are "))
    }

    @Test func everyOptionIsInTheUsageLines() {
        let page = ScenarioCommand.help(for: "explore")
        let usage = page.components(separatedBy: "USAGE\n")[1].components(separatedBy: "\n\n")[0]
        for option in ScenarioCommand.exploreValued + ["--force"] {
            #expect(usage.contains("[\(option) ") || usage.contains("[\(option)]"), "\(option) is missing from the usage of explore")
            #expect(page.contains("  \(option) "), "\(option) is not described")
        }
        let whole = ScenarioCommand.help.components(separatedBy: "COMMANDS")[0]
        for option in ScenarioCommand.exploreValued + ["--force"] { #expect(whole.contains("[\(option)"), "\(option)") }
        #expect(whole.contains("bgbudget check FILE [--invariant NAME]..."))
        #expect(ScenarioCommand.exploreUsage.contains("[--time-limit SECONDS] [--force] [--jobs N] [--shard I/N] [--out PATH] [--report PATH]"))
        #expect(ScenarioCommand.run(["help", "check"]).standardOutput.hasPrefix("bgbudget check: "))
    }

    // MARK: Re-check what was saved (38.4)

    @Test func checkGivesTheVerdictExploreGaveForASavedCounterexample() throws {
        try withDirectory { directory throws in
            let out = directory.appendingPathComponent("cx.json").path
            let explored = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", Self.broken, "--seeds", "1", "--out", out])
            #expect(explored.status == .failure)
            let found = try #require(explored.standardOutput.split(separator: "\n").first { $0.hasPrefix("dataSaved broke at event ") })
            let message = try #require(found.components(separatedBy: " events: ").last)
            let checked = ScenarioCommand.run(["check", out, "--invariant", Self.broken])
            #expect(checked == ScenarioCommand.Outcome(
                status: .failure,
                standardOutput: "check \(out): invariants: dataSaved\n"
                    + "dataSaved broke in the file's own events, before any explored event: \(message)\n",
                standardError: explored.standardError))
            // Exploring the saved file says the same, in the same words, whatever the depth or seeds.
            for extra in [["--depth", "0"], ["--seeds", "1"]] {
                let again = ScenarioCommand.run(["explore", out, "--invariant", Self.broken] + extra)
                #expect(again.status == .failure)
                #expect(again.standardError == explored.standardError)
                #expect(again.standardOutput.contains("\ndataSaved broke in the file's own events, before any explored event: \(message)\n"))
                #expect(!again.standardOutput.contains("failing sequences: 0"))
                #expect(!again.standardOutput.contains("broke at event 1 of 1"))
            }
            // With the fix's invariant, or on the original file, nothing broke.
            #expect(ScenarioCommand.run(["check", out, "--invariant", Self.fixed])
                == .success("check \(out): invariants: dataSaved\nno invariant broke\n"))
            #expect(ScenarioCommand.run(["check", Self.draftLoss, "--invariant", Self.broken])
                == .success("check \(Self.draftLoss): invariants: dataSaved\nno invariant broke\n"))
        }
    }

    @Test(arguments: [
        (["check"], "'check' needs a scenario file: bgbudget check FILE [--invariant NAME]..."),
        (["check", "a.json", "b.json"], "'check' takes one scenario file; got 'a.json' and 'b.json'"),
        (["check", "a.json", "--invariant", "all", "--invariant", "all"], "--invariant 'all' given twice"),
        (["check", "a.json", "--depth", "1"], "unknown option '--depth' for 'check'; accepted: --invariant, --help"),
    ])
    func checkRefusesAWrongCommandLine(arguments: [String], message: String) {
        #expect(ScenarioCommand.run(arguments) == .usage(message))
    }

    // MARK: Bounded and visible (38.2)

    @Test func aSearchThatCannotFinishStopsAtTheTimeLimitAndSaysSo() {
        // The fixed app: nothing to find, and ten thousand seeds of walks never finish in a millisecond.
        let outcome = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", Self.fixed, "--seeds", "10000", "--time-limit", "0.001"])
        #expect(outcome.status == .success)
        #expect(outcome.standardOutput.contains("\nstopped at the time limit of 1 ms: the search did not finish; what it found so far follows\n"))
        #expect(outcome.standardOutput.contains(" of 10000 seeds run)\n"))
    }

    @Test func anExhaustiveSearchPastTheTimeLimitIsRefusedWithTheDepthThatFits() {
        let outcome = ScenarioCommand.run(["explore", Self.draftLoss, "--depth", "12", "--time-limit", "1"])
        #expect(outcome.status == .usage)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.hasPrefix("bgbudget: the exhaustive search to depth 12 would try about "))
        #expect(outcome.standardError.contains(": past the time limit of 1 s; use a smaller --depth ("))
        #expect(outcome.standardError.hasSuffix(", a longer --time-limit, more --shard or --jobs, or --force to search until the limit\n"))
        // With --force it searches, and stops at the limit.
        let forced = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", Self.fixed, "--depth", "12", "--time-limit", "0.001", "--force"])
        #expect(forced.status == .success)
        #expect(forced.standardOutput.contains("\nstopped at the time limit of 1 ms: the search did not finish"))
    }

    @Test func anInterruptionPrintsWhatWasFoundSoFar() {
        let asked = LockedValue(0)
        let interrupted: @Sendable () -> Bool = { asked.withLock { $0 += 1; return $0 > 30 } }
        let nothing = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", Self.fixed, "--seeds", "10000"], interrupted: interrupted)
        #expect(nothing.status == .interrupted)
        #expect(nothing.standardOutput.contains("\ninterrupted (Ctrl-C): the search did not finish; what it found so far follows\n"))
        #expect(nothing.standardOutput.contains("distinct shrunk failures: 0"))
        // A failure found before the interruption is printed, shrunk, and fails the run.
        asked.withLock { $0 = 0 }
        let found = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", Self.broken, "--seeds", "10000"], interrupted: interrupted)
        #expect(found.status == .failure)
        #expect(found.standardOutput.contains("\ninterrupted (Ctrl-C): the search did not finish"))
        #expect(found.standardOutput.contains("  1. open com.example.notes\n  2. home\n  3. purge com.example.notes\n"))
        #expect(found.standardError == "bgbudget: 1 invariant broke: dataSaved\n")
    }

    /// Whether process `pid` catches `SIGINT` now (Linux: `SigCgt` in `/proc/PID/status`), which it
    /// does once its Dispatch signal source is in place.
    private static func catchesSIGINT(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return mask & (1 << (UInt64(SIGINT) - 1)) != 0
    }

    /// A real process on real time (it polls the child until its signal source is in place), so a long
    /// suite; the in-process tests above check the same report without waiting.
    @Test(LongRun.only, .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "reads /proc (Linux)"))
    func ctrlCStopsTheRealExecutableWithWhatItFound() throws {
        let path = try #require(ProductProcess.executable("bgbudget"))
        // A search that never ends by itself: no time limit, a fixed app, a hundred million seeds.
        let child = try ChildProcess(executable: path, arguments: ["explore", Self.draftLoss, "--invariant", Self.fixed,
                                                                   "--seeds", "100000000", "--time-limit", "0"])
        var waited = 0
        while !Self.catchesSIGINT(child.pid), waited < 2_000 {
            usleep(5_000)
            waited += 1
        }
        try #require(Self.catchesSIGINT(child.pid), "the Dispatch signal source was never installed")
        child.send(signal: SIGINT)
        #expect(child.waitForExit() == 130)
        let lines = child.remainingLines()
        #expect(lines.contains("interrupted (Ctrl-C): the search did not finish; what it found so far follows"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("distinct shrunk failures: 0, time: ") })
    }

    @Test func theProgressLineSaysTriedRateFailuresAndTimeLeft() {
        let lines = TestLog<String>()
        _ = ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", Self.broken, "--seeds", "2", "--depth", "2"],
                                progress: { lines.append($0) })
        let entries = lines.entries
        #expect(entries.contains { $0.hasPrefix("\rexplore: seed 1/2, ") && $0.contains(" sequences, ") && $0.contains("/s, ")
            && $0.contains(" failing seed") && $0.hasSuffix("\u{1B}[K") })
        #expect(entries.contains { $0.hasPrefix("\rexplore: exhaustive search to depth 2: about ") })
        #expect(entries.contains { $0.hasPrefix("\rexplore: exhaustive search to depth 2, ") && $0.contains(" failing") })
        #expect(entries.last == "\r\u{1B}[K")
        // Without a writer (standard error is not a terminal) nothing is written, and the output is the same.
        #expect(ScenarioCommand.run(["explore", Self.draftLoss, "--invariant", Self.broken, "--seeds", "2"]).status == .failure)
    }

    @Test func theRealExecutableIsQuietWhenStandardErrorIsNotATerminal() throws {
        try withDirectory { directory throws in
            // Standard error goes to a file: no progress line, only the verdict.
            let result = try ProductProcess.run("bgbudget", ["explore", Self.draftLoss, "--invariant", Self.broken, "--seeds", "2", "--depth", "2"],
                                                in: directory)
            #expect(result.status == 1)
            #expect(result.standardError == "bgbudget: 1 invariant broke: dataSaved\n")
        }
    }

    @Test func roughFiguresReadAsAPersonWritesThem() {
        #expect(roughCount(79_507) == "80,000")
        #expect(roughCount(1_842) == "1,800")
        #expect(roughCount(42) == "42")
        #expect(roughDuration(0.001) == "1 ms")
        #expect(roughDuration(1) == "1 s")
        #expect(roughDuration(400) == "6.7 min")
        #expect(roughDuration(1e12) == "more than a century")
    }
}
