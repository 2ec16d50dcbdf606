/// Why a budget stopped before its owner ended it.
///
/// More reasons may come as the model grows, so outside this package a `switch` over the cases
/// needs an `@unknown default`:
///
/// ```swift
/// switch reason {
/// case .expired: print("out of time")
/// case .stopRequested: print("stopped")
/// default: print(reason)   // its name
/// }
/// ```
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum BudgetStopReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Its allowance and grace ran out.
    case expired
    /// Its parent stopped (a child never outlives its parent).
    case parentStopped
    /// Its parent was ended by its owner while this budget was still live.
    case parentEnded
    /// Its owner stopped it with ``BudgetScheduler/stop(_:reason:)`` before its time was up.
    case stopRequested
    /// ``BudgetScheduler/shutdown(grace:)`` brought its hard stop forward, and the grace ran out.
    case shutdown

    /// The reason's name, as traces and outside files spell it.
    public var description: String { rawValue }
}
