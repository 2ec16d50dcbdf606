/// Why a budget stopped before its owner ended it.
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

    /// The reason's name.
    public var description: String { rawValue }
}
