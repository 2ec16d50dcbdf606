// C shims for BudgetClock: the few system calls Swift cannot call directly.
#ifndef C_BUDGET_CLOCK_SHIMS_H
#define C_BUDGET_CLOCK_SHIMS_H

/// Sets the calling thread's timer slack to `nanoseconds` and returns the slack it had before.
///
/// Timer slack (Linux, `prctl(PR_SET_TIMERSLACK)`) is how much later than asked the kernel may end
/// the thread's timed waits, so that it can batch wake-ups; it is 50 µs by default. `prctl` is a
/// variadic C function, which Swift cannot call, hence this shim. Zero would mean "the default", so
/// callers pass at least 1.
///
/// Returns -1, and changes nothing, on platforms without timer slack or if a call fails.
long c_budget_clock_swap_timer_slack(unsigned long nanoseconds);

/// The calling thread's timer slack in nanoseconds, or -1 on platforms without timer slack.
long c_budget_clock_timer_slack(void);

#endif
