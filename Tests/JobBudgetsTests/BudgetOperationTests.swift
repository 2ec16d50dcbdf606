import Testing
import JobBudgets
import BudgetClock
import TestSupport

/// Extend, stop and shutdown, on the virtual clock with exact instants.
@Suite struct BudgetOperationTests {
    let clock = VirtualClock()
    let log = TestLog<String>()

    /// A budget that logs its warning and stop with the instant.
    func request(_ scheduler: BudgetScheduler, _ name: String, allowance: Duration, lead: Duration = .zero,
                 grace: Duration = .zero, maximum: Duration? = nil, parent: Budget? = nil) throws -> Budget {
        let (clock, log) = (self.clock, self.log)
        return try scheduler.requestBudget(
            named: name, allowance: allowance, warningLead: lead, grace: grace, maximumAllowance: maximum, parent: parent,
            onWarning: { log.append("warning \($0.name) at \(clock.now)") },
            onStop: { log.append("stop \($0.name) \($1) at \(clock.now)") })
    }

    @Test func extendingMovesTheWarningAndTheHardStopLater() throws {
        // Expected: warning at 25 + 60 = 85 s, stop at 92 s.
        let scheduler = BudgetScheduler(clock: clock)
        let job = try request(scheduler, "export", allowance: .seconds(30), lead: .seconds(5), grace: .seconds(2))
        clock.advance(by: .seconds(20))
        #expect(try scheduler.extend(job, by: .seconds(60)) == .seconds(92))
        #expect(scheduler.timeRemaining(job) == .seconds(72))
        clock.advance(by: .seconds(100))
        #expect(log.entries == ["warning export at t=85.000s", "stop export expired at t=92.000s"])
        #expect(clock.pendingCount == 0)
    }

