import BudgetClock

/// A handle to a time budget granted by a ``BudgetScheduler``.
///
/// Budgets are identified by number and carry the name they were requested with, for logs and
/// errors. A handle to an ended budget stays valid as a value, and every operation on it reports that
/// the budget is no longer live instead of failing.
public struct Budget: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// An opaque number, unique within its scheduler for the scheduler's lifetime (slot and reuse count).
    public let id: UInt64
    /// The name given to the request; not part of the budget's identity.
    public let name: String

    /// Creates a handle from a number (for example one read back from a log).
    /// - Parameters:
    ///   - id: The budget's number.
    ///   - name: Its name, for descriptions; empty if unknown.
    public init(id: UInt64, name: String = "") {
        self.id = id
        self.name = name
    }

    /// Whether two handles name the same budget (by number; names are not compared).
    public static func == (lhs: Budget, rhs: Budget) -> Bool { lhs.id == rhs.id }

    /// Hashes the budget's number.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Orders budgets by their numbers (an arbitrary but stable order).
    public static func < (lhs: Budget, rhs: Budget) -> Bool { lhs.id < rhs.id }

    /// `"thumbnail" (budget#12)`, or `budget#12` when the name is empty.
    public var description: String { name.isEmpty ? "budget#\(id)" : "\"\(name)\" (budget#\(id))" }
}

/// Called when a budget's warning is due.
public typealias BudgetWarningHandler = @Sendable (Budget) -> Void
/// Called when a budget stops before its owner ended it.
public typealias BudgetStopHandler = @Sendable (Budget, BudgetStopReason) -> Void
