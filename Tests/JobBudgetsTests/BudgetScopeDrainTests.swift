import BudgetLock
import BudgetTime
import Testing
import JobBudgets
import BudgetClock
import TestSupport

/// `BudgetScope.waitUntilDrained()`: a framework's test waits for every job of a scope to be over,
/// its budget ended or stopped *and* its call returned. On the virtual clock, with exact instants: the
/// test advances the clock only once the jobs are asleep on it (`waitForSleepers`).
@Suite(.timeLimit(.minutes(1))) struct BudgetScopeDrainTests {
    let clock = VirtualClock()

    /// A job that ignores the warning, and after its hard stop still cleans up for `cleanUp` on the
    /// virtual clock, in a task the hard stop does not cancel (as a framework's error reporting does).
    static func stubbornJob(_ task: BackgroundTask, clock: VirtualClock, cleanUp: Duration) async throws {
        do {
            try await clock.sleep(for: .seconds(3600))
        } catch {
            await Task { try? await clock.sleep(for: cleanUp) }.value
            throw error
        }
    }

    @Test func anEmptyScopeHasDrainedAtOnce() async throws {
        let scope = BudgetScheduler(clock: clock).makeScope(named: "idle")
        #expect(scope.isDrained && scope.activeCallCount == 0)
        #expect(try await scope.waitUntilDrained() == .zero)
    }

    @Test func aCallWhoseRequestIsRefusedIsCountedOutAgain() async throws {
        let scope = BudgetScheduler(clock: clock).makeScope()
        await #expect(throws: BudgetError(name: "bad", problem: .allowanceNegative(.seconds(-1)))) {
            _ = try await withBackgroundTask(named: "bad", allowance: .seconds(-1), scope: scope) { _ in }
        }
        #expect(scope.activeCallCount == 0 && scope.isDrained)
        #expect(try await scope.waitUntilDrained() == .zero)
    }

    @Test func aJobDrainsWhenItsCallReturnsNotAtItsHardStop() async throws {
        // Expected: shutdown at 1 with 10 s grace → hard stop at 11 (the budget is gone: liveCount 0)
        // → the job cleans up for 2 s → the scope drains at 13, not 11.
        let scheduler = BudgetScheduler(clock: clock)
        let scope = scheduler.makeScope(named: "emails")
        let clock = self.clock
        let returned = LockedValue(false)
        let job = Task {
            try await withBackgroundTask(named: "send", allowance: .seconds(60), scope: scope) { task in
                try await Self.stubbornJob(task, clock: clock, cleanUp: .seconds(2))
            }
        }
        try await clock.waitForSleepers(1)
        #expect(scope.activeCallCount == 1 && !scope.isDrained)
        let drained = Task { () throws -> BudgetInstant in
            defer { returned.withLock { $0 = true } }
            return try await scope.waitUntilDrained()
        }
        clock.advance(by: .seconds(1))
        scope.shutdown(grace: .seconds(10))
        clock.advance(to: .seconds(11))
        try await clock.waitForSleepers(1)               // the clean-up, after the hard stop
        #expect(scope.liveCount == 0, "the hard stop ended the budget")
        #expect(scope.activeCallCount == 1 && !scope.isDrained, "but the job has not returned")
        #expect(!returned.withLock { $0 })
        clock.advance(by: .seconds(2))
        #expect(try await drained.value == .seconds(13))
        let outcome = try await job.value
        #expect(outcome.stopReason == .shutdown && outcome.wasWarned)
        #expect(scope.isDrained)
    }

    @Test func manyJobsDrainWhenTheSlowestCleanUpReturns() async throws {
        // Expected: 100 jobs; job k cleans up for k + 1 ms after the hard stop at 10 s → drained at 10.100 s.
        let scheduler = BudgetScheduler(clock: clock)
        let scope = scheduler.makeScope(named: "images")
        let clock = self.clock
        let jobs = 100
        let group = Task {
            await withTaskGroup(of: Void.self) { group in
                for k in 0..<jobs {
                    group.addTask {
                        _ = try? await withBackgroundTask(named: "job \(k)", allowance: .seconds(30), warningLead: .seconds(5),
                                                          scope: scope) { task in
                            try await Self.stubbornJob(task, clock: clock, cleanUp: .milliseconds(k + 1))
                        }
                    }
                }
            }
        }
        try await clock.waitForSleepers(jobs)
        #expect(scope.activeCallCount == jobs && scope.liveCount == jobs)
        let drained = Task { try await scope.waitUntilDrained() }
        scope.shutdown(grace: .seconds(10))
        clock.advance(to: .seconds(10))
        try await clock.waitForSleepers(jobs)
        #expect(scope.liveCount == 0 && scope.activeCallCount == jobs)
        clock.advance(by: .milliseconds(99))
        #expect(scope.activeCallCount >= 1, "job 99 is still cleaning up")
        clock.advance(by: .milliseconds(1))
        #expect(try await drained.value == .milliseconds(10_100))
        await group.value
        #expect(scope.isDrained)
    }

    @Test func budgetsRequestedDirectlyDrainWhenEndedOrStopped() async throws {
        // Expected: one budget ended at 5, one expires at 30 → drained at 30.
        let scope = BudgetScheduler(clock: clock).makeScope()
        let short = try scope.requestBudget(named: "short", allowance: .seconds(60))
        _ = try scope.requestBudget(named: "long", allowance: .seconds(30))
        let drained = Task { try await scope.waitUntilDrained() }
        clock.advance(by: .seconds(5))
        #expect(scope.scheduler.end(short))
        #expect(!scope.isDrained)
        clock.advance(by: .seconds(25))
        #expect(try await drained.value == .seconds(30))
    }

    @Test func anotherScopesJobsDoNotHoldTheDrain() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let emails = scheduler.makeScope(named: "emails"), images = scheduler.makeScope(named: "images")
        let clock = self.clock
        let other = Task {
            try await withBackgroundTask(named: "resize", allowance: .seconds(600), scope: images) { _ in
                try await clock.sleep(for: .seconds(300))
            }
        }
        _ = try emails.requestBudget(named: "send", allowance: .seconds(20))
        try await clock.waitForSleepers(1)
        let drained = Task { try await emails.waitUntilDrained() }
        clock.advance(by: .seconds(20))
        #expect(try await drained.value == .seconds(20))
        #expect(!images.isDrained && images.activeCallCount == 1)
        clock.advance(by: .seconds(280))
        #expect(try await other.value.stopReason == nil)
        #expect(images.isDrained)
    }

    @Test func cancellingTheWaitThrowsAndChangesNothing() async throws {
        let scope = BudgetScheduler(clock: clock).makeScope()
        let budget = try scope.requestBudget(named: "job", allowance: .seconds(30))
        let waiting = Task { try await scope.waitUntilDrained() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(scope.scheduler.isLive(budget) && scope.liveCount == 1)
        // A wait cancelled before it begins throws too, and the scope still drains for the next one.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await scope.waitUntilDrained()
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        let drained = Task { try await scope.waitUntilDrained() }
        clock.advance(by: .seconds(30))
        #expect(try await drained.value == .seconds(30))
    }

    @Test func aCallWaitingToReturnIsCancelledWithItsWaitWhileTheJobCarriesOn() async throws {
        // A drain wait cancelled while a job cleans up does not disturb the job's clean-up.
        let scheduler = BudgetScheduler(clock: clock)
        let scope = scheduler.makeScope()
        let clock = self.clock
        let job = Task {
            try await withBackgroundTask(named: "send", allowance: .seconds(5), scope: scope) { task in
                try await Self.stubbornJob(task, clock: clock, cleanUp: .seconds(1))
            }
        }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        try await clock.waitForSleepers(1)
        let waiting = Task { try await scope.waitUntilDrained() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        clock.advance(by: .seconds(1))
        #expect(try await job.value.stopReason == .expired)
        #expect(try await scope.waitUntilDrained() == .seconds(6))
    }
}

/// The same wait on a real clock: the clock's own timer stops the budgets. Real time, so in the long suite.
@Suite(LongRun.only) struct BudgetScopeDrainDispatchTests {
    @Test func aScopeOfStubbornJobsDrainsOnTheDispatchClockAfterItsShutdown() async throws {
        let clock = DispatchClock(label: "drain")
        let scheduler = BudgetScheduler(clock: clock)
        let scope = scheduler.makeScope(named: "emails")
        let jobs = 200
        let group = Task {
            await withTaskGroup(of: Bool.self) { group in
                for k in 0..<jobs {
                    group.addTask {
                        let outcome = try? await withBackgroundTask(named: "job \(k)", allowance: .seconds(600), scope: scope) { _ in
                            try await Task.sleep(for: .seconds(3600))
                        }
                        return outcome?.stopReason == .shutdown
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }
        try await scheduler.waitForRunningJobs(jobs)
        let start = clock.now
        scope.shutdown(grace: .milliseconds(50))
        let drainedAt = try await scope.waitUntilDrained()
        #expect(drainedAt - start >= .milliseconds(50), "not before the hard stop")
        #expect(scope.isDrained && scope.activeCallCount == 0)
        #expect(await group.value == jobs)
    }
}
