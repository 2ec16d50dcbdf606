/// Why a budget stopped before its owner ended it.
///
/// The reasons grow as the model does, so this is a struct with a static member per reason rather
/// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
/// a `default`:
///
/// ```swift
/// switch reason {
/// case .expired: print("out of time")
/// case .stopRequested: print("stopped")
/// default: print(reason)   // its name
/// }
/// ```
public struct BudgetStopReason: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The reasons the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case expired
        case parentStopped
        case parentEnded
        case stopRequested
        case shutdown
    }

    /// The reason, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The reason's name, as traces and outside files spell it.
    public var rawValue: String { base.rawValue }

    /// The reason with that name, or `nil` for a name the model does not know.
    public init?(rawValue: String) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }

    /// Every reason the model knows, in declaration order.
    public static var allCases: [BudgetStopReason] { Base.allCases.map(BudgetStopReason.init) }

    /// Its allowance and grace ran out.
    public static let expired = BudgetStopReason(.expired)
    /// Its parent stopped (a child never outlives its parent).
    public static let parentStopped = BudgetStopReason(.parentStopped)
    /// Its parent was ended by its owner while this budget was still live.
    public static let parentEnded = BudgetStopReason(.parentEnded)
    /// Its owner stopped it with ``BudgetScheduler/stop(_:reason:)`` before its time was up.
    public static let stopRequested = BudgetStopReason(.stopRequested)
    /// ``BudgetScheduler/shutdown(grace:)`` brought its hard stop forward, and the grace ran out.
    public static let shutdown = BudgetStopReason(.shutdown)

    /// The reason's name.
    public var description: String { rawValue }
}
