import CBudgetClockShims

/// The calling thread's timer slack, set for the length of a firing's timed waits.
///
/// On Linux every timed wait of a thread may end up to its timer slack later than asked, 50 µs by
/// default, so that the kernel can batch wake-ups. A firing of ``DispatchClock`` that waits for a
/// deadline microseconds away would then run it tens of microseconds late. At its first wait, the
/// firing sets the slack of the Dispatch thread it runs on to the clock's leeway (1 ns for none); the
/// work it runs for the rest of the firing sees that slack too. It puts the old value back before it
/// returns the thread to Dispatch, so other work on that thread sees no change. Elsewhere (Apple
/// platforms have no timer slack) both steps do nothing.
struct TimerSlack {
    /// The slack the thread had, to restore; `nil` when nothing was changed.
    private let previous: UInt?

    /// Sets the calling thread's timer slack, normally lowering it.
    /// - Parameter nanoseconds: The new slack; at least 1 (zero would mean "the default").
    static func lowered(to nanoseconds: Int64 = 1) -> TimerSlack {
        let previous = c_budget_clock_swap_timer_slack(UInt(max(nanoseconds, 1)))
        return TimerSlack(previous: previous > 0 ? UInt(previous) : nil)
    }

    /// The calling thread's timer slack in nanoseconds, or `nil` where there is none.
    static var current: Int? {
        let slack = c_budget_clock_timer_slack()
        return slack >= 0 ? slack : nil
    }

    /// Puts the calling thread's timer slack back to what it was before ``lowered(to:)``; call it on the
    /// same thread.
    func restore() {
        if let previous { _ = c_budget_clock_swap_timer_slack(previous) }
    }
}