    @Test func anExtensionPastTheCeilingIsRefusedAndChangesNothing() throws {
        let scheduler = BudgetScheduler(clock: clock, maximumAllowance: .seconds(300))
        let job = try request(scheduler, "export", allowance: .seconds(30), maximum: .seconds(120))
        try scheduler.extend(job, by: .seconds(90))
        #expect(throws: BudgetError(name: "export", problem: .extensionBeyondCeiling(.seconds(1), ceiling: .seconds(120)))) {
            try scheduler.extend(job, by: .seconds(1))
        }
        #expect(scheduler.deadline(of: job) == .seconds(120))
        let error = BudgetError(name: "export", problem: .extensionBeyondCeiling(.seconds(1), ceiling: .seconds(120)))
        #expect(error.description == "budget \"export\": extending by 1.0 seconds would pass the budget's ceiling at t=120.000s")
        // The scheduler's ceiling caps a request's own.
        #expect(throws: BudgetError(name: "big", problem: .maximumAllowanceBelowAllowance(.seconds(300), allowance: .seconds(400)))) {
            try scheduler.requestBudget(named: "big", allowance: .seconds(400), maximumAllowance: .seconds(900))
        }
    }

    @Test func anExtensionMayNotOutliveTheParentOrAnEndedBudget() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let parent = try request(scheduler, "batch", allowance: .seconds(60))
        let child = try request(scheduler, "item", allowance: .seconds(30), parent: parent)
        #expect(throws: BudgetError(name: "item", problem: .extensionBeyondParent(.seconds(31), parent: parent))) {
            try scheduler.extend(child, by: .seconds(31))
        }
        #expect(throws: BudgetError(name: "item", problem: .extensionNotPositive(.zero))) { try scheduler.extend(child, by: .zero) }
        scheduler.end(child)
        #expect(throws: BudgetError(name: "item", problem: .notLive)) { try scheduler.extend(child, by: .seconds(1)) }
        #expect(scheduler.deadline(of: parent) == .seconds(60))
    }

    @Test func stoppingNowStopsChildrenFirstAndCallsTheStopHandlerWithTheReason() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let parent = try request(scheduler, "batch", allowance: .seconds(60), lead: .seconds(10))
        _ = try request(scheduler, "item", allowance: .seconds(30), parent: parent)
        clock.advance(by: .seconds(5))
        #expect(scheduler.stop(parent, reason: .stopRequested))
        #expect(scheduler.stop(parent) == false)
        clock.advance(by: .seconds(100))
        #expect(log.entries == ["stop item parentStopped at t=5.000s", "stop batch stopRequested at t=5.000s"])
        #expect(scheduler.liveCount == 0)
        #expect(clock.pendingCount == 0)
    }

    @Test func shutdownWarnsEveryBudgetNowAndStopsThemWithinTheGrace() throws {
        // Expected order at the shutdown (t=10): the warnings, then at t=40 the stops of the budgets
        // that would have run longer; the one due earlier expires at its own time.
        let scheduler = BudgetScheduler(clock: clock)
        _ = try request(scheduler, "long", allowance: .seconds(600), lead: .seconds(60))
        _ = try request(scheduler, "short", allowance: .seconds(20), lead: .seconds(5))
        let parent = try request(scheduler, "batch", allowance: .seconds(300))
        _ = try request(scheduler, "item", allowance: .seconds(300), parent: parent)
        clock.advance(by: .seconds(10))
        #expect(scheduler.shutdown(grace: .seconds(30)) == 4)
        #expect(scheduler.isShuttingDown)
        clock.advance(by: .zero)
        #expect(Set(log.entries) == ["warning long at t=10.000s", "warning short at t=10.000s",
                                     "warning batch at t=10.000s", "warning item at t=10.000s"])
        clock.advance(by: .seconds(100))
        #expect(Array(log.entries.dropFirst(4)) == [
            "stop short expired at t=20.000s",
            "stop long shutdown at t=40.000s",
            "stop item parentStopped at t=40.000s", "stop batch shutdown at t=40.000s",
        ])
        #expect(clock.pendingCount == 0)
    }

    @Test func afterShutdownARequestIsWarnedAtOnceAndCannotPassTheShutdown() throws {
        let scheduler = BudgetScheduler(clock: clock)
        scheduler.shutdown(grace: .seconds(30))
        scheduler.shutdown(grace: .seconds(60))            // later: no effect
        clock.advance(by: .seconds(10))
        let late = try request(scheduler, "cleanup", allowance: .seconds(60), lead: .seconds(5))
        #expect(scheduler.deadline(of: late) == .seconds(30))
        #expect(throws: BudgetError(name: "cleanup", problem: .extensionBeyondShutdown(.seconds(1), deadline: .seconds(30)))) {
            try scheduler.extend(late, by: .seconds(1))
        }
        clock.advance(by: .seconds(60))
        #expect(log.entries == ["warning cleanup at t=10.000s", "stop cleanup shutdown at t=30.000s"])
    }

    @Test func errorsAndDescriptionsNameTheBudget() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let job = try request(scheduler, "thumbnail", allowance: .seconds(1))
        #expect(job.description == "\"thumbnail\" (budget#1)")
        #expect(BudgetStoppedError(budget: job, reason: .shutdown).description == "budget \"thumbnail\" (budget#1) stopped: shutdown")
        #expect(Budget(id: 7).description == "budget#7")
        #expect(Budget(id: 1) == job)
    }

    @Test func waitingForLiveBudgetsIsResumedByTheRequest() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let clock = self.clock
        let waiter = Task { try await scheduler.waitForLiveBudgets(2) }
        let jobs = Task {
            for name in ["a", "b"] { _ = try scheduler.requestBudget(named: name, allowance: .seconds(5)) }
        }
        try await jobs.value
        try await waiter.value
        #expect(scheduler.liveCount == 2)
        clock.advance(by: .seconds(5))
        #expect(scheduler.liveCount == 0)
        let cancelled = Task { try await scheduler.waitForLiveBudgets(1) }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }
}

#if canImport(Glibc) || canImport(Darwin)
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A real signal, raised in the test process itself, shuts the scheduler down.
@Suite(.serialized) struct ShutdownSignalsTests {
    @Test func aSignalShutsDownWithTheGraceAndASecondOneWithNone() async throws {
        let clock = VirtualClock()
        let scheduler = BudgetScheduler(clock: clock)
        let job = try scheduler.requestBudget(named: "job", allowance: .seconds(600))
        let (seen, continuation) = AsyncStream<Int32>.makeStream()
        let signals = ShutdownSignals(scheduler: scheduler, grace: .seconds(30), signals: [SIGUSR2]) { continuation.yield($0) }
        defer { signals.cancel() }
        var iterator = seen.makeAsyncIterator()
        kill(getpid(), SIGUSR2)
        #expect(await iterator.next() == SIGUSR2)
        #expect(scheduler.deadline(of: job) == .seconds(30))
        kill(getpid(), SIGUSR2)
        _ = await iterator.next()
        #expect(scheduler.deadline(of: job) == .zero)
        #expect(signals.receivedSignals == [SIGUSR2, SIGUSR2])
    }
}
#endif
