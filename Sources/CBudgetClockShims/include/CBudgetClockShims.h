// C shims for BudgetClock: the few system calls and the one processor hint Swift cannot call directly.
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

/// Asks the processor to start loading the cache line at `address` for writing, ahead of its use.
///
/// A hint only: it changes no value and never faults, even for an address that is not mapped.
/// Swift has no prefetch of its own; ``SlotHeap`` and ``DeadlineHeap`` use it to fetch what a pop
/// from a sorted run touches a few pops before it is popped. Elsewhere than clang and GCC it does
/// nothing.
static inline void c_budget_clock_prefetch(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 1, 3);
#else
    (void)address;
#endif
}

#endif
