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
