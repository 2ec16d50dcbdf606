extension Duration {
    /// An allowance that never runs out: the budget has no warning and no hard stop of its own, and
    /// only ``BudgetScheduler/stop(_:reason:)``, ``BudgetScheduler/shutdown(grace:)``, a
    /// ``BudgetScope``'s shutdown or its parent's stop or end ends it (a shutdown warns it first, like
    /// any other budget).
    ///
    /// For a job with no timeout that must still be reachable by a graceful shutdown:
    ///
    /// ```swift
    /// let job = try scheduler.requestBudget(named: "consumer", allowance: .unlimited)
    /// ```
    ///
    /// Any allowance that reaches past the clock's range (about 292 years of nanoseconds) counts as
    /// unlimited too; this one is `Int64.max` seconds.
    public static var unlimited: Duration { .seconds(Int64.max) }
}
