import BudgetTime
import Testing
import BudgetClock

/// `VirtualClock` and `DispatchClock` as Swift `Clock`s.
@Suite struct ClockConformanceTests {
    @Test func aSleepOnTheVirtualClockWakesExactlyAtItsDeadline() async throws {
        let clock = VirtualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(10)); return clock.now }
        try await clock.waitForSleepers(1)
        #expect(clock.sleeperCount == 1 && clock.pendingCount == 1)
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(try await sleeper.value == .seconds(10))
        #expect(clock.sleeperCount == 0)
    }

    @Test func taskSleepWithTheClockArgumentRunsOnVirtualTime() async throws {
        let clock = VirtualClock()
        let sleeper = Task { try await Task.sleep(until: .seconds(5), clock: clock) }
        try await clock.waitForSleepers(1)
        clock.advance(to: .seconds(5))
        try await sleeper.value
    }

    @Test func manySleepersAreWaitedForWithoutPolling() async throws {
        // Expected wake order: by deadline, whatever order the tasks reached their sleeps.
        let clock = VirtualClock()
        let sleepers = (1...100).map { index in
            Task { try await clock.sleep(until: .seconds(Int64(101 - index))); return clock.now }
        }
        try await clock.waitForSleepers(100)
        clock.advance(by: .seconds(100))
        for (index, sleeper) in sleepers.enumerated() {
            #expect(try await sleeper.value >= .seconds(Int64(100 - index)))
        }
        #expect(clock.pendingCount == 0)
    }

    @Test func cancellingASleeperCancelsItsWakeUp() async throws {
        let clock = VirtualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(10)) }
        try await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingCount == 0 && clock.sleeperCount == 0)
        let waiter = Task { try await clock.waitForSleepers(1) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test func budgetInstantIsTheClocksInstant() {
        let instant: VirtualClock.Instant = .seconds(3)
        #expect(instant.advanced(by: .seconds(2)) == .seconds(5))
        #expect(instant.duration(to: .seconds(1)) == .seconds(-2))
    }

    #if canImport(Dispatch)
    @Test func aSleepOnTheDispatchClockEndsNoEarlierThanItsDeadline() async throws {
        let clock = DispatchClock()
        let start = clock.now
        try await clock.sleep(for: .milliseconds(1))
        #expect(clock.now - start >= .milliseconds(1))
        clock.shutdown()
        await #expect(throws: CancellationError.self) { try await clock.sleep(for: .milliseconds(1)) }
    }
    #endif
}

/// The loop from the BudgetClock article: one wake-up per advance, each after the task sleeps again.
@Suite struct VirtualClockLoopTests {
    @Test func aTaskSleepingInALoopIsWokenOncePerAdvance() async throws {
        let clock = VirtualClock()
        let ticker = Task { for _ in 0..<3 { try await clock.sleep(for: .seconds(1)) }; return clock.now }
        for _ in 0..<3 {
            try await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
        }
        #expect(try await ticker.value == .seconds(3))
        #expect(clock.sleeperCount == 0 && clock.pendingCount == 0)
    }
}
