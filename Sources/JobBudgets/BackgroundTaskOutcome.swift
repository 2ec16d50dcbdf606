/// What happened to work run under a budget: what it returned or threw, whether it was warned, and
/// whether the hard stop cancelled it.
public struct BackgroundTaskOutcome<Success: Sendable>: Sendable {
    /// The budget the work ran under (ended now).
    public let budget: Budget
    /// What the work returned or threw. After a hard stop this is usually `CancellationError`, or
    /// what the work chose to return when it saw the cancellation.
    public let result: Result<Success, any Error>
    /// Whether the warning came before the work finished.
    public let wasWarned: Bool
    /// Why the budget stopped before the work finished, or `nil` if the work finished in time. The
    /// work was cancelled then.
    public let stopReason: BudgetStopReason?

    /// Creates an outcome.
    public init(budget: Budget, result: Result<Success, any Error>, wasWarned: Bool, stopReason: BudgetStopReason?) {
        self.budget = budget
        self.result = result
        self.wasWarned = wasWarned
        self.stopReason = stopReason
    }

    /// What the work returned.
    ///
    /// The work's own error comes back unchanged, also after a hard stop (usually
    /// `CancellationError` then, or the framework's own error type): the stop reason rides beside it
    /// in ``stopReason`` (or ``stoppedError``), so a job runner keeps its error types and still knows
    /// why the work was cancelled.
    /// - Throws: What the work threw.
    public func get() throws -> Success {
        try result.get()
    }

    /// The hard stop as an error, or `nil` if the work finished in time: for a runner that reports
    /// stops as errors of their own.
    public var stoppedError: BudgetStoppedError? {
        stopReason.map { BudgetStoppedError(budget: budget, reason: $0) }
    }
}
