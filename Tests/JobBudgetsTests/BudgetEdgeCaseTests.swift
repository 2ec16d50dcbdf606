import BudgetLock
#if canImport(Dispatch)
import Dispatch
#endif
import Testing
import JobBudgets
import BudgetClock
import TestSupport

/// The promises about warnings and stop reasons hold at the edges: a warning never reaches a budget
/// whose `end` has returned, and budgets stopped by the same instant's stop give the same reason.
@Suite struct BudgetEdgeCaseTests {
    let clock = VirtualClock()

    @Test func aChildStoppedAtItsParentsDeadlineReportsParentStoppedLikeItsSibling() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let log = TestLog<String>()
        let onStop: BudgetStopHandler = { log.append("\($0) \($1)") }
        // The parent's warning at 5 s puts its stop entry behind its children's: they are found first.
        let parent = try scheduler.requestBudget(named: "parent", allowance: .seconds(10), warningLead: .seconds(5), onStop: onStop)
        _ = try scheduler.requestBudget(named: "same", allowance: .seconds(10), parent: parent, onStop: onStop)
        _ = try scheduler.requestBudget(named: "clamped", allowance: .seconds(60), parent: parent, onStop: onStop)
        let early = try scheduler.requestBudget(named: "early", allowance: .seconds(4), parent: parent, onStop: onStop)
        clock.advance(by: .seconds(20))
        #expect(log.entries == [
            "\(early) expired",                                  // its own, earlier deadline
            // Then the parent's children, oldest first, before it.
            "\"same\" (budget#2) parentStopped", "\"clamped\" (budget#3) parentStopped", "\"parent\" (budget#1) expired",
        ])
        #expect(scheduler.liveCount == 0)
        #expect(clock.pendingCount == 0)
    }

    @Test func aGrandchildAtTheSameInstantAsItsGrandparentReportsParentStopped() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let log = TestLog<String>()
        let onStop: BudgetStopHandler = { log.append("\($0) \($1)") }
        let top = try scheduler.requestBudget(named: "top", allowance: .seconds(10), warningLead: .seconds(1), onStop: onStop)
        let middle = try scheduler.requestBudget(named: "middle", allowance: .seconds(10), warningLead: .seconds(1), parent: top, onStop: onStop)
        _ = try scheduler.requestBudget(named: "leaf", allowance: .seconds(10), parent: middle, onStop: onStop)
        clock.advance(by: .seconds(10))
        #expect(log.entries == ["\"leaf\" (budget#3) parentStopped", "\"middle\" (budget#2) parentStopped", "\"top\" (budget#1) expired"])
    }

    @Test func endingABudgetWhoseWarningIsDueButNotYetDeliveredCancelsTheWarning() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let warned = TestLog<String>()
        let second = LockedValue<Budget?>(nil)
        _ = try scheduler.requestBudget(named: "first", allowance: .seconds(10), warningLead: .seconds(5), onWarning: { _ in
            warned.append("first")
            if let budget = second.withLock({ $0 }) { #expect(scheduler.end(budget)) }   // due at the same instant
        })
        second.withLock { $0 = try? scheduler.requestBudget(named: "second", allowance: .seconds(10), warningLead: .seconds(5),
                                                            onWarning: { _ in warned.append("second") }) }
        clock.advance(by: .seconds(5))
        #expect(warned.entries == ["first"])
    }

    @Test func endingItsOwnBudgetFromTheWarningHandlerDoesNotWaitForItself() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let ended = LockedValue(false)
        _ = try scheduler.requestBudget(named: "self", allowance: .seconds(10), warningLead: .seconds(5), onWarning: { budget in
            ended.withLock { $0 = scheduler.end(budget) }
        })
        clock.advance(by: .seconds(5))
        #expect(ended.withLock { $0 })
        #expect(scheduler.liveCount == 0)
    }

    @Test func aWarningDueAtTheHardStopIsDeliveredBeforeTheStop() throws {
        let scheduler = BudgetScheduler(clock: clock)
        let log = TestLog<String>()
        let parent = try scheduler.requestBudget(named: "parent", allowance: .seconds(10),
                                                 onWarning: { log.append("warning \($0)") }, onStop: { log.append("stop \($0) \($1)") })
        _ = try scheduler.requestBudget(named: "child", allowance: .seconds(10), parent: parent,
                                        onWarning: { log.append("warning \($0)") }, onStop: { log.append("stop \($0) \($1)") })
        clock.advance(by: .seconds(10))
        #expect(Set(log.entries.prefix(2)) == ["warning \"parent\" (budget#1)", "warning \"child\" (budget#2)"])
        #expect(log.entries.suffix(2) == ["stop \"child\" (budget#2) parentStopped", "stop \"parent\" (budget#1) expired"])
    }

    #if canImport(Dispatch)
    /// One thread advances the clock through a thousand due warnings while seven end the budgets: no
    /// handler may start, or still be running, once its budget's `end` has returned.
    @Test func noWarningRunsAfterEndReturnedUnderEightThreads() throws {
        let rounds = LongRun.threadedCases(50, quick: 8)
        let perThread = 150
        var late = 0
        var delivered = 0
        for _ in 0..<rounds {
            let clock = VirtualClock()
            let scheduler = BudgetScheduler(clock: clock)
            let endReturned = LockedValue<Set<Budget>>([])
            let violations = LockedValue(0)
            let calls = LockedValue(0)
            var budgets: [Budget] = []
            for index in 0..<(7 * perThread) {
                budgets.append(try scheduler.requestBudget(named: "b\(index)", allowance: .seconds(10), warningLead: .seconds(5), onWarning: { budget in
                    if endReturned.withLock({ $0.contains(budget) }) { violations.withLock { $0 += 1 } }
                    var spin = 0
                    for step in 0..<2_000 { spin &+= step }             // a little work, to widen any window
                    if spin == 1 || endReturned.withLock({ $0.contains(budget) }) { violations.withLock { $0 += 1 } }
                    calls.withLock { $0 += 1 }
                }))
            }
            let all = budgets
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                if thread == 0 {
                    clock.advance(by: .seconds(5))
                    return
                }
                for budget in all[((thread - 1) * perThread)..<(thread * perThread)].reversed() {
                    scheduler.end(budget)
                    endReturned.withLock { _ = $0.insert(budget) }
                }
            }
            late += violations.withLock { $0 }
            delivered += calls.withLock { $0 }
            #expect(scheduler.liveCount == 0)
        }
        #expect(late == 0)
        #expect(delivered <= rounds * 7 * perThread)
    }
    #endif
}
