import Foundation
import Testing
import TestSupport
import BackgroundBudgetExplorer
@testable import BackgroundBudgetScenario

/// A target whose own events already break an invariant (a saved counterexample) is reported in the
/// same words by the library's strategies as by `bgbudget explore` and `bgbudget check` (issue 38,
/// item 4): no explored event is blamed, and nothing is explored.
@Suite struct ExplorerSetupFailureTests {
    @Test func bothStrategiesReportABrokenSetupWithoutExploring() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("setup-failure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = folder.appendingPathComponent("cx.json").path
        let invariant = "dataSaved:applicationWillTerminate"
        #expect(ScenarioCommand.run(["explore", ExploreCommandTests.draftLoss, "--invariant", invariant, "--seeds", "1", "--out", saved]).status
            == .failure)
        let target = try ExplorerTarget(jsonBytes: Array(try Data(contentsOf: URL(fileURLWithPath: saved))), file: saved)
        let explorer = try Explorer(target: target, invariants: try ExplorerInvariant.named(invariant))
        let checked = ScenarioCommand.run(["check", saved, "--invariant", invariant]).standardOutput
        for report in [explorer.randomWalks(seed: 1, sequences: 50), explorer.exhaustive(depth: 2)] {
            #expect(report.sequencesTried == 0)
            #expect(report.failures.count == 1)
            let failure = try #require(report.failures.first)
            #expect(failure.events.isEmpty)
            #expect(failure.failingEvent == -1)
            #expect(failure.description.hasPrefix("dataSaved broke in the file's own events, before any explored event: "))
            // The words `bgbudget check` prints.
            #expect(checked.hasSuffix(failure.description + "\n"))
            #expect(report.description.contains("stopped after 0 sequences: the file's own events already break dataSaved\n"))
            #expect(!report.description.contains("broke at event"))
        }
        // A setup that breaks nothing is explored as before.
        let clean = try Explorer(target: try ExplorerTarget(jsonBytes: Array(try Data(contentsOf: URL(fileURLWithPath: ExploreCommandTests.draftLoss))),
                                                            file: ExploreCommandTests.draftLoss),
                                 invariants: try ExplorerInvariant.named(invariant))
        #expect(clean.setupFailure() == nil)
        #expect(clean.randomWalks(seed: 1, sequences: 50).failures.first?.events.isEmpty == false)
    }
}
