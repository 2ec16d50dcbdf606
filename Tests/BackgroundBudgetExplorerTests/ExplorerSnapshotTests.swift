import Foundation
import Testing
import BackgroundBudget
import TestSupport
@testable import BackgroundBudgetExplorer

/// The explorer restores saved states instead of replaying each sequence's prefix: its reports are
/// those of the replaying explorer, byte for byte, on every shipped scenario.
@Suite struct ExplorerSnapshotTests {
    static let scenarios: [String] = {
        let folder = SampleFiles.root.appendingPathComponent("Examples/scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    static func explorers(_ name: String) throws -> (restoring: Explorer, replaying: Explorer) {
        let data = try Data(contentsOf: SampleFiles.root.appendingPathComponent("Examples/scenarios/\(name)"))
        let target = try ExplorerTarget(jsonBytes: Array(data))
        var restoring = try Explorer(target: target, invariants: ExplorerInvariant.builtIn + [.dataSaved(by: [.didEnterBackground])])
        restoring.shrinkBudget = 1_000
        var replaying = restoring
        replaying.replaysEverySequence = true
        return (restoring, replaying)
    }

    /// Everything a report says, with each failure's scenario file.
    static func text(_ report: ExplorerReport) -> String {
        report.description + "first failure at \(report.firstFailureAt ?? -1), seen-set \(report.seenSetBytes) bytes\n"
            + report.failures.map(\.scenarioFile).joined()
    }

    @Test func theShippedScenariosAreAll() {
        #expect(Self.scenarios.count >= 20)
        #expect(Self.scenarios.contains("a-day-in-the-background.json"))
    }

    @Test(arguments: scenarios)
    func restoredWalksReportWhatReplayedWalksDo(_ name: String) throws {
        let (restoring, replaying) = try Self.explorers(name)
        var session = restoring.session()
        #expect(session.save() != nil, "a scenario of behaviours is saved whole")
        _ = session.violation()
        for seed: UInt64 in [1, 2] {
            let restored = restoring.randomWalks(seed: seed, sequences: 6, length: 8, stopAtFirstFailure: false)
            let replayed = replaying.randomWalks(seed: seed, sequences: 6, length: 8, stopAtFirstFailure: false)
            #expect(Self.text(restored) == Self.text(replayed), "\(name), seed \(seed)")
        }
    }

    /// Searched to depth 2 (restoring the states saved at depth 1) in the quick suite; every scenario
    /// is with `BGBUDGET_LONG_TESTS=1`, the others to depth 1 here.
    static let deepInTheQuickSuite: Set = ["draft-loss.json", "switching-apps.json", "task-scheduler.json",
                                           "continued-processing.json", "memory-pressure.json"]

    @Test(arguments: scenarios)
    func restoredSearchReportsWhatReplayedSearchDoes(_ name: String) throws {
        let (restoring, replaying) = try Self.explorers(name)
        let depth = LongRun.isOn || Self.deepInTheQuickSuite.contains(name) ? 2 : 1
        let restored = restoring.exhaustive(depth: depth)
        let replayed = replaying.exhaustive(depth: depth)
        #expect(restored.statesSeen > 1 || !restored.failures.isEmpty)
        #expect(Self.text(restored) == Self.text(replayed), "\(name)")
    }

    /// What cannot be saved is replayed: an app with a delegate of the test's own, an invariant whose
    /// watch is a closure.
    @Test func delegatesAndClosureWatchesAreReplayed() throws {
        let json = #"{"apps": [{"id": "com.example.notes"}], "events": []}"#
        let own = try Explorer(target: ExplorerTarget(json: json, delegates: ["com.example.notes": { EmptyDelegate() }]))
        #expect(own.session().save() == nil)
        let closure = ExplorerInvariant("noPurge") { { event in event.kind == .stateChange(.notRunning, cause: .purge) ? "purged" : nil } }
        let watched = try Explorer(target: ExplorerTarget(json: json), invariants: [closure])
        #expect(watched.session().save() == nil)
        let plain = try Explorer(target: ExplorerTarget(json: json))
        #expect(plain.session().save() != nil)
        var replaying = watched
        replaying.replaysEverySequence = true
        #expect(watched.exhaustive(depth: 3).description == replaying.exhaustive(depth: 3).description)
    }

    /// An app task started by a callback whose app is then suspended leaves its first job on the
    /// suspended queue: a Swift job runs once, so no state holding it is saved (restored into two
    /// branches it would resume its task twice), and the search is that of the replaying explorer.
    @Test func aHeldJobOfAnAppTaskIsNeverSaved() throws {
        let json = """
            {"apps": [{"id": "com.example.sync", "behaviour": {"applicationDidEnterBackground": [
                {"do": "task", "sleep": 10, "then": [{"do": "readBackgroundTimeRemaining"}]}]}}],
             "events": [{"at": 0, "do": "open", "app": "com.example.sync"}]}
            """
        let restoring = try Explorer(target: ExplorerTarget(json: json))
        var session = restoring.session()
        #expect(session.save() != nil, "nothing held yet")
        _ = session.perform(.act(.home))
        #expect(session.save() == nil, "the task's first job waits on the suspended queue")
        var replaying = restoring
        replaying.replaysEverySequence = true
        let restored = restoring.exhaustive(depth: 3), replayed = replaying.exhaustive(depth: 3)
        #expect(restored.statesSeen > 1)
        #expect(Self.text(restored) == Self.text(replayed))
    }
}

private final class EmptyDelegate: ApplicationDelegate {
}
