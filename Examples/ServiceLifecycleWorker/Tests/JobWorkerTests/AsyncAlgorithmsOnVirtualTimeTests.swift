import AsyncAlgorithms
import BudgetClock
import BudgetTime
import Testing

/// `VirtualClock` is a Swift `Clock`, so the ecosystem's clock-generic async code runs on virtual time:
/// here swift-async-algorithms' timer, driven tick by tick with no real waiting, no polling and no yields.
@Suite struct AsyncAlgorithmsOnVirtualTimeTests {
    @Test func anAsyncTimerSequenceTicksAtExactVirtualInstants() async throws {
        let clock = VirtualClock()
        let ticks = Task {
            var seen: [BudgetInstant] = []
            for await tick in AsyncTimerSequence(interval: .seconds(10), clock: clock) {
                seen.append(tick)
                if seen.count == 3 { break }
            }
            return seen
        }
        for _ in 0..<3 {
            try await clock.waitForSleepers(1)      // the timer is asleep until its next tick
            _ = clock.advance(by: .seconds(10))
        }
        #expect(await ticks.value == [.seconds(10), .seconds(20), .seconds(30)])
        #expect(clock.sleeperCount == 0)
    }

    @Test func aTimerThatIsNotAdvancedFarEnoughDoesNotTick() async throws {
        let clock = VirtualClock()
        let ticks = Task {
            var seen: [BudgetInstant] = []
            for await tick in AsyncTimerSequence(interval: .seconds(10), clock: clock) { seen.append(tick) }
            return seen
        }
        try await clock.waitForSleepers(1)
        _ = clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)            // still asleep: 9 s is not the 10 s interval
        ticks.cancel()                              // a cancelled sleep ends the sequence
        #expect(await ticks.value == [])
    }
}
