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

/// Called when a budget's warning is due.
public typealias BudgetWarningHandler = @Sendable (Budget) -> Void
/// Called when a budget stops before its owner ended it.
public typealias BudgetStopHandler = @Sendable (Budget, BudgetStopReason) -> Void
