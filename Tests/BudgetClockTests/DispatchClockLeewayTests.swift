import Testing
@testable import BudgetClock

/// How much later than its deadline `DispatchClock` may run work it waits for, and the timer slack
/// that carries it out on Linux.
@Suite struct DispatchClockLeewayTests {
    @Test func setsTheCallingThreadsSlackAndRestoresIt() {
        // Expected on Linux: 1 ns (the default request) or 50 µs while set, the old slack after;
        // elsewhere there is no slack and both steps change nothing.
        let before = TimerSlack.current
        for nanoseconds in [1, 50_000] as [Int64] {
            let slack = TimerSlack.lowered(to: nanoseconds)
            #if os(Linux)
            #expect(TimerSlack.current == Int(nanoseconds))
            #else
            #expect(TimerSlack.current == nil)
            #endif
            slack.restore()
            #expect(TimerSlack.current == before)
        }
        #if os(Linux)
        #expect(before != nil && before != 1)
        #endif
    }

    @Test func leewayIsKeptBetweenZeroAndOneMillisecondAndPrecisionIsOptIn() {
        // Expected: the default is 50 µs (no spinning, no early timer, the thread's own slack);
        // zero spins 30 µs, arms 200 µs early, with 1 ns of slack; 10 µs spins 20 µs, arms 190 µs
        // early, with 10 µs of slack; 40 µs neither spins nor arms early, with 40 µs of slack;
        // negative counts as zero; 5 ms as 1 ms, with the thread's own slack.
        let cases: [(asked: Duration?, kept: Duration, spin: Int64, lead: Int64, slack: Int64?)] = [
            (nil, .microseconds(50), 0, 0, nil), (.zero, .zero, 30_000, 200_000, 1),
            (.microseconds(10), .microseconds(10), 20_000, 190_000, 10_000),
            (.microseconds(40), .microseconds(40), 0, 0, 40_000), (.microseconds(-3), .zero, 30_000, 200_000, 1),
            (.milliseconds(5), .milliseconds(1), 0, 0, nil),
        ]
        for (asked, kept, spin, lead, slack) in cases {
            let clock = asked.map { DispatchClock(leeway: $0) } ?? DispatchClock()
            #expect(clock.leeway == kept, "asked \(String(describing: asked))")
            #expect(clock.spinLimit == spin && clock.timerLead == lead && clock.slackNanoseconds == slack,
                    "asked \(String(describing: asked))")
            clock.shutdown()
        }
    }
}
