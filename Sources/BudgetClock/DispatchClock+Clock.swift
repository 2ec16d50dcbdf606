import BudgetTime

#if canImport(Dispatch)
/// `DispatchClock` is a Swift `Clock` on ``BudgetInstant``s, so async code sleeps on the same time
/// line that budgets run on: `try await clock.sleep(for: .milliseconds(50))`.
extension DispatchClock: Clock {
    /// One nanosecond, the unit of ``/BudgetTime/BudgetInstant``.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until the clock reaches `deadline`; the task is woken from the clock's queue.
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored: the clock's timer has zero leeway.
    /// - Throws: `CancellationError` if the task is cancelled first (the wake-up is cancelled too),
    ///   or at once if the clock is shut down. A clock shut down while a task sleeps on it drops the
    ///   wake-up: that sleep ends only when its task is cancelled.
    public func sleep(until deadline: BudgetInstant, tolerance: Duration? = nil) async throws {
        if isShutDown { throw CancellationError() }
        try await sleepOnSchedule(until: deadline)
    }
}
#endif
