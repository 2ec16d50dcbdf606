import Testing
@testable import BudgetClock

/// The real-time clock's state machine, driven directly: no threads, no timer, no time.
@Suite struct DispatchClockStateTests {
    private typealias State = DispatchClock.State

    /// Runs a firing to its end at `now`, returning how many items ran and what was armed.
    private func fire(_ state: inout State, at now: Int64) -> (ran: Int, armed: Int64?) {
        state.beginFiring()
        var ran = 0
        while state.popDue(through: now) != nil { ran += 1 }
        while true {
            switch state.nextStep(now: now) {
            case .run: ran += 1
            case .wait(let until), .spin(let until):
                Issue.record("a state without an inline-wait limit waited until \(until)")
                return (ran, nil)
            case .finish(let arm): return (ran, arm)
            }
        }
    }

    @Test func armsOnlyWhenTheEarliestDeadlineMovesEarlier() {
        // Expected arms: 100 (first), 50 (earlier); none for 200, 50 (equal) or 70.
        var state = State()
        #expect(state.schedule({}, at: 100, now: 0).arm == 100)
        #expect(state.schedule({}, at: 200, now: 0).arm == nil)
        #expect(state.schedule({}, at: 50, now: 0).arm == 50)
        #expect(state.schedule({}, at: 50, now: 0).arm == nil)
        #expect(state.schedule({}, at: 70, now: 0).arm == nil)
        #expect(state.armedDeadline == 50)
        #expect(state.queue.count == 5)
    }

    @Test func aPastDeadlineCountsAsNow() {
        var state = State()
        #expect(state.schedule({}, at: 10, now: 40).arm == 40)
        #expect(state.queue.peekDeadline == 40)
    }

    @Test func aFiringRunsWhatIsDueThenArmsForTheNextDeadline() {
        // Expected: at 60, the two items due at 50 and the one at 60 run; the timer is armed for 100.
        var state = State()
        for deadline in [100, 50, 60, 50] as [Int64] { state.schedule({}, at: deadline, now: 0) }
        let (ran, armed) = fire(&state, at: 60)
        #expect(ran == 3)
        #expect(armed == 100)
        #expect(state.armedDeadline == 100)
        #expect(!state.isFiring)
        #expect(fire(&state, at: 100) == (1, nil))
        #expect(state.armedDeadline == nil)
        #expect(state.queue.isEmpty)
    }

    @Test func workScheduledDuringAFiringIsArmedByTheFiringNotBySchedule() {
        var state = State()
        state.schedule({}, at: 10, now: 0)
        state.beginFiring()
        #expect(state.popDue(through: 10) != nil)
        #expect(state.schedule({}, at: 30, now: 10).arm == nil, "the firing arms when it finishes")
        #expect(state.schedule({}, at: 20, now: 10).arm == nil)
        guard case .finish(let arm) = state.nextStep(now: 11) else {
            Issue.record("nothing was due at 11")
            return
        }
        #expect(arm == 20)
        #expect(state.queue.count == 2)
    }

    @Test func cancellingKeepsTheTimerArmedAndASpuriousFiringRearms() {
        // Expected: cancelling the earliest item leaves the timer armed for 10; firing at 10 runs
        // nothing and arms for 20.
        var state = State()
        let first = state.schedule({}, at: 10, now: 0).entry!
        state.schedule({}, at: 20, now: 0)
        #expect(state.cancel(first) != nil)
        #expect(state.cancel(first) == nil)
        #expect(state.armedDeadline == 10)
        #expect(fire(&state, at: 10) == (0, 20))
    }

    /// The step after the last one popped, at `now`, as text: `run`, `wait N`, `spin N` or `finish N`.
    private func step(_ state: inout State, at now: Int64) -> String {
        switch state.nextStep(now: now) {
        case .run: "run"
        case .wait(let until): "wait \(until)"
        case .spin(let until): "spin \(until)"
        case .finish(let arm): "finish \(arm.map(String.init) ?? "-")"
        }
    }

    @Test func aFiringWaitsForANearDeadlineInsteadOfArmingTheTimer() {
        // Expected, with a 10 ns limit: after 50 runs, the firing waits until 55 (5 away) and runs it;
        // then 100 is 44 away, so it finishes and arms the timer for 100.
        var state = State(inlineWaitLimit: 10)
        for deadline in [50, 55, 100] as [Int64] { state.schedule({}, at: deadline, now: 0) }
        state.beginFiring()
        #expect(state.popDue(through: 50) != nil)
        #expect(step(&state, at: 51) == "wait 55")
        #expect(state.waitingUntil == 55 && state.isFiring)
        #expect(step(&state, at: 55) == "run")
        #expect(state.waitingUntil == nil)
        #expect(step(&state, at: 56) == "finish 100")
        #expect(state.armedDeadline == 100 && !state.isFiring)
    }

