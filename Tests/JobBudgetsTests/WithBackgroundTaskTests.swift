import BudgetLock
import Testing
import JobBudgets
import BudgetClock
import TestSupport

/// The structured API on the virtual clock: the work sleeps on the clock, and the test advances it only
/// once the work is asleep (`waitForSleepers`), so every instant is exact.
@Suite struct WithBackgroundTaskTests {
    let clock = VirtualClock()

    @Test func returnsTheResultAndEndsTheBudget() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let outcome = try await withBackgroundTask(named: "quick", allowance: .seconds(30), scheduler: scheduler) { _ in 42 }
        #expect(try outcome.get() == 42)
        #expect(outcome.stopReason == nil && !outcome.wasWarned)
        #expect(outcome.budget.name == "quick")
        #expect(scheduler.liveCount == 0)
        #expect(clock.nextDeadline == .seconds(30), "the scheduler's timer stays armed until its instant")
        clock.advance(by: .seconds(30))
        #expect(clock.pendingCount == 0)
    }

    @Test func theWarningDoesNotCancelAndCleanUpMayStillAwait() async throws {
        // Expected: asleep at 0 → warned at 25 (not cancelled) → checkpoint sleep of 2 s → returns at 27.
        let scheduler = BudgetScheduler(clock: clock)
        let clock = self.clock
        let call = Task {
            try await withBackgroundTask(named: "report", allowance: .seconds(30), warningLead: .seconds(5),
                                         scheduler: scheduler) { task in
                try await task.waitForWarning()
                #expect(!Task.isCancelled)
                try await clock.sleep(for: .seconds(2))        // a checkpoint that awaits
                return "checkpointed at \(clock.now)"
            }
        }
        try await scheduler.waitForLiveBudgets(1)
        clock.advance(by: .seconds(25))
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        let outcome = try await call.value
        #expect(try outcome.get() == "checkpointed at t=27.000s")
        #expect(outcome.wasWarned && outcome.stopReason == nil)
        #expect(clock.nextDeadline == .seconds(30), "the hard stop's timer stays armed; it finds nothing due")
        clock.advance(by: .seconds(3))
        #expect(clock.pendingCount == 0)
    }

    @Test func theHardStopCancelsTheWorkAndTheCallReturnsOnlyAfterIt() async throws {
        // Expected: the hard stop at 32 cancels the sleep; the work then records that it finished,
        // before the call returns.
        let scheduler = BudgetScheduler(clock: clock)
        let clock = self.clock
        let log = TestLog<String>()
        let call = Task {
            let outcome = try await withBackgroundTask(named: "stubborn", allowance: .seconds(30), warningLead: .seconds(5),
                                                       grace: .seconds(2), scheduler: scheduler) { task in
                defer { log.append("work finished, stop reason \(task.stopReason.map(String.init(describing:)) ?? "none")") }
                try await clock.sleep(for: .seconds(3600))
            }
            log.append("call returned")
            return outcome
        }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(32))
        let outcome = try await call.value
        #expect(log.entries == ["work finished, stop reason expired", "call returned"])
        #expect(outcome.stopReason == .expired && outcome.wasWarned)
        #expect(throws: CancellationError.self) { try outcome.get() }         // the work's own error, unchanged
        #expect(outcome.stoppedError == BudgetStoppedError(budget: outcome.budget, reason: .expired))
        #expect(clock.pendingCount == 0 && clock.sleeperCount == 0)
    }

    @Test func aJobThatIgnoresTheHardStopKeepsTheCallWaitingUntilItReturns() async throws {
        // Expected order: the job sees the cancellation, the test lets it go, the job returns, the
        // call returns. Were the call to return at the hard stop, "call returned" would come earlier.
        let scheduler = BudgetScheduler(clock: clock)
        let clock = self.clock
        let log = TestLog<String>()
        let (cancelled, cancelledSignal) = AsyncStream<Void>.makeStream()
        let (waiting, waitingSignal) = AsyncStream<Void>.makeStream()
        let gate = LockedValue<CheckedContinuation<Void, Never>?>(nil)
        let call = Task {
            let outcome = try await withBackgroundTask(named: "stubborn", allowance: .seconds(30), scheduler: scheduler) { _ in
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in              // not cancellable
                        gate.withLock { $0 = continuation }
                        waitingSignal.yield()
                    }
                } onCancel: {
                    log.append("job sees cancellation")
                    cancelledSignal.yield()
                }
                log.append("job returns")
                return 7
            }
            log.append("call returned")
            return outcome
        }
        for await _ in waiting { break }
        clock.advance(by: .seconds(30))
        for await _ in cancelled { break }
        log.append("test lets the job go")
        gate.withLock { $0 }?.resume()
        let outcome = try await call.value
        #expect(log.entries == ["job sees cancellation", "test lets the job go", "job returns", "call returned"])
        #expect(outcome.stopReason == .expired)
        #expect(try outcome.get() == 7)                    // what the job returned, after its hard stop
    }

    @Test func shutdownWarnsThenStopsWithinTheGrace() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let clock = self.clock
        let call = Task {
            try await withBackgroundTask(named: "job", allowance: .seconds(600), scheduler: scheduler) { task in
                try await task.waitForWarning()
                let warnedAt = clock.now
                try await clock.sleep(for: .seconds(3600))     // ignores the warning
                return warnedAt
            }
        }
        try await scheduler.waitForLiveBudgets(1)
        clock.advance(by: .seconds(10))
        scheduler.shutdown(grace: .seconds(30))
        clock.advance(by: .zero)                              // the warning, at t=10
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        let outcome = try await call.value
        #expect(outcome.stopReason == .shutdown)
        #expect(outcome.result.isFailure)
    }

    @Test func nestedCallsGetChildBudgetsThatStopWithTheParent() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let inner = try await withBackgroundTask(named: "outer", allowance: .seconds(10), scheduler: scheduler) { _ in
            try await withBackgroundTask(named: "inner", allowance: .seconds(60), scheduler: scheduler) { task in
                (task.budget, task.timeRemaining, BackgroundTask.current?.name)
            }
        }
        let (budget, remaining, current) = try inner.get().get()
        #expect(budget == Budget(id: 2) && remaining == .seconds(10) && current == "inner")
        #expect(BackgroundTask.current == nil)
    }

    @Test func extendingFromTheWorkMovesTheHardStop() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let outcome = try await withBackgroundTask(named: "grow", allowance: .seconds(10), maximumAllowance: .seconds(30),
                                                   scheduler: scheduler) { task in
            try task.extend(by: .seconds(20))
        }
        #expect(try outcome.get() == .seconds(30))
        await #expect(throws: BudgetError(name: "bad", problem: .allowanceNegative(.seconds(-1)))) {
            _ = try await withBackgroundTask(named: "bad", allowance: .seconds(-1), scheduler: scheduler) { _ in 1 }
        }
    }

    @Test func cancellingTheCallerCancelsTheWorkAndEndsTheBudget() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let clock = self.clock
        let call = Task {
            try await withBackgroundTask(named: "job", allowance: .seconds(60), scheduler: scheduler) { _ in
                try await clock.sleep(for: .seconds(30))
            }
        }
        try await clock.waitForSleepers(1)
        call.cancel()
        let outcome = try await call.value
        #expect(outcome.stopReason == nil)
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(scheduler.liveCount == 0 && clock.nextDeadline == .seconds(60))
        clock.advance(by: .seconds(60))
        #expect(clock.pendingCount == 0)
    }
}

extension Result {
    var isFailure: Bool { if case .failure = self { true } else { false } }
}
