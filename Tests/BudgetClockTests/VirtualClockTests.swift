import BudgetLock
import BudgetTime
import Dispatch
import Testing
import BudgetClock
import TestSupport
import TestSupport

@Suite struct VirtualClockTests {
    /// Every test ends by proving nothing is left pending.
    private func expectIdle(_ clock: VirtualClock, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(clock.pendingCount == 0, sourceLocation: sourceLocation)
        #expect(clock.nextDeadline == nil, sourceLocation: sourceLocation)
    }

    @Test func runsWorkInDeadlineOrderWithNowSetToEachDeadline() {
        let expected = ["a@1.000", "b@2.000", "c@3.000"]
        let clock = VirtualClock()
        let log = TestLog<String>()
        clock.scheduleRecording("c", at: .seconds(3), in: log)
        clock.scheduleRecording("a", at: .seconds(1), in: log)
        clock.scheduleRecording("b", at: .seconds(2), in: log)
        #expect(clock.advance(by: .seconds(5)) == 3)
        #expect(log.entries == expected)
        #expect(clock.now == .seconds(5))
        expectIdle(clock)
    }

    @Test func runsWorkWithEqualDeadlinesInSchedulingOrder() {
        let expected = ["first@2.000", "second@2.000", "third@2.000"]
        let clock = VirtualClock()
        let log = TestLog<String>()
        for label in ["first", "second", "third"] {
            clock.scheduleRecording(label, at: .seconds(2), in: log)
        }
        #expect(clock.advance(to: .seconds(2)) == 3)
        #expect(log.entries == expected)
        expectIdle(clock)
    }

    @Test func doesNotRunWorkBeforeItsDeadline() {
        let clock = VirtualClock(startingAt: .seconds(100))
        let log = TestLog<String>()
        clock.scheduleRecording("later", at: .seconds(110), in: log)
        #expect(clock.advance(by: .milliseconds(9_999)) == 0)
        #expect(log.entries.isEmpty)
        #expect(clock.now == .milliseconds(109_999))
        #expect(clock.advance(by: .milliseconds(1)) == 1)
        #expect(log.entries == ["later@110.000"])
        expectIdle(clock)
    }

    @Test func workScheduledAtNowByWorkRunsAfterWorkAlreadyDueAtThatInstant() {
        let expected = ["a@1.000", "b@1.000", "a-child@1.000"]
        let clock = VirtualClock()
        let log = TestLog<String>()
        clock.schedule(at: .seconds(1)) {
            log.append("a@\(formatSeconds(clock.now.nanoseconds))")
            clock.scheduleRecording("a-child", at: clock.now, in: log)
        }
        clock.scheduleRecording("b", at: .seconds(1), in: log)
        #expect(clock.advance(to: .seconds(1)) == 3)
        #expect(log.entries == expected)
        expectIdle(clock)
    }

    @Test func workScheduledByWorkInsideTheWindowRunsInTheSameAdvance() {
        let expected = ["a@1.000", "b@2.000", "inside@3.000"]
        let clock = VirtualClock()
        let log = TestLog<String>()
        clock.schedule(at: .seconds(1)) {
            log.append("a@\(formatSeconds(clock.now.nanoseconds))")
            clock.schedule(after: .seconds(2)) { log.append("inside@\(formatSeconds(clock.now.nanoseconds))") }
            clock.schedule(after: .seconds(10)) { log.append("outside") }
        }
        clock.scheduleRecording("b", at: .seconds(2), in: log)
        #expect(clock.advance(to: .seconds(5)) == 3)
        #expect(log.entries == expected)
        #expect(clock.pendingCount == 1)
        #expect(clock.nextDeadline == .seconds(11))
        #expect(clock.advance(to: .seconds(11)) == 1)
        #expect(log.entries.last == "outside")
        expectIdle(clock)
    }

    @Test func cancelReturnsTrueOnlyWhileTheWorkIsPending() {
        let clock = VirtualClock()
        let log = TestLog<String>()
        let cancelled = clock.scheduleRecording("cancelled", at: .seconds(1), in: log)
        let ran = clock.scheduleRecording("ran", at: .seconds(1), in: log)
        #expect(clock.cancel(cancelled))
        #expect(!clock.cancel(cancelled))
        #expect(clock.advance(by: .seconds(1)) == 1)
        #expect(!clock.cancel(ran))
        #expect(log.entries == ["ran@1.000"])
        expectIdle(clock)
    }

    @Test func staleHandleDoesNotCancelWorkThatReusedItsStorage() {
        let clock = VirtualClock()
        let log = TestLog<String>()
        let stale = clock.scheduleRecording("old", at: .seconds(1), in: log)
        #expect(clock.cancel(stale))
        let fresh = clock.scheduleRecording("new", at: .seconds(1), in: log)
        #expect(fresh != stale)
        #expect(!clock.cancel(stale))
        #expect(clock.pendingCount == 1)
        #expect(clock.advance(by: .seconds(1)) == 1)
        #expect(log.entries == ["new@1.000"])
        expectIdle(clock)
    }

