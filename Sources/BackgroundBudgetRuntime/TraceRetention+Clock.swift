import BudgetClock
import BackgroundBudgetCore

extension TraceRetention {
    /// The retention this one means on a clock: ``automatic`` resolved, the others unchanged.
    /// - Parameter clock: The clock the system runs on.
    public func resolved(for clock: any BudgetClock) -> TraceRetention {
        guard self == .automatic else { return self }
        return clock is VirtualClock ? .all : .latest(Self.defaultLatestCount)
    }
}
