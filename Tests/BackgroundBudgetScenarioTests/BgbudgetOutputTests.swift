import Foundation
import Testing
import TestSupport
@testable import BackgroundBudgetScenario

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What `bgbudget` writes replays from where it lands, `--out` never waits on a pipe or writes a
/// device, and every command has its own help; run through the built executable where it matters.
@Suite(.timeLimit(.minutes(2))) struct BgbudgetOutputTests {
    /// Runs `body` with a fresh directory (its real path, without symbolic links), removed afterwards.
    private func withDirectory(_ body: (URL) throws -> Void) throws {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("bgbudget-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: made) }
        try body(URL(fileURLWithPath: try #require(ScenarioFileRebase.canonical(made.path))))
    }

    private func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>com.example.notes</string>
        <key>CFBundleDisplayName</key><string>Notes</string>
        </dict></plist>
        """

    /// Notes, declared by a relative Info.plist path, saves its draft only when terminated.
    private static let notes = """
        {"policy": {"preset": "iOS13"},
         "apps": [{"infoPlist": "../plists/Notes.plist", "behaviour": {"applicationWillTerminate": [{"do": "work", "for": 0.05}]}}],
         "events": []}
        """

    private static let valid = """
        {"apps": [{"id": "com.example.news"}], "events": [{"at": 0, "do": "open", "app": "com.example.news"}, {"at": 4, "do": "home"}]}
        """

    // MARK: explore --out replays from another folder

    @Test func exploreOutInAnotherFolderRunsFromThereAndFromAnywhere() throws {
        try withDirectory { directory throws in
            let work = directory.appendingPathComponent("work"), found = directory.appendingPathComponent("found")
            _ = try write(Self.plist, "plists/Notes.plist", in: work)
            _ = try write(Self.notes, "in/notes.json", in: work)
            try FileManager.default.createDirectory(at: found, withIntermediateDirectories: true)
            let logs = directory.appendingPathComponent("logs")
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            // Relative paths throughout, from the scenario's own working folder.
            let explored = try ProductProcess.run("bgbudget", ["explore", "in/notes.json", "--invariant", "dataSaved:applicationWillTerminate",
                                                              "--seeds", "1", "--out", "../found/lost.json"],
                                                  currentDirectory: work, in: logs)
            #expect(explored.status == 1, "\(explored.standardError)")
            #expect(explored.standardOutput.hasSuffix("the first counterexample is in ../found/lost.json: bgbudget run ../found/lost.json\n"))
            let written = try String(contentsOfFile: found.appendingPathComponent("lost.json").path, encoding: .utf8)
            #expect(written.contains("\"../work/plists/Notes.plist\""), "\(written)")
            #expect(!written.contains("\"../plists/Notes.plist\""))
            // bgbudget run OUT works from the counterexample's folder, from the folder above, and from the root.
            for (folder, path) in [(found, "lost.json"), (directory, "found/lost.json"), (URL(fileURLWithPath: "/"), found.path + "/lost.json")] {
                let replay = try ProductProcess.run("bgbudget", ["run", path], currentDirectory: folder, in: logs)
                #expect(replay.status == 0, "from \(folder.path): \(replay.standardError)")
                #expect(replay.standardOutput.contains("(state: notRunning, reason: memoryPressure)"))
            }
        }
    }

    @Test func aCounterexamplePrintedWithoutOutIsRebasedToTheCurrentFolderAndRunsFromThere() throws {
        try withDirectory { directory throws in
            let work = directory.appendingPathComponent("work")
            _ = try write(Self.plist, "plists/Notes.plist", in: work)
            _ = try write(Self.notes, "in/notes.json", in: work)
            let outcome = ScenarioCommand.run(["explore", work.path + "/in/notes.json", "--invariant", "dataSaved:applicationWillTerminate",
                                               "--seeds", "1"])
            #expect(outcome.status == .failure, "\(outcome.standardError)")
            let heading = "when saved in the current folder (its relative paths lead from there; --out PATH writes it elsewhere):\n"
            let printed = try #require(outcome.standardOutput.components(separatedBy: heading).last)
            #expect(outcome.standardOutput.contains(heading))
            // The tests run in some folder other than the scenario's: the path leads from there to the plist.
            let here = try #require(ScenarioFileRebase.canonical("."))
            let expected = ScenarioFileRebase.relative(work.path + "/plists/Notes.plist", from: here)
            #expect(printed.contains("\"\(expected)\""), "\(printed)")
            #expect(!printed.contains("\"../plists/Notes.plist\""))
            // Saved in the current folder, it replays with the same failure.
            let saved = "bgbudget-printed-\(UUID().uuidString).json"
            try Data(printed.utf8).write(to: URL(fileURLWithPath: saved))
            defer { try? FileManager.default.removeItem(atPath: saved) }
            let replay = ScenarioCommand.run(["run", saved])
            #expect(replay.status == .success, "\(replay.standardError)")
            #expect(replay.standardOutput.contains("(state: notRunning, reason: memoryPressure)"))
        }
    }

    @Test func rebasingLeavesAbsoluteAndUnmovedPathsAsTheyAre() throws {
        try withDirectory { directory throws in
            _ = try write(Self.plist, "plists/Notes.plist", in: directory)
            let source = try write(Self.notes, "in/notes.json", in: directory)
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("deep/er"), withIntermediateDirectories: true)
            // The same folder: nothing to move.
            #expect(ScenarioFileRebase.text(Self.notes, from: source, to: directory.appendingPathComponent("in/other.json").path) == Self.notes)
            // A sibling folder: one more step up; only the path's characters change.
            let moved = ScenarioFileRebase.text(Self.notes, from: source, to: directory.appendingPathComponent("deep/er/x.json").path)
            #expect(moved == Self.notes.replacingOccurrences(of: "\"../plists/Notes.plist\"", with: "\"../../plists/Notes.plist\""))
            // An absolute path, and text that is not a scenario, are left alone.
            let absolute = Self.notes.replacingOccurrences(of: "../plists/Notes.plist", with: directory.path + "/plists/Notes.plist")
            #expect(ScenarioFileRebase.text(absolute, from: source, to: "/tmp/x.json") == absolute)
            #expect(ScenarioFileRebase.text("[1, 2", from: source, to: "/tmp/x.json") == "[1, 2")
            #expect(ScenarioFileRebase.relative("/a/b/c/d.plist", from: "/a/x/y") == "../../b/c/d.plist")
            #expect(ScenarioFileRebase.relative("/a/b.plist", from: "/") == "a/b.plist")
        }
    }

    // MARK: --out refuses what input refuses

    @Test func outToANamedPipeWithNoReaderIsRefusedAtOnce() throws {
        try withDirectory { directory throws in
            let scenario = try write(Self.valid, "ok.json", in: directory)
            _ = try write(Self.notes, "work/in/notes.json", in: directory)
            _ = try write(Self.plist, "work/plists/Notes.plist", in: directory)
            let fifo = directory.appendingPathComponent("out.fifo").path
            try #require(mkfifo(fifo, 0o600) == 0)
            let logs = directory.appendingPathComponent("logs")
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            let commands = [["run", scenario, "--out", fifo], ["run", scenario, "--format", "svg", "--out", fifo],
                            ["explore", directory.path + "/work/in/notes.json", "--invariant", "dataSaved:applicationWillTerminate",
                             "--seeds", "1", "--out", fifo]]
            for arguments in commands {
                // Before, this waited for a reader forever; the backstop (20 s) fails the test if it does.
                let result = try ProductProcess.run("bgbudget", arguments, in: logs, backstop: 20_000)
                // explore checks --out before it searches: refused as a command line that cannot be carried out.
                let explore = arguments[0] == "explore"
                #expect(result.status == (explore ? 2 : 1), "\(arguments)")
                let expected = explore ? "bgbudget: cannot write '\(fifo)' (--out): it is a named pipe (FIFO), not a regular file; nothing was explored\n"
                    : "bgbudget: cannot write '\(fifo)': it is a named pipe (FIFO), not a regular file\n"
                #expect(result.standardError == expected, "\(arguments): \(result.standardError)")
            }
        }
    }

    @Test func outRefusesDevicesAndLinksToThemButWritesThroughALinkToAFile() throws {
        try withDirectory { directory throws in
            let scenario = try write(Self.valid, "ok.json", in: directory)
            for device in ["/dev/null", "/dev/zero"] {
                #expect(ScenarioCommand.run(["run", scenario, "--out", device])
                    == .failure("bgbudget: cannot write '\(device)': it is a character device, not a regular file"))
            }
            let toDevice = directory.appendingPathComponent("null.log").path
            try FileManager.default.createSymbolicLink(atPath: toDevice, withDestinationPath: "/dev/null")
            #expect(ScenarioCommand.run(["run", scenario, "--out", toDevice])
                == .failure("bgbudget: cannot write '\(toDevice)': it is a character device, not a regular file"))
            let target = try write("old\n", "target.log", in: directory)
            let link = directory.appendingPathComponent("link.log").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            #expect(ScenarioCommand.run(["run", scenario, "--out", link]) == .success(""))
            #expect(try String(contentsOfFile: target, encoding: .utf8) == ScenarioCommand.run(["run", scenario]).standardOutput)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        }
    }

    // MARK: Each command's own help

    @Test(arguments: [
        (["run", "--help"], "bgbudget run: "), (["run", "x.json", "-h"], "bgbudget run: "), (["help", "run"], "bgbudget run: "),
        (["validate", "--help"], "bgbudget validate: "), (["help", "validate"], "bgbudget validate: "),
        (["explore", "--help"], "bgbudget explore: "), (["explore", "x.json", "--seeds", "2", "-h"], "bgbudget explore: "),
        (["help", "explore"], "bgbudget explore: "), (["--help"], "bgbudget: run a BackgroundBudget"), (["help"], "bgbudget: run a BackgroundBudget"),
    ])
    func everyCommandHasItsOwnHelp(arguments: [String], start: String) {
        let outcome = ScenarioCommand.run(arguments)
        #expect(outcome.status == .success)
        #expect(outcome.standardOutput.hasPrefix(start), "\(outcome.standardOutput.prefix(80))")
    }

    @Test func aCommandsHelpListsItsOwnOptionsOnly() throws {
        let explore = ScenarioCommand.help(for: "explore"), run = ScenarioCommand.help(for: "run")
        for option in ["--invariant NAME", "--seeds N", "--first-seed S", "--sequences N", "--length N", "--depth D", "--out PATH", "--help"] {
            #expect(explore.contains(option), "explore help lacks \(option)")
        }
        #expect(!explore.contains("--format") && !explore.contains("EVENTS ("))
        for option in ["--format FORMAT", "--out PATH", "--from TIME, --to TIME", "--help"] { #expect(run.contains(option), "run help lacks \(option)") }
        #expect(!run.contains("--invariant"))
        #expect(ScenarioCommand.run(["help", "fly"]) == .usage("'help' takes one command: run, validate, explore, check, merge; got 'fly'"))
        // The whole page still has both commands' options, word for word.
        #expect(ScenarioCommand.help.contains("OPTIONS (explore)\n  --invariant NAME"))
        try withDirectory { directory throws in
            let result = try ProductProcess.run("bgbudget", ["explore", "--help"], in: directory)
            #expect(result.status == 0)
            #expect(result.standardOutput == explore)
        }
    }
}