    @Test func handleFromAnotherClockCancelsNothing() {
        let clock = VirtualClock()
        let other = VirtualClock()
        let log = TestLog<String>()
        let mine = clock.scheduleRecording("mine", at: .seconds(1), in: log)
        let theirs = other.scheduleRecording("theirs", at: .seconds(1), in: log)
        #expect(!clock.cancel(theirs))
        #expect(clock.pendingCount == 1)
        #expect(clock.cancel(mine))
        #expect(other.cancel(theirs))
        expectIdle(clock)
        expectIdle(other)
    }

    @Test func workCanCancelWorkDueAtTheSameInstantThatHasNotRunYet() {
        let expected = ["canceller@4.000", "survivor@4.000"]
        let clock = VirtualClock()
        let log = TestLog<String>()
        let victim = LockedValue<ScheduledWork?>(nil)
        let result = LockedValue<Bool?>(nil)
        clock.schedule(at: .seconds(4)) {
            log.append("canceller@\(formatSeconds(clock.now.nanoseconds))")
            let handle = victim.withLock { $0 }!
            result.withLock { $0 = clock.cancel(handle) }
        }
        victim.withLock { $0 = clock.scheduleRecording("victim", at: .seconds(4), in: log) }
        clock.scheduleRecording("survivor", at: .seconds(4), in: log)
        #expect(clock.advance(by: .seconds(4)) == 2)
        #expect(log.entries == expected)
        #expect(result.withLock { $0 } == true)
        expectIdle(clock)
    }

    @Test func workCanCancelItselfWhileRunningWhichReturnsFalse() {
        let clock = VirtualClock()
        let own = LockedValue<ScheduledWork?>(nil)
        let result = LockedValue<Bool?>(nil)
        own.withLock {
            $0 = clock.schedule(at: .seconds(1)) {
                let handle = own.withLock { $0 }!
                result.withLock { $0 = clock.cancel(handle) }
            }
        }
        #expect(clock.advance(by: .seconds(1)) == 1)
        #expect(result.withLock { $0 } == false)
        expectIdle(clock)
    }

    @Test func advancingToThePastKeepsNowAndRunsWorkDueAtNow() {
        let clock = VirtualClock()
        let log = TestLog<String>()
        clock.advance(to: .seconds(10))
        clock.scheduleRecording("past", at: .seconds(5), in: log)
        #expect(clock.nextDeadline == .seconds(10), "a past deadline is clamped to now")
        #expect(log.entries.isEmpty, "scheduling never runs work")
        #expect(clock.advance(to: .seconds(3)) == 1)
        #expect(clock.now == .seconds(10))
        #expect(log.entries == ["past@10.000"])
        #expect(clock.advance(by: .seconds(-4)) == 0)
        #expect(clock.now == .seconds(10))
        expectIdle(clock)
    }

    @Test func pastDeadlinesRunAfterWorkAlreadyDueAtNow() {
        let expected = ["due@2.000", "clamped@2.000", "negative-delay@2.000"]
        let clock = VirtualClock(startingAt: .seconds(2))
        let log = TestLog<String>()
        clock.scheduleRecording("due", at: .seconds(2), in: log)
        clock.scheduleRecording("clamped", at: .seconds(1), in: log)
        clock.schedule(after: .seconds(-1)) { log.append("negative-delay@\(formatSeconds(clock.now.nanoseconds))") }
        #expect(clock.advance(by: .zero) == 3)
        #expect(log.entries == expected)
        expectIdle(clock)
    }

    @Test func reportsNextDeadlineAndPendingCount() {
        let clock = VirtualClock()
        #expect(clock.nextDeadline == nil)
        let late = clock.schedule(at: .seconds(9)) {}
        clock.schedule(after: .milliseconds(1500)) {}
        #expect(clock.pendingCount == 2)
        #expect(clock.nextDeadline == .milliseconds(1500))
        clock.advance(by: .seconds(2))
        #expect(clock.pendingCount == 1)
        #expect(clock.nextDeadline == .seconds(9))
        clock.cancel(late)
        expectIdle(clock)
    }

    @Test func runUntilIdleAdvancesToEachDeadlineUntilNothingIsPending() {
        let expected = ["a@5.000", "b@60.000", "chained@90.000"]
        let clock = VirtualClock()
        let log = TestLog<String>()
        clock.scheduleRecording("a", at: .seconds(5), in: log)
        clock.schedule(at: .seconds(60)) {
            log.append("b@\(formatSeconds(clock.now.nanoseconds))")
            clock.schedule(after: .seconds(30)) { log.append("chained@\(formatSeconds(clock.now.nanoseconds))") }
        }
        #expect(clock.runUntilIdle() == 3)
        #expect(log.entries == expected)
        #expect(clock.now == .seconds(90))
        expectIdle(clock)
    }

