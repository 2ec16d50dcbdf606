import BudgetLock
import BudgetTime
import Testing
import JobBudgets
import BudgetClock
import TestSupport

/// Unlimited, zero and short-lead allowances, shutdown that runs no handler itself, and a late clock's
/// stop of a nested budget, on the virtual clock with exact instants.
@Suite struct BudgetAllowanceTests {
    let clock = VirtualClock()
    let log = TestLog<String>()

    func request(_ scheduler: BudgetScheduler, _ name: String, allowance: Duration, lead: Duration = .zero,
                 grace: Duration = .zero, parent: Budget? = nil) throws -> Budget {
        let (clock, log) = (self.clock, self.log)
        return try scheduler.requestBudget(
            named: name, allowance: allowance, warningLead: lead, grace: grace, parent: parent,
            onWarning: { log.append("warning \($0.name) at \(clock.now)") },
            onStop: { log.append("stop \($0.name) \($1) at \(clock.now)") })
    }

    @Test func anUnlimitedBudgetNeverRunsOutAndArmsNothing() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let job = try request(scheduler, "consumer", allowance: .unlimited, lead: .seconds(5), grace: .seconds(2))
        #expect(clock.pendingCount == 0, "no deadline to arm a timer for")
        #expect(clock.runUntilIdle() == 0)
        clock.advance(by: .seconds(86_400 * 365 * 100))          // a hundred years
        #expect(scheduler.isLive(job) && log.entries.isEmpty)
        #expect(try scheduler.extend(job, by: .seconds(1)) == BudgetInstant(nanoseconds: .max))
        #expect(scheduler.stop(job))
        #expect(log.entries == ["stop consumer stopRequested at \(clock.now)"])
    }

    @Test func anUnlimitedBudgetIsWarnedAndStoppedByAShutdown() throws {
        let scheduler = BudgetScheduler(clock: clock)
        _ = try request(scheduler, "consumer", allowance: .unlimited, lead: .seconds(5))
        clock.advance(by: .seconds(10))
        #expect(scheduler.shutdown(grace: .seconds(3)) == 1)
        clock.advance(by: .seconds(100))
        #expect(log.entries == ["warning consumer at t=10.000s", "stop consumer shutdown at t=13.000s"])
    }

    @Test func anUnlimitedChildStopsWithItsParent() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let parent = try request(scheduler, "batch", allowance: .seconds(10))
        _ = try request(scheduler, "item", allowance: .unlimited, lead: .seconds(4), parent: parent)
        clock.advance(by: .seconds(100))
        #expect(log.entries == ["warning item at t=6.000s", "warning batch at t=10.000s",
                                "stop item parentStopped at t=10.000s", "stop batch expired at t=10.000s"])
    }

    @Test func aZeroAllowanceExpiresAtTheInstantOfTheRequest() throws {
        let scheduler = BudgetScheduler(clock: clock)
        clock.advance(by: .seconds(7))
        let job = try request(scheduler, "nothing", allowance: .zero)
        #expect(log.entries.isEmpty, "the clock runs it, not the request")
        #expect(clock.nextDeadline == .seconds(7))
        clock.advance(by: .zero)
        #expect(log.entries == ["warning nothing at t=7.000s", "stop nothing expired at t=7.000s"])
        #expect(!scheduler.isLive(job))
    }

    @Test func aZeroAllowanceWithGraceWarnsAtOnceAndStopsAfterTheGrace() throws {
        let scheduler = BudgetScheduler(clock: clock)
        _ = try request(scheduler, "cleanup", allowance: .zero, grace: .seconds(3))
        clock.advance(by: .seconds(100))
        #expect(log.entries == ["warning cleanup at t=0.000s", "stop cleanup expired at t=3.000s"])
    }

    @Test func aLeadLongerThanTheAllowanceWarnsAtOnce() throws {
        let scheduler = BudgetScheduler(clock: clock)
        clock.advance(by: .seconds(2))
        _ = try request(scheduler, "short", allowance: .seconds(5), lead: .seconds(60))
        let parent = try request(scheduler, "parent", allowance: .seconds(8))
        _ = try request(scheduler, "child", allowance: .seconds(30), lead: .seconds(20), parent: parent)
        clock.advance(by: .seconds(100))
        #expect(Set(log.entries.prefix(2)) == ["warning short at t=2.000s", "warning child at t=2.000s"])  // both at once
        #expect(Array(log.entries.dropFirst(2)) == [
            "stop short expired at t=7.000s",
            "warning parent at t=10.000s", "stop child parentStopped at t=10.000s", "stop parent expired at t=10.000s",
        ])
    }

    @Test func shutdownRunsNoHandlerItselfAndTheClockDeliversTheWarningsFirst() throws {
        let scheduler = BudgetScheduler(clock: clock)
        for index in 0..<3 { _ = try request(scheduler, "j\(index)", allowance: .seconds(60)) }
        clock.advance(by: .seconds(1))
        #expect(scheduler.shutdown(grace: .zero) == 3)
        #expect(log.entries.isEmpty, "shutdown returns at once, whatever the handlers do")
        clock.advance(by: .zero)
        #expect(log.entries.prefix(3).allSatisfy { $0.hasPrefix("warning") && $0.hasSuffix("t=1.000s") })
        #expect(log.entries.dropFirst(3).allSatisfy { $0.hasPrefix("stop") && $0.hasSuffix("shutdown at t=1.000s") })
        #expect(log.entries.count == 6)
    }

    @Test func tenThousandBudgetsStopAtTheShutdownsInstantWithNoHandlerInTheCall() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let warned = LockedValue(0), stopped = LockedValue<[BudgetInstant]>([])
        let clock = self.clock
        for index in 0..<10_000 {
            _ = try scheduler.requestBudget(named: "j\(index)", allowance: .seconds(600), warningLead: .seconds(5),
                                            onWarning: { _ in warned.withLock { $0 += 1 } },
                                            onStop: { _, reason in if reason == .shutdown { stopped.withLock { $0.append(clock.now) } } })
        }
        clock.advance(by: .seconds(1))
        #expect(scheduler.shutdown(grace: .milliseconds(200)) == 10_000)
        #expect(warned.withLock { $0 } == 0)
        clock.advance(by: .zero)
        #expect(warned.withLock { $0 } == 10_000)
        clock.advance(by: .milliseconds(199))
        #expect(stopped.withLock { $0 }.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(stopped.withLock { $0 } == Array(repeating: .milliseconds(1_200), count: 10_000))
        #expect(scheduler.liveCount == 0)
    }

    /// A clock late to run a parent's hard stop: work ending the child at that instant, before the
    /// scheduler's timer runs, finds the stop due and is told the child stopped.
    @Test func endingAChildWhoseParentsHardStopIsDueStopsItInstead() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let result = LockedValue<Bool?>(nil)
        let child = LockedValue<Budget?>(nil)
        clock.schedule(at: .seconds(10)) {                       // runs before the scheduler's timer at 10 s
            result.withLock { $0 = scheduler.end(child.withLock { $0 }!) }
        }
        let parent = try request(scheduler, "parent", allowance: .seconds(10))
        child.withLock { $0 = try? request(scheduler, "child", allowance: .seconds(60), parent: parent) }
        clock.advance(by: .seconds(10))
        #expect(result.withLock { $0 } == false, "never ended in time after the parent's hard stop")
        #expect(log.entries == ["stop child parentStopped at t=10.000s", "warning parent at t=10.000s",
                                "stop parent expired at t=10.000s"])
    }

    @Test func endingABudgetWhoseOwnHardStopIsDueReportsExpiredOrShutdown() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let results = LockedValue<[Bool]>([])
        let budgets = LockedValue<[Budget]>([])
        clock.schedule(at: .seconds(5)) {
            for budget in budgets.withLock({ $0 }) { results.withLock { $0.append(scheduler.end(budget)) } }
        }
        budgets.withLock { $0.append(try! request(scheduler, "own", allowance: .seconds(5))) }
        budgets.withLock { $0.append(try! request(scheduler, "down", allowance: .seconds(60))) }
        scheduler.shutdown(grace: .seconds(5))
        clock.advance(by: .seconds(5))
        #expect(results.withLock { $0 } == [false, false])
        #expect(log.entries == ["warning own at t=0.000s", "warning down at t=0.000s",
                                "stop own expired at t=5.000s", "stop down shutdown at t=5.000s"])
    }
}
