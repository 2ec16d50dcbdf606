import BudgetTime
import BudgetClock
import Testing
import JobBudgets

/// The scheduler's clock as a Swift `Clock`: code generic over `Clock` that holds only the scheduler
/// runs on the scheduler's virtual time, at exact instants; and the hard stop cancels a job's work
/// directly, whether its task had begun or not.
@Suite struct BudgetSchedulerClockTests {
    let clock = VirtualClock()

    /// What a framework's timer does with any clock: sleeps `interval`, `times` times, noting each instant.
    private func tick<C: Clock>(_ times: Int, every interval: Duration, on clock: C) async throws -> [C.Instant]
    where C.Duration == Duration {
        var instants: [C.Instant] = []
        for _ in 0..<times {
            try await clock.sleep(for: interval)
            instants.append(clock.now)
        }
        return instants
    }

    @Test func aTimerGenericOverClockTicksAtExactVirtualInstants() async throws {
        // Expected: ticks at 5, 10 and 15 s exactly; nothing before each instant.
        let scheduler = BudgetScheduler(clock: clock)
        let swiftClock = scheduler.swiftClock
        #expect(swiftClock.now == .zero && swiftClock.minimumResolution == .nanoseconds(1))
        let ticks = Task { try await tick(3, every: .seconds(5), on: swiftClock) }
        for expected in [5, 10, 15] {
            try await clock.waitForSleepers(1)
            clock.advance(by: .seconds(5) - .nanoseconds(1))
            #expect(clock.sleeperCount == 1, "woke before \(expected) s")
            clock.advance(by: .nanoseconds(1))
        }
        #expect(try await ticks.value == [.seconds(5), .seconds(10), .seconds(15)])
        #expect(swiftClock.now == .seconds(15))
    }

    @Test func taskSleepOnTheViewWakesAtItsDeadlineAndACancelledSleepThrows() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let swiftClock = scheduler.swiftClock
        let woke = Task {
            try await Task.sleep(until: .seconds(7), tolerance: nil, clock: swiftClock)
            return swiftClock.now
        }
        let cancelled = Task { try await swiftClock.sleep(until: .seconds(100)) }
        try await clock.waitForSleepers(2)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        clock.advance(by: .seconds(7))
        #expect(try await woke.value == .seconds(7))
        #expect(clock.sleeperCount == 0)
    }

    @Test func theHardStopCancelsWorkThatIgnoresTheWarningAtItsInstant() async throws {
        // Expected: the work sleeps past its warning (at 25 s) and is cancelled at the hard stop, 32 s.
        let scheduler = BudgetScheduler(clock: clock)
        let job = Task {
            try await withBackgroundTask(named: "stubborn", allowance: .seconds(30), warningLead: .seconds(5), grace: .seconds(2),
                                         scheduler: scheduler) { _ in
                do { try await scheduler.swiftClock.sleep(for: .seconds(3_600)) } catch { return scheduler.clock.now }
                return BudgetInstant.zero
            }
        }
        try await scheduler.waitForRunningJobs(1)
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(32) - .nanoseconds(1))
        #expect(scheduler.liveCount == 1)
        clock.advance(by: .nanoseconds(1))
        let outcome = try await job.value
        #expect(outcome.stopReason == .expired && outcome.wasWarned)
        #expect(try outcome.get() == .seconds(32))
    }

    @Test func aHardStopBeforeTheWorkBeginsStillCancelsIt() async throws {
        // Expected: a zero allowance stops at the first advance, perhaps before the body has begun;
        // either way the body finds itself cancelled and the outcome says it stopped.
        let scheduler = BudgetScheduler(clock: clock)
        let job = Task {
            try await withBackgroundTask(named: "late", allowance: .zero, scheduler: scheduler) { _ in
                try await scheduler.swiftClock.sleep(for: .seconds(3_600))
            }
        }
        try await scheduler.waitForLiveBudgets(1)
        clock.advance(by: .zero)
        let outcome = try await job.value
        #expect(outcome.stopReason == .expired)
        #expect(throws: CancellationError.self) { try outcome.get() }
    }
}
