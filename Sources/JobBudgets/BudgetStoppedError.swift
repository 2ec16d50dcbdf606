/// A budget stopped before the work finished.
public struct BudgetStoppedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The budget that stopped; its ``Budget/name`` names the work.
    public var budget: Budget
    /// Why it stopped.
    public var reason: BudgetStopReason

    /// Creates an error.
    public init(budget: Budget, reason: BudgetStopReason) {
        self.budget = budget
        self.reason = reason
    }

    /// `"budget \"thumbnail\" (budget#3) stopped: expired"`.
    public var description: String { "budget \(budget) stopped: \(reason)" }
}
