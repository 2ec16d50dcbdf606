import Foundation
import Testing
import SavedState
import TestSupport
@testable import StateStoreTorture

/// Kills a process that saves state in a loop, at random moments, and checks after every kill that
/// `name.state` is there (once a save has finished) and the store loads it: a complete state that was
/// once written, and nothing older than the last save that had returned.
@Suite struct StateStoreCrashTests {
    @Test(.tags(.crash), .timeLimit(.minutes(3)))   // a backstop: every wait inside is bounded
    func aKillAtAnyMomentLeavesACompleteStateNoOlderThanTheLastFinishedSave() async throws {
        let executable = try #require(Self.tortureExecutable(), """
            StateStoreTorture was not found next to the test bundle (looked in \(ProductProcess.searchedFolders.joined(separator: ", "))). \
            Build it with `swift build --build-tests`, or set STATESTORE_TORTURE to its path.
            """)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("torture-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let kills = LongRun.cases(240, quick: 12)
        let run = await KillRun(executable: executable, folder: folder, kills: kills).run(seed: 0x5EED_C0DE)
        #expect(run.rounds == kills)
        #expect(run.killedMidSave >= run.rounds / 4, "only \(run.killedMidSave) of \(run.rounds) kills landed during a save")
        // Never a moment without `name.state`: the current file is replaced by a rename, and the
        // previous copy made by a hard link, so no kill finds the name empty (formerly 16 % of them,
        // between the two renames) and no load falls back to the previous copy.
        #expect(run.currentMissing == 0, "\(run.currentMissing) of \(run.rounds) kills left no torture.state")
        #expect(run.loadsFromPrevious == 0, "\(run.loadsFromPrevious) of \(run.rounds) loads used the previous copy")
        print("StateStoreCrashTests: \(run.rounds) kills, \(run.killedMidSave) during a save, \(run.temporaryFilesLeft) left "
              + "a temporary file, \(run.currentMissing) left no torture.state, \(run.loadsFromPrevious) loads used the previous copy; "
              + "last state \(run.lastSaved)")
    }


    /// The `StateStoreTorture` executable: `$STATESTORE_TORTURE`, or the one in the build folder.
    static func tortureExecutable() -> String? {
        ProductProcess.executable("StateStoreTorture")
    }
}

/// One run of the crash test: start the child, let it save for a random while, kill it, load, check;
/// `kills` times.
struct KillRun: SigkillLoop {
    var executable: String
    var folder: URL
    var kills: Int

    var failures: [String] = []
    var rounds = 0
    var lastWriting = 0
    var lastSaved = 0
    var killedMidSave = 0
    var loadsFromPrevious = 0
    var temporaryFilesLeft = 0
    /// The kills after which `torture.state` was missing though a save had finished.
    var currentMissing = 0

    init(executable: String, folder: URL, kills: Int) {
        self.executable = executable
        self.folder = folder
        self.kills = kills
    }

    mutating func performRounds(killer: inout RandomKiller) throws {
        let store = try StateStore<TortureState>(directory: folder, name: "torture")
        while rounds < kills, failures.isEmpty {
            rounds += 1
            let child = try ChildProcess(executable: executable, arguments: [folder.path])
            guard let ready = child.nextLine(timeout: .seconds(10)) else {
                return failures.append("round \(rounds): the child did not say ready within 10 s")
            }
            if ready != "ready \(lastSaved)" { failures.append("round \(rounds): the child loaded something else: \(ready)") }
            // Let it finish 0 to 2 saves, then kill it up to 12 ms later: anywhere in a save.
            var savesToWaitFor = killer.next(below: 3)
            while savesToWaitFor > 0 {
                guard let line = child.nextLine(timeout: .seconds(5)) else {
                    return failures.append("round \(rounds): the child stopped reporting saves")
                }
                record(line)
                if line.hasPrefix("saved ") { savesToWaitFor -= 1 }
            }
            for line in killer.kill(child, within: .milliseconds(12)) { record(line) }
            if lastWriting > lastSaved { killedMidSave += 1 }
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            if entries.contains(where: { $0.hasPrefix("torture.state.tmp") }) { temporaryFilesLeft += 1 }
            if lastSaved > 0, !entries.contains("torture.state") { currentMissing += 1 }
            try check(store.load())
        }
        let setAside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("corrupt") }
        if !setAside.isEmpty { failures.append("damaged files were set aside: \(setAside)") }
    }

    /// Checks a load after a kill: complete, written once, and at least the last finished save.
    private mutating func check(_ loaded: StateStore<TortureState>.LoadResult) {
        if !loaded.issues.allSatisfy({ $0.error.problem == .missing }) {
            failures.append("round \(rounds): \(loaded.issues)")
        }
        if loaded.isRecovered { loadsFromPrevious += 1 }
        let sequence = loaded.value?.sequence ?? 0
        if loaded.value?.isSelfConsistent == false {
            failures.append("round \(rounds): state \(sequence) is not self-consistent")
        }
        if sequence < lastSaved { failures.append("round \(rounds): loaded \(sequence), but \(lastSaved) had been saved") }
        if sequence > lastWriting { failures.append("round \(rounds): loaded \(sequence), but only \(lastWriting) was ever written") }
        // The next child continues from what it loads, so the numbers keep rising across kills.
        lastWriting = sequence
        lastSaved = sequence
    }

    /// Notes a `writing N` or `saved N` line.
    private mutating func record(_ line: String) {
        let parts = line.split(separator: " ", maxSplits: 1)
        switch (parts.first, parts.count == 2 ? Int(parts[1]) : nil) {
        case ("writing", let number?): lastWriting = number
        case ("saved", let number?): lastSaved = number
        default: failures.append("round \(rounds): unexpected line from the child: \(line)")
        }
    }
}
