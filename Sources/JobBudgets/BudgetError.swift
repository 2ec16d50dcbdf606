/// A budget request that cannot be granted. Nothing was scheduled.
public struct BudgetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Problem: Sendable, Hashable {
        /// The allowance is zero or negative.
        case allowanceNotPositive(Duration)
        /// The warning lead is negative or longer than the allowance.
        case warningLeadOutOfRange(Duration, allowance: Duration)
        /// The grace period is negative.
        case graceNegative(Duration)
        /// The parent budget has ended or stopped, or belongs to another scheduler.
        case parentNotLive(Budget)
    }

    /// The name given to the request.
    public var name: String
    /// What was wrong.
    public var problem: Problem

    /// Creates an error.
    public init(name: String, problem: Problem) {
        self.name = name
        self.problem = problem
    }

    /// A sentence naming the parameter and the value.
    public var description: String {
        let what: String = switch problem {
        case .allowanceNotPositive(let allowance): "allowance must be greater than zero (got \(allowance))"
        case .warningLeadOutOfRange(let lead, let allowance):
            "warningLead must be between zero and the allowance \(allowance) (got \(lead))"
        case .graceNegative(let grace): "grace must not be negative (got \(grace))"
        case .parentNotLive(let parent): "parent \(parent) is not live"
        }
        return "budget \"\(name)\": \(what)"
    }
}