    @Test func theClocksFiringWaitsForDeadlinesUpTo20MillisecondsApartAndArmsBeyond() {
        // Expected, with the clock's own limits and default leeway (no spin): deadlines 10 ms and
        // exactly 20 ms after the last run are waited for on the firing's thread (one wake-up each);
        // one 20 ms + 1 ns later ends the firing and arms the timer for it. A leeway above 1 ms is
        // still kept at 1 ms, apart from the wait limit.
        let milliseconds: Int64 = 1_000_000
        #expect(DispatchClock.inlineWaitLimit == 20 * milliseconds && DispatchClock.maxLeeway == milliseconds)
        var state = State(inlineWaitLimit: DispatchClock.inlineWaitLimit)
        for deadline in [0, 10, 30] as [Int64] { state.schedule({}, at: deadline * milliseconds, now: 0) }
        state.schedule({}, at: 50 * milliseconds + 1, now: 0)
        state.beginFiring()
        #expect(state.popDue(through: 0) != nil)
        #expect(step(&state, at: 0) == "wait \(10 * milliseconds)")
        #expect(step(&state, at: 10 * milliseconds) == "run")
        #expect(step(&state, at: 10 * milliseconds) == "wait \(30 * milliseconds)")
        #expect(step(&state, at: 30 * milliseconds) == "run")
        #expect(step(&state, at: 30 * milliseconds) == "finish \(50 * milliseconds + 1)")
        #expect(state.spins == 0 && state.armedDeadline == 50 * milliseconds + 1)
        let clock = DispatchClock(leeway: .milliseconds(5))
        #expect(clock.leeway == .milliseconds(1))
        clock.shutdown()
    }

    /// A firing (10 ns limit) that ran the work at 50 and waits for the work at 55.
    private func waitingUntil55() -> State {
        var state = State(inlineWaitLimit: 10)
        state.schedule({}, at: 50, now: 0)
        state.schedule({}, at: 55, now: 0)
        state.beginFiring()
        #expect(state.popDue(through: 50) != nil)
        #expect(step(&state, at: 50) == "wait 55")
        return state
    }

    @Test func workScheduledBeforeTheWaitedInstantWakesTheFiringOnce() {
        // Expected: waiting until 55, work at 53 wakes the firing (and moves the wait to 53); work at
        // 54 or 60 does not; nothing arms the timer while the firing lasts.
        var state = waitingUntil55()
        let early = state.schedule({}, at: 53, now: 51)
        #expect(early.wake && early.arm == nil)
        #expect(state.waitingUntil == 53)
        #expect(!state.schedule({}, at: 54, now: 51).wake)
        #expect(!state.schedule({}, at: 60, now: 51).wake)
        #expect(step(&state, at: 53) == "run")
        #expect(state.queue.count == 3)
    }

    @Test func shutDownEndsAWaitingFiring() {
        var state = waitingUntil55()
        #expect(state.shutDown()?.count == 1)
        #expect(state.waitingUntil == nil)
        #expect(step(&state, at: 55) == "finish -")
        #expect(!state.isFiring)
    }

    @Test func shutDownDropsEverythingAndRefusesNewWork() {
        var state = State()
        state.schedule({}, at: 10, now: 0)
        state.schedule({}, at: 20, now: 0)
        #expect(state.shutDown()?.count == 2)
        #expect(state.shutDown() == nil)
        #expect(state.queue.isEmpty)
        #expect(state.armedDeadline == nil)
        let refused = state.schedule({}, at: 30, now: 0)
        #expect(refused.entry == nil && refused.arm == nil)
        #expect(fire(&state, at: 100) == (0, nil), "a firing after shutdown arms nothing")
    }

    /// A firing (10 ns inline-wait limit, 3 ns spin limit) that ran the work at 50, with work left
    /// at 52, 58 and 100.
    private func spinningState() -> State {
        var state = State(inlineWaitLimit: 10, spinLimit: 3)
        for deadline in [50, 52, 58, 100] as [Int64] { state.schedule({}, at: deadline, now: 0) }
        state.beginFiring()
        #expect(state.popDue(through: 50) != nil)
        return state
    }

    @Test func aFiringSpinsForADeadlineWithinTheSpinLimitAndSleepsForOneBeyondIt() {
        // Expected: 52 is 2 away (spin), 58 is 5 away (wait: sleep, then spin), 100 is 42 away
        // (finish and arm the timer).
        var state = spinningState()
        #expect(step(&state, at: 50) == "spin 52")
        #expect(state.waitingUntil == 52 && state.isSpinning)
        #expect(step(&state, at: 52) == "run")
        #expect(!state.isSpinning && state.waitingUntil == nil)
        #expect(step(&state, at: 53) == "wait 58")
        #expect(state.waitingUntil == 58 && !state.isSpinning)
        #expect(step(&state, at: 55) == "spin 58", "within 3 of it, the woken firing spins")
        #expect(step(&state, at: 58) == "run")
        #expect(step(&state, at: 58) == "finish 100")
    }

    @Test func earlierWorkEndsASpinThroughTheWaitedInstantAloneAndShutdownEndsItToo() {
        // Expected: while spinning until 52, work at 51 moves `waitingUntil` to 51 (which the
        // spinning thread watches) without a wake-up signal; work at 60 changes nothing.
        var state = spinningState()
        #expect(step(&state, at: 50) == "spin 52")
        let early = state.schedule({}, at: 51, now: 50)
        #expect(!early.wake && early.arm == nil && state.waitingUntil == 51)
        #expect(!state.schedule({}, at: 60, now: 50).wake)
        #expect(state.waitingUntil == 51)
        #expect(step(&state, at: 51) == "run")
        #expect(step(&state, at: 51) == "spin 52")
        #expect(state.shutDown() != nil)
        #expect(state.waitingUntil == nil && !state.isSpinning)
        #expect(step(&state, at: 51) == "finish -")
    }
}
