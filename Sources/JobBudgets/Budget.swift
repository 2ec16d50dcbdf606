import BudgetClock

/// A handle to a time budget granted by a ``BudgetScheduler``.
///
/// Budgets are identified by number and carry the name they were requested with, for logs and
/// errors. A handle to an ended budget stays valid as a value, and every operation on it reports that
/// the budget is no longer live instead of failing.
///
/// The number is the request's: `"thumbnail" (budget#3)` is the third budget its scheduler granted.
public struct Budget: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The request number in the high 32 bits; the budget's slot in its scheduler plus one in the low
    /// 32 bits, or zero in a handle made from a number (the scheduler then looks the number up).
    let handle: UInt64
    /// The name given to the request; not part of the budget's identity.
    public let name: String

    /// The budget's number: 1 for the first budget its scheduler granted, 2 for the second, and so on,
    /// counting every request (in every scope). Unique among a scheduler's budgets until the count
    /// wraps, after 2^32 requests.
    public var id: UInt64 { handle >> 32 }

    /// Creates a handle from a number (for example one read back from a log).
    /// - Parameters:
    ///   - id: The budget's number (below 2^32; higher bits are dropped).
    ///   - name: Its name, for descriptions; empty if unknown.
    public init(id: UInt64, name: String = "") {
        self.handle = id << 32
        self.name = name
    }

    /// The handle the scheduler gives out: the request number and the slot.
    init(number: UInt32, slot: Int, name: String) {
        self.handle = UInt64(number) << 32 | UInt64(slot + 1)
        self.name = name
    }

    /// Whether two handles name the same budget (by number; names are not compared).
    public static func == (lhs: Budget, rhs: Budget) -> Bool { lhs.id == rhs.id }

    /// Hashes the budget's number.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Orders budgets by their numbers: request order, until the count wraps.
    public static func < (lhs: Budget, rhs: Budget) -> Bool { lhs.id < rhs.id }

    /// `"thumbnail" (budget#12)`, or `budget#12` when the name is empty.
    public var description: String { name.isEmpty ? "budget#\(id)" : "\"\(name)\" (budget#\(id))" }
}

/// Called when a budget's warning is due.
public typealias BudgetWarningHandler = @Sendable (Budget) -> Void
/// Called when a budget stops before its owner ended it.
public typealias BudgetStopHandler = @Sendable (Budget, BudgetStopReason) -> Void
