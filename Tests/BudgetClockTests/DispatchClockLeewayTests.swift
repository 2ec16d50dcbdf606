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

    @Test func leewayIsKeptBetweenZeroAndOneMillisecond() {
        // Expected: the default is zero (30 µs of spinning, 1 ns of slack); 10 µs is kept (20 µs of
        // spinning, 10 µs of slack); from 30 µs on nothing spins; negative counts as zero; 5 ms as 1 ms.
        let cases: [(asked: Duration?, kept: Duration, spin: Int64, slack: Int64)] = [
            (nil, .zero, 30_000, 1), (.microseconds(10), .microseconds(10), 20_000, 10_000),
            (.microseconds(50), .microseconds(50), 0, 50_000), (.microseconds(-3), .zero, 30_000, 1),
            (.milliseconds(5), .milliseconds(1), 0, 1_000_000),
        ]
        for (asked, kept, spin, slack) in cases {
            let clock = asked.map { DispatchClock(leeway: $0) } ?? DispatchClock()
            #expect(clock.leeway == kept, "asked \(String(describing: asked))")
            #expect(clock.spinLimit == spin && clock.slackNanoseconds == slack, "asked \(String(describing: asked))")
            clock.shutdown()
        }
    }
}
