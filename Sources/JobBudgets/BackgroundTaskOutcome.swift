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
    /// - Throws: ``BudgetStoppedError`` if the hard stop came and the work threw; else what the work threw.
    public func get() throws -> Success {
        switch result {
        case .success(let value): return value
        case .failure(let error):
            if let stopReason { throw BudgetStoppedError(budget: budget, reason: stopReason) }
            throw error
        }
    }
}
