import BackgroundBudgetRuntime

extension Explorer {
    /// The first invariant that the target's own events (the setup every sequence starts from)
    /// already break, before any explored event; `nil` when they break none.
    ///
    /// A saved counterexample is such a file: its events are the setup and the sequence that broke,
    /// so this is how `bgbudget check` re-checks it, and how `bgbudget explore` says plainly that a
    /// file is broken before it explores anything (a walk would otherwise blame its first event).
    /// - Returns: The invariant's name and how it broke, or `nil`.
    package func setupViolation() -> (name: String, message: String)? {
        var fresh = session()
        return fresh.violation()
    }

    /// The failure of a target whose own events already break an invariant, as ``randomWalks(seed:sequences:length:stopAtFirstFailure:progress:)``
    /// and ``exhaustive(depth:progress:)`` report it without exploring: no explored event, and
    /// ``ExplorerFailure/failingEvent`` -1; its scenario file is the target's own.
    package func setupFailure() -> ExplorerFailure? {
        guard let broken = setupViolation() else { return nil }
        let description = "Found by the explorer: \(broken.name) breaks in the file's own events, before any explored event: \(broken.message)"
        return ExplorerFailure(invariant: broken.name, message: broken.message, events: [], failingEvent: -1, foundLength: 0,
                               scenarioFile: target.scenarioFile(for: [], description: description))
    }

    /// A report that explored nothing because the target's own events already break an invariant.
    func setupBrokenReport(_ report: ExplorerReport, _ failure: ExplorerFailure) -> ExplorerReport {
        var report = report
        report.failures = [failure]
        report.stoppedAt = "0 sequences: the file's own events already break \(failure.invariant)"
        return report
    }
}
