extension VirtualClock: BudgetClock {
    /// Advances the clock by `duration` from inside running work, so that work due meanwhile (a
    /// watchdog, another app's deadline) runs while the caller is "busy".
    public func simulateWork(for duration: Duration) {
        advance(by: duration)
    }
}
