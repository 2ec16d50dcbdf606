import BudgetClock      // the clocks: `JobBudgets` re-exports nothing, so a job runner imports both
import Testing
import JobBudgets

/// Waits for tests, sleeping on a scheduler's clock, errors that keep their type, and the test double
/// for `BackgroundTask`. This file imports `JobBudgets` and `BudgetClock`, as a job runner does.
@Suite struct BudgetWaitAndLinkTests {
    let clock = VirtualClock()

    @Test func waitingForExactlyNAndForNoneIsResumedByEndsToo() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let budgets = try (0..<3).map { try scheduler.requestBudget(named: "j\($0)", allowance: .seconds(10)) }
        let two = Task { try await scheduler.waitForLiveBudgets(exactly: 2) }
        let none = Task { try await scheduler.waitForNoLiveBudgets() }
        scheduler.end(budgets[0])
        try await two.value
        scheduler.end(budgets[1])
        clock.advance(by: .seconds(10))                        // the last one expires
        try await none.value
        #expect(scheduler.liveCount == 0)
    }

    @Test func aCancelledExactWaitThrowsAndLeavesNoWaiter() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let waiter = Task { try await scheduler.waitForLiveBudgets(exactly: 5) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        _ = try scheduler.requestBudget(named: "x", allowance: .seconds(1))
    }

    @Test func waitingForAShutdownAndForRunningBodies() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let seen = Task { try await scheduler.waitForShutdown() }
        let started = Task {
            try await withBackgroundTask(named: "job", allowance: .seconds(60), scheduler: scheduler) { task in
                try await task.waitForWarning()
                return scheduler.clock.now
            }
        }
        try await scheduler.waitForRunningJobs(1)              // the body is running, not just granted
        #expect(scheduler.runningJobCount == 1)
        clock.advance(by: .seconds(3))
        scheduler.shutdown(grace: .seconds(5))
        try await seen.value
        clock.advance(by: .zero)                               // the clock delivers the warning
        let outcome = try await started.value
        #expect(try outcome.get() == .seconds(3) && outcome.wasWarned && outcome.stopReason == nil)
    }

    @Test func codeHoldingOnlyTheSchedulerSleepsOnItsClock() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let woke = Task {
            try await scheduler.sleep(for: .seconds(30))
            return scheduler.clock.now
        }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(29))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(try await woke.value == .seconds(30))
    }

    @Test func sleepingOnAnyOtherBudgetClockWakesAtItsInstant() async throws {
        let scheduler = BudgetScheduler(clock: clock as any BudgetClock)
        let woke = Task { try await scheduler.sleep(until: .seconds(4)) }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        try await woke.value
        let cancelled = Task { try await scheduler.sleep(for: .seconds(4)) }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    struct UploadFailed: Error, Equatable { var code: Int }

    @Test func theJobsOwnErrorComesBackUnchangedWithTheStopReasonBesideIt() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let clock = self.clock
        let call = Task {
            try await withBackgroundTask(named: "upload", allowance: .seconds(10), scheduler: scheduler) { _ -> Int in
                do { try await clock.sleep(for: .seconds(60)) } catch { throw UploadFailed(code: 499) }
                return 0
            }
        }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        let outcome = try await call.value
        #expect(throws: UploadFailed(code: 499)) { try outcome.get() }
        #expect(outcome.stopReason == .expired)
        #expect(outcome.stoppedError == BudgetStoppedError(budget: outcome.budget, reason: .expired))
        let quick = try await withBackgroundTask(named: "fails", allowance: .seconds(10), scheduler: scheduler) { _ -> Int in
            throw UploadFailed(code: 500)
        }
        #expect(throws: UploadFailed(code: 500)) { try quick.get() }
        #expect(quick.stopReason == nil && quick.stoppedError == nil)
    }

    /// A job function written against `BackgroundTask`, tested alone with the double.
    func resize(_ count: Int, task: BackgroundTask) -> Int {
        var done = 0
        while done < count, !task.isWarned { done += 1 }
        return done
    }

    @Test func theTestDoubleWarnsAndStopsOnTheVirtualClock() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let task = try BackgroundTask.forTesting(named: "resize", allowance: .seconds(30), warningLead: .seconds(5),
                                                 scheduler: scheduler)
        #expect(resize(10, task: task) == 10)
        clock.advance(by: .seconds(25))
        #expect(task.isWarned && task.stopReason == nil)
        #expect(resize(10, task: task) == 0)
        clock.advance(by: .seconds(5))
        #expect(task.stopReason == .expired && task.timeRemaining == nil)
    }
}
