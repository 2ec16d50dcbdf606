import BudgetClock

/// A handle to a time budget granted by a ``BudgetScheduler``.
///
/// Budgets are identified by number; a handle to an ended budget stays valid as a value, and every
/// operation on it reports that the budget is no longer live instead of failing.
public struct Budget: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// An opaque number, unique within its scheduler for the scheduler's lifetime (slot and reuse count).
    public let id: UInt64

    /// Creates a handle from a number (for example one read back from a log).
    public init(id: UInt64) {
        self.id = id
    }

    /// Orders budgets by their numbers (an arbitrary but stable order).
    public static func < (lhs: Budget, rhs: Budget) -> Bool { lhs.id < rhs.id }

    /// `budget#12`.
    public var description: String { "budget#\(id)" }

    /// The budget of the innermost ``withBackgroundTask(name:allowance:warningLead:grace:scheduler:operation:)``
    /// running in the current Swift task, if any: budgets requested inside it become its children.
    @TaskLocal public static var current: (budget: Budget, scheduler: BudgetScheduler)?
}

/// Why a budget stopped before its owner ended it.
public enum BudgetStopReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Its allowance and grace ran out.
    case expired
    /// Its parent stopped (a child never outlives its parent).
    case parentStopped
    /// Its parent was ended by its owner while this budget was still live.
    case parentEnded

    /// The reason's name.
    public var description: String { rawValue }
}

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

/// Called when a budget's warning is due.
public typealias BudgetWarningHandler = @Sendable (Budget) -> Void
/// Called when a budget stops before its owner ended it.
public typealias BudgetStopHandler = @Sendable (Budget, BudgetStopReason) -> Void
