import BudgetLock
import Testing
import JobBudgets
import BudgetClock
import TestSupport

/// A hard stop that falls due while its budget's warning handler runs (a slow checkpoint, a shutdown
/// with a short grace) is delivered after the handler returns, never inside it; `end` called from
/// the handler then returns `false` (the budget stopped). On a virtual clock, deterministically: the
/// handler advances the clock itself (a checkpoint that takes time), or shuts down.
@Suite struct StopInsideWarningTests {
    /// A budget whose warning handler runs `body` between two log entries, and whose stop handler logs
    /// its reason and whether the warning handler was running.
    final class Job: Sendable {
        let log = TestLog<String>()
        let budget = LockedValue<Budget?>(nil)
        let inWarning = LockedValue(false)

        func request(on scheduler: BudgetScheduler, in scope: BudgetScope? = nil, allowance: Duration = .seconds(30),
                     lead: Duration = .seconds(5), grace: Duration = .seconds(2),
                     body: @escaping @Sendable (Budget) -> String) throws {
            let onWarning: BudgetWarningHandler = { [self] budget in
                inWarning.withLock { $0 = true }
                log.append("warning")
                let said = body(budget)
                log.append("warning returns: \(said)")
                inWarning.withLock { $0 = false }
            }
            let onStop: BudgetStopHandler = { [self] _, reason in
                log.append("stop \(reason)" + (inWarning.withLock { $0 } ? " inside the warning" : ""))
            }
            let granted = if let scope {
                try scope.requestBudget(named: "job", allowance: allowance, warningLead: lead, grace: grace,
                                        onWarning: onWarning, onStop: onStop)
            } else {
                try scheduler.requestBudget(named: "job", allowance: allowance, warningLead: lead, grace: grace,
                                            onWarning: onWarning, onStop: onStop)
            }
            budget.withLock { $0 = granted }
        }
    }

    /// The checkpoint takes 10 s (the handler advances the clock past the hard stop at 32 s), then the
    /// job ends its budget: too late. The clock's nested run finds the stop due; it comes after the
    /// handler, and `end` says the budget did not end in time.
    @Test func aStopDueDuringASlowCheckpointComesAfterTheWarning() throws {
        let clock = VirtualClock()
        let scheduler = BudgetScheduler(clock: clock)
        let job = Job()
        try job.request(on: scheduler) { budget in
            clock.advance(by: .seconds(10))                        // the checkpoint: t=25 s to 35 s
            return "end \(scheduler.end(budget)) at \(clock.now)"
        }
        clock.advance(by: .seconds(25))
        #expect(job.log.entries == ["warning", "warning returns: end false at t=35.000s", "stop expired"])
        #expect(scheduler.liveCount == 0)
    }

    /// The warning handler shuts the scheduler (or the budget's scope) down with no grace, then ends
    /// its budget: the stop is due at once, and `end` inside the handler finds it due. It stops the
    /// budget, but its stop handler runs after the warning handler has returned.
    @Test(arguments: [false, true])
    func aShutdownInsideTheWarningStopsAfterIt(inScope: Bool) throws {
        let clock = VirtualClock()
        let scheduler = BudgetScheduler(clock: clock)
        let scope = scheduler.makeScope(named: "jobs")
        let job = Job()
        try job.request(on: scheduler, in: inScope ? scope : nil) { budget in
            _ = inScope ? scope.shutdown(grace: .zero) : scheduler.shutdown(grace: .zero)
            return "end \(scheduler.end(budget))"
        }
        clock.advance(by: .seconds(25))
        #expect(job.log.entries == ["warning", "warning returns: end false", "stop shutdown"])
        #expect(scheduler.liveCount == 0)
        clock.advance(by: .seconds(60))
        #expect(job.log.entries.count == 3)
    }

    /// The warning handler stops its own budget: the stop handler still runs after it, and `stop`
    /// reports the budget was live.
    @Test func stoppingItsOwnBudgetInsideTheWarningStopsAfterIt() throws {
        let clock = VirtualClock()
        let scheduler = BudgetScheduler(clock: clock)
        let job = Job()
        try job.request(on: scheduler) { budget in "stop \(scheduler.stop(budget, reason: .stopRequested))" }
        clock.advance(by: .seconds(25))
        #expect(job.log.entries == ["warning", "warning returns: stop true", "stop stopRequested"])
    }

    /// A slow checkpoint that does not end its budget: the stop that fell due inside it comes right
    /// after it, on the same thread, before the clock's advance returns; and a waiter for no live
    /// budgets wakes only after that stop handler.
    @Test func aStopDueDuringASlowCheckpointThatDoesNotEndComesAfterIt() async throws {
        let clock = VirtualClock()
        let scheduler = BudgetScheduler(clock: clock)
        let job = Job()
        try job.request(on: scheduler) { _ in
            clock.advance(by: .seconds(10))
            return "checkpointed at \(clock.now)"
        }
        clock.advance(by: .seconds(25))
        #expect(job.log.entries == ["warning", "warning returns: checkpointed at t=35.000s", "stop expired"])
        try await scheduler.waitForLiveBudgets(exactly: 0)
    }

    /// A parent's stop that falls due inside a child's warning handler stops the child too: the
    /// parent's stop handler runs at once (it is not the child's), the child's after its warning.
    @Test func aParentStopDueInsideAChildsWarningStopsTheChildAfterIt() throws {
        let clock = VirtualClock()
        let scheduler = BudgetScheduler(clock: clock)
        let log = TestLog<String>()
        let parent = try scheduler.requestBudget(named: "parent", allowance: .seconds(40),
                                                 onStop: { budget, reason in log.append("stop \(budget.name) \(reason)") })
        // Clamped to the parent's hard stop at 40 s: warned at 35 s.
        _ = try scheduler.requestBudget(
            named: "child", allowance: .seconds(50), warningLead: .seconds(5), parent: parent,
            onWarning: { _ in
                log.append("warning child")
                clock.advance(by: .seconds(20))                    // past the hard stop at 40 s
                log.append("warning child returns")
            },
            onStop: { budget, reason in log.append("stop \(budget.name) \(reason)") })
        clock.advance(by: .seconds(35))
        #expect(log.entries == ["warning child", "stop parent expired", "warning child returns", "stop child parentStopped"])
    }
}