    @Test func runUntilIdleStopsAfterMaxStepsWhenWorkKeepsRescheduling() {
        let clock = VirtualClock()
        let runs = LockedValue(0)
        let keepGoing = LockedValue(true)
        @Sendable func tick() {
            runs.withLock { $0 += 1 }
            if keepGoing.withLock({ $0 }) {
                clock.schedule(after: .seconds(1), tick)
            }
        }
        clock.schedule(after: .seconds(1), tick)
        #expect(clock.runUntilIdle(maxSteps: 50) == 50)
        #expect(runs.withLock { $0 } == 50)
        #expect(clock.now == .seconds(50))
        #expect(clock.pendingCount == 1)
        #expect(clock.runUntilIdle(maxSteps: 0) == 0)
        keepGoing.withLock { $0 = false }
        #expect(clock.runUntilIdle() == 1)
        #expect(clock.now == .seconds(51))
        expectIdle(clock)
    }

    /// Models "this callback takes 7 s": the callback advances the clock itself, and a watchdog due
    /// meanwhile fires inside it.
    @Test func workThatAdvancesTheClockLetsDueWorkRunInsideIt() {
        let expected = ["callback-start@1.000", "watchdog@5.000", "callback-end@8.000", "after@9.000"]
        let clock = VirtualClock()
        let log = TestLog<String>()
        let nestedCount = LockedValue(-1)
        clock.schedule(at: .seconds(1)) {
            log.append("callback-start@\(formatSeconds(clock.now.nanoseconds))")
            let ran = clock.advance(by: .seconds(7))
            nestedCount.withLock { $0 = ran }
            log.append("callback-end@\(formatSeconds(clock.now.nanoseconds))")
        }
        clock.scheduleRecording("watchdog", at: .seconds(5), in: log)
        clock.scheduleRecording("after", at: .seconds(9), in: log)
        #expect(clock.advance(to: .seconds(10)) == 2, "the outer call counts what it ran itself")
        #expect(nestedCount.withLock { $0 } == 1)
        #expect(log.entries == expected)
        #expect(clock.now == .seconds(10))
        expectIdle(clock)
    }

    @Test func nestedAdvancePastTheOuterTargetNeverMovesTimeBack() {
        let expected = ["slow@1.000", "inner@6.000", "slow-done@20.000"]
        let clock = VirtualClock()
        let log = TestLog<String>()
        clock.schedule(at: .seconds(1)) {
            log.append("slow@\(formatSeconds(clock.now.nanoseconds))")
            clock.advance(to: .seconds(20))
            log.append("slow-done@\(formatSeconds(clock.now.nanoseconds))")
        }
        clock.scheduleRecording("inner", at: .seconds(6), in: log)
        #expect(clock.advance(to: .seconds(3)) == 1)
        #expect(clock.now == .seconds(20))
        #expect(log.entries == expected)
        expectIdle(clock)
    }

    @Test func releasesCancelledAndFinishedWorkOutsideTheLock() {
        // A capture whose deinit uses the clock would deadlock if the closure died under the lock.
        final class UsesClockOnDeinit: Sendable {
            let clock: VirtualClock
            let seen: TestLog<Int>
            init(clock: VirtualClock, seen: TestLog<Int>) { self.clock = clock; self.seen = seen }
            deinit { seen.append(clock.pendingCount) }
        }
        let clock = VirtualClock()
        let seen = TestLog<Int>()
        // Each guard object's only reference is the closure's capture.
        func work() -> @Sendable () -> Void {
            let guardObject = UsesClockOnDeinit(clock: clock, seen: seen)
            return { _ = guardObject }
        }
        let handle = clock.schedule(at: .seconds(1), work())
        clock.schedule(at: .seconds(2), work())
        #expect(seen.entries.isEmpty)
        #expect(clock.cancel(handle))
        #expect(seen.entries == [1], "released by cancel, seeing the other item pending")
        #expect(clock.advance(by: .seconds(2)) == 1)
        #expect(seen.entries == [1, 0])
        expectIdle(clock)
    }

    @Test func schedulingFromManyThreadsLosesNothing() {
        let clock = VirtualClock()
        let ran = LockedValue(0)
        let cancelled = LockedValue(0)
        let threads = 8
        let perThread = 500
        // No #expect off the test's own task: count here, assert below.
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for index in 0..<perThread {
                let handle = clock.schedule(after: .milliseconds(Int64(index % 50))) { ran.withLock { $0 += 1 } }
                if index % 5 == 0, clock.cancel(handle) {
                    cancelled.withLock { $0 += 1 }
                }
            }
        }
        #expect(cancelled.withLock { $0 } == threads * perThread / 5)
        let expected = threads * perThread * 4 / 5
        #expect(clock.pendingCount == expected)
        #expect(clock.runUntilIdle() == expected)
        #expect(ran.withLock { $0 } == expected)
        expectIdle(clock)
    }
}
