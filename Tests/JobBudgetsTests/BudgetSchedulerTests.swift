import BudgetLock
#if canImport(Dispatch)
import Dispatch
#endif
import Testing
import JobBudgets
import BudgetClock
import TestSupport

@Suite struct BudgetSchedulerTests {
    let clock = VirtualClock()
    var scheduler: BudgetScheduler { BudgetScheduler(clock: clock) }

    @Test func aBudgetWarnsThenStopsAtAllowancePlusGrace() throws {
        let scheduler = self.scheduler
        let log = TestLog<String>()
        let clock = self.clock
        let budget = try scheduler.requestBudget(
            named: "job", allowance: .seconds(30), warningLead: .seconds(5), grace: .seconds(2),
            onWarning: { log.append("warning \($0) at \(clock.now)") },
            onStop: { log.append("stop \($0) \($1) at \(clock.now)") })
        clock.advance(by: .seconds(100))
        #expect(log.entries == ["warning \"job\" (budget#1) at t=25.000s", "stop \"job\" (budget#1) expired at t=32.000s"])
        #expect(!scheduler.isLive(budget))
        #expect(scheduler.end(budget) == false)
        #expect(clock.pendingCount == 0)
    }

    @Test func endingInTimeCallsNothing() throws {
        let scheduler = self.scheduler
        let log = TestLog<String>()
        let budget = try scheduler.requestBudget(named: "job", allowance: .seconds(30), warningLead: .seconds(5),
                                                 onWarning: { _ in log.append("warning") }, onStop: { _, _ in log.append("stop") })
        clock.advance(by: .seconds(10))
        #expect(scheduler.timeRemaining(budget) == .seconds(20))
        #expect(scheduler.end(budget))
        clock.advance(by: .seconds(100))
        #expect(log.entries.isEmpty)
        #expect(scheduler.timeRemaining(budget) == nil)
        #expect(clock.pendingCount == 0)
    }

    @Test func aChildNeverOutlivesItsParentAndStopsFirst() throws {
        let scheduler = self.scheduler
        let log = TestLog<String>()
        let clock = self.clock
        let onStop: BudgetStopHandler = { log.append("\($0) \($1) at \(clock.now)") }
        let parent = try scheduler.requestBudget(named: "parent", allowance: .seconds(10), onStop: onStop)
        let child = try scheduler.requestBudget(named: "child", allowance: .seconds(60), parent: parent, onStop: onStop)
        _ = try scheduler.requestBudget(named: "grandchild", allowance: .seconds(60), parent: child, onStop: onStop)
        #expect(scheduler.timeRemaining(child) == .seconds(10))
        clock.advance(by: .seconds(10))
        #expect(log.entries == [
            "\"grandchild\" (budget#3) parentStopped at t=10.000s", "\"child\" (budget#2) parentStopped at t=10.000s", "\"parent\" (budget#1) expired at t=10.000s",
        ])
        #expect(scheduler.liveCount == 0)
    }

    @Test func endingAParentStopsItsLiveChildren() throws {
        let scheduler = self.scheduler
        let log = TestLog<String>()
        let parent = try scheduler.requestBudget(named: "parent", allowance: .seconds(10))
        let first = try scheduler.requestBudget(named: "a", allowance: .seconds(5), parent: parent, onStop: { log.append("\($0) \($1)") })
        _ = try scheduler.requestBudget(named: "b", allowance: .seconds(5), parent: parent, onStop: { log.append("\($0) \($1)") })
        scheduler.end(first)
        scheduler.end(parent)
        #expect(log.entries == ["\"b\" (budget#3) parentEnded"])
        #expect(scheduler.liveCount == 0)
    }

    @Test func badRequestsAreRefusedWithTheParameter() throws {
        let scheduler = self.scheduler
        #expect(throws: BudgetError(name: "x", problem: .allowanceNegative(.seconds(-1)))) {
            try scheduler.requestBudget(named: "x", allowance: .seconds(-1))
        }
        #expect(throws: BudgetError(name: "x", problem: .warningLeadNegative(.seconds(-1)))) {
            try scheduler.requestBudget(named: "x", allowance: .seconds(30), warningLead: .seconds(-1))
        }
        #expect(throws: BudgetError(name: "x", problem: .graceNegative(.seconds(-1)))) {
            try scheduler.requestBudget(named: "x", allowance: .seconds(30), grace: .seconds(-1))
        }
        #expect(throws: BudgetError(name: "x", problem: .parentNotLive(Budget(id: 42)))) {
            try scheduler.requestBudget(named: "x", allowance: .seconds(30), parent: Budget(id: 42))
        }
        #expect(scheduler.liveCount == 0)
        #expect(clock.pendingCount == 0)
        #expect(BudgetError(name: "x", problem: .graceNegative(.seconds(-1))).description
            == "budget \"x\": grace must not be negative (got -1.0 seconds)")
    }

    @Test func thousandsOfBudgetsShareOneClockTimer() throws {
        let scheduler = self.scheduler
        let stops = TestLog<Budget>()
        for index in 0..<5_000 {
            _ = try scheduler.requestBudget(named: "job", allowance: .milliseconds(Int64(1_000 + index % 97)),
                                        onStop: { budget, _ in stops.append(budget) })
        }
        #expect(clock.pendingCount == 1)
        clock.advance(by: .seconds(2))
        #expect(stops.entries.count == 5_000)
        #expect(Set(stops.entries).count == 5_000)
        #expect(clock.pendingCount == 0)
    }

    #if canImport(Dispatch)
    @Test func budgetsFromEightThreadsAtOnce() throws {
        let scheduler = self.scheduler
        let failures = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var mine: [Budget] = []
            for round in 0..<1_000 {
                guard let budget = try? scheduler.requestBudget(named: "t\(thread)", allowance: .seconds(Int64(1 + round % 50)))
                else { failures.withLock { $0 += 1 }; continue }
                mine.append(budget)
                if round % 3 == 0, !scheduler.end(mine.removeFirst()) { failures.withLock { $0 += 1 } }
            }
            for budget in mine where !scheduler.end(budget) { failures.withLock { $0 += 1 } }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(scheduler.liveCount == 0)
        #expect(clock.pendingCount == 1, "the one clock timer stays armed for the earliest deadline it saw")
        clock.advance(by: .seconds(60))
        #expect(clock.pendingCount == 0, "it fired, found nothing due and armed nothing")
    }
    #endif
}
