import Testing
@testable import JobBudgets
import BudgetClock
import TestSupport

/// Scopes: many per scheduler, each with its own shutdown; a new scope starts again after one shut
/// down. On the virtual clock with exact instants.
@Suite struct BudgetScopeTests {
    let clock = VirtualClock()
    let log = TestLog<String>()

    func request(_ scope: BudgetScope, _ name: String, allowance: Duration, parent: Budget? = nil) throws -> Budget {
        let (clock, log) = (self.clock, self.log)
        return try scope.requestBudget(named: name, allowance: allowance, parent: parent,
                                       onWarning: { log.append("warning \($0.name) at \(clock.now)") },
                                       onStop: { log.append("stop \($0.name) \($1) at \(clock.now)") })
    }

    @Test func shuttingDownOneScopeLeavesTheOtherRunning() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let emails = scheduler.makeScope(named: "emails"), images = scheduler.makeScope(named: "images")
        _ = try request(emails, "send", allowance: .seconds(60))
        let resize = try request(images, "resize", allowance: .seconds(60))
        clock.advance(by: .seconds(10))
        #expect(emails.shutdown(grace: .seconds(5)) == 1)
        #expect(emails.isShuttingDown && !images.isShuttingDown && !scheduler.isShuttingDown)
        let late = try request(emails, "late", allowance: .seconds(60))
        #expect(scheduler.deadline(of: late) == .seconds(15))
        #expect(throws: BudgetError(name: "late", problem: .extensionBeyondShutdown(.seconds(1), deadline: .seconds(15)))) {
            try scheduler.extend(late, by: .seconds(1))
        }
        clock.advance(by: .seconds(20))
        #expect(Set(log.entries.prefix(2)) == ["warning send at t=10.000s", "warning late at t=10.000s"])
        #expect(Set(log.entries.dropFirst(2)) == ["stop send shutdown at t=15.000s", "stop late shutdown at t=15.000s"])
        #expect(scheduler.isLive(resize) && images.liveCount == 1 && emails.liveCount == 0)
        #expect(scheduler.liveCount == 1)
    }

    @Test func aNewScopeStartsAgainOnTheSameScheduler() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let first = scheduler.makeScope(named: "run 1")
        first.shutdown(grace: .zero)
        let second = scheduler.makeScope(named: "run 2")
        _ = try request(second, "job", allowance: .seconds(30))
        clock.advance(by: .seconds(100))
        #expect(log.entries == ["warning job at t=30.000s", "stop job expired at t=30.000s"])
    }

    @Test func theSchedulersShutdownReachesEveryScopeAndChildrenInheritTheirParentsScope() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let scope = scheduler.makeScope()
        let parent = try request(scope, "batch", allowance: .seconds(600))
        let child = try scheduler.requestBudget(named: "item", allowance: .seconds(600), parent: parent)
        #expect(scope.liveCount == 2)
        scope.shutdown(grace: .seconds(1))
        #expect(scheduler.deadline(of: child) == .seconds(1))
        let other = scheduler.makeScope()
        let plain = try request(other, "plain", allowance: .seconds(600))
        scheduler.shutdown(grace: .seconds(2))
        #expect(other.isShuttingDown)
        #expect(scheduler.deadline(of: plain) == .seconds(2))
    }

    @Test func aReleasedScopeRefusesRequestsAndItsBudgetsCarryOn() throws {
        let scheduler = BudgetScheduler(clock: clock)
        var scope: BudgetScope? = scheduler.makeScope(named: "gone")
        let job = try request(scope!, "job", allowance: .seconds(30))
        let id = scope!.id
        scope = nil
        #expect(scheduler.state.withLock { $0.scopes[id] == nil })
        #expect(scheduler.isLive(job))
        #expect(scheduler.end(job))
        let stale = BudgetScope(scheduler: scheduler, name: "stale", id: id)
        #expect(throws: BudgetError(name: "x", problem: .scopeEnded)) { try stale.requestBudget(named: "x", allowance: .seconds(1)) }
    }

    @Test func waitsOfAScopeAreResumedByItsOwnChanges() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let scope = scheduler.makeScope(), other = scheduler.makeScope()
        let shutdownSeen = Task { try await scope.waitForShutdown() }
        _ = try request(other, "other", allowance: .seconds(60))
        let jobs = try (0..<3).map { try request(scope, "j\($0)", allowance: .seconds(60)) }
        try await scope.waitForLiveBudgets(exactly: 3)
        let empty = Task { try await scope.waitForNoLiveBudgets() }
        scope.shutdown(grace: .seconds(1))
        try await shutdownSeen.value
        scheduler.end(jobs[0])
        clock.advance(by: .seconds(1))
        try await empty.value
        #expect(scope.liveCount == 0 && other.liveCount == 1)
    }

    @Test func withBackgroundTaskInAScopeIsStoppedByTheScopesShutdown() async throws {
        let scheduler = BudgetScheduler(clock: clock)
        let scope = scheduler.makeScope(named: "processor")
        let clock = self.clock
        let call = Task {
            try await withBackgroundTask(named: "job", allowance: .seconds(600), scope: scope) { task in
                try await scheduler.sleep(for: .seconds(3_600))
            }
        }
        try await scheduler.waitForRunningJobs(1)
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        scope.shutdown(grace: .seconds(2))
        clock.advance(by: .seconds(2))
        let outcome = try await call.value
        #expect(outcome.stopReason == .shutdown && outcome.wasWarned)
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(scheduler.runningJobCount == 0)
    }
}
