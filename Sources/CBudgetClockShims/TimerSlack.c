#include "CBudgetClockShims.h"

#if defined(__linux__)
#include <sys/prctl.h>

long c_budget_clock_swap_timer_slack(unsigned long nanoseconds) {
    int previous = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    if (previous <= 0) return -1;
    if (prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0) != 0) return -1;
    return previous;
}

long c_budget_clock_timer_slack(void) {
    int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    return slack < 0 ? -1 : slack;
}
#else
long c_budget_clock_swap_timer_slack(unsigned long nanoseconds) {
    (void)nanoseconds;
    return -1;
}

long c_budget_clock_timer_slack(void) {
    return -1;
}
#endif
