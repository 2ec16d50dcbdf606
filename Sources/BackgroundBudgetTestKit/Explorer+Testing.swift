import BackgroundBudgetExplorer
import Testing

extension ExplorerReport {
    /// Records one Swift Testing issue for each failure: the invariant, how it broke, the shrunk
    /// sequence event by event, and the scenario file that `bgbudget run` replays.
    /// - Parameter sourceLocation: Where the issues point; the caller by default.
    /// - Returns: Whether no invariant broke.
    @discardableResult
    public func recordIssues(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        for failure in failures {
            let text = "\(failure)\nAs a scenario file (save it and run `bgbudget run FILE`):\n\(failure.scenarioFile)"
            Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
        }
        return failures.isEmpty
    }
}

extension Explorer {
    /// Explores from a test and records an issue for each invariant that breaks (see
    /// `ExplorerReport.recordIssues(sourceLocation:)`): random walks from each seed, then, with
    /// `depth`, the exhaustive search.
    ///
    /// ```swift
    /// import BackgroundBudget
    /// import BackgroundBudgetExplorer   // Explorer, ExplorerTarget (the test kit product brings the module)
    /// import BackgroundBudgetTestKit
    ///
    /// @Test func theDraftSurvivesEverySequence() throws {
    ///     let explorer = try Explorer(target: ExplorerTarget(json: notesScenario),
    ///                                 invariants: [.dataSaved(by: [.didEnterBackground])])
    ///     explorer.expectNoFailure(seeds: 1...5, sequences: 1_000, depth: 3)
    /// }
    /// ```
    /// - Parameters:
    ///   - seeds: The seeds of the random walks.
    ///   - sequences: Sequences per seed.
    ///   - length: Events per sequence; 20 by default.
    ///   - depth: The exhaustive search's depth; `nil` (the default) skips it.
    ///   - sourceLocation: Where the issues point; the caller by default.
    /// - Returns: The reports, one per seed and then the exhaustive search's.
    @discardableResult
    public func expectNoFailure(seeds: ClosedRange<UInt64>, sequences: Int, length: Int = 20, depth: Int? = nil,
                                sourceLocation: SourceLocation = #_sourceLocation) -> [ExplorerReport] {
        var reports = seeds.map { randomWalks(seed: $0, sequences: sequences, length: length) }
        if let depth { reports.append(exhaustive(depth: depth)) }
        for report in reports { report.recordIssues(sourceLocation: sourceLocation) }
        return reports
    }
}
