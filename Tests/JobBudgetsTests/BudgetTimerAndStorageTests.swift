import Testing
import JobBudgets
import BudgetClock
import TestSupport

/// The cheap paths: the clock timer kept armed when budgets end, and handlers kept in a side table
/// whose entries are reused.
@Suite struct BudgetTimerAndStorageTests {
    let clock = VirtualClock()
    let log = TestLog<String>()

    private func request(_ scheduler: BudgetScheduler, _ name: String, allowance: Duration, lead: Duration = .zero,
                         parent: Budget? = nil, handlers: Bool = true) throws -> Budget {
        let (clock, log) = (self.clock, self.log)
        let onWarning: BudgetWarningHandler = { log.append("warning \($0.name) at \(clock.now)") }
        let onStop: BudgetStopHandler = { log.append("stop \($0.name) \($1) at \(clock.now)") }
        return try scheduler.requestBudget(named: name, allowance: allowance, warningLead: lead, parent: parent,
                                           onWarning: handlers ? onWarning : nil, onStop: handlers ? onStop : nil)
    }

    @Test func aBudgetEndedBeforeItsWarningLeavesNothingArmedOnceTheKeptTimerFires() throws {
        // Expected: the timer armed for the warning at 25 s stays pending after the end at 10 s; at
        // 25 s it fires, calls nothing and arms nothing.
        let scheduler = BudgetScheduler(clock: clock)
        let job = try request(scheduler, "job", allowance: .seconds(30), lead: .seconds(5))
        clock.advance(by: .seconds(10))
        #expect(scheduler.end(job))
        #expect(clock.nextDeadline == .seconds(25))
        clock.advance(by: .seconds(15))
        #expect(clock.pendingCount == 0)
        clock.advance(by: .seconds(100))
        #expect(log.entries.isEmpty)
    }

    @Test func theKeptTimerFiresForNothingThenTheNextDeadlineStillFiresOnTime() throws {
        // Expected: "b" (stop at 30 s) is requested while the timer is still armed for "a"'s 10 s: no
        // new timer; at 10 s nothing runs and the timer moves to 30 s; "b" is warned (zero lead) and stops at exactly 30 s.
        let scheduler = BudgetScheduler(clock: clock)
        _ = scheduler.end(try request(scheduler, "a", allowance: .seconds(10)))
        _ = try request(scheduler, "b", allowance: .seconds(30))
        #expect(clock.pendingCount == 1)
        #expect(clock.nextDeadline == .seconds(10))
        clock.advance(by: .seconds(10))
        #expect(log.entries.isEmpty)
        #expect(clock.nextDeadline == .seconds(30))
        clock.advance(by: .seconds(30))
        #expect(log.entries == ["warning b at t=30.000s", "stop b expired at t=30.000s"])
        #expect(clock.pendingCount == 0)
    }

    @Test func anEarlierRequestStillMovesTheKeptTimerEarlier() throws {
        // Expected: the timer kept for 60 s moves to 5 s for "soon", which stops at exactly 5 s.
        let scheduler = BudgetScheduler(clock: clock)
        _ = scheduler.end(try request(scheduler, "late", allowance: .seconds(60)))
        _ = try request(scheduler, "soon", allowance: .seconds(5))
        #expect(clock.nextDeadline == .seconds(5))
        #expect(clock.pendingCount == 1, "the timer for 60 s was replaced, not added to")
        clock.advance(by: .seconds(100))
        #expect(log.entries == ["warning soon at t=5.000s", "stop soon expired at t=5.000s"])
        #expect(clock.pendingCount == 0)
    }

    @Test func aWarningNobodyHearsArmsNoTimerAndTheBudgetStillStopsOnTime() throws {
        // Expected: no warning handler, so the clock is armed for the hard stop at 30 s, not the
        // warning at 25 s; the stop handler runs at exactly 30 s; a nested child with a handler is warned.
        let scheduler = BudgetScheduler(clock: clock)
        let log = self.log
        let parent = try scheduler.requestBudget(named: "quiet", allowance: .seconds(30), warningLead: .seconds(5),
                                                 onStop: { _, reason in log.append("stop quiet \(reason)") })
        #expect(clock.nextDeadline == .seconds(30))
        _ = try request(scheduler, "child", allowance: .seconds(60), lead: .seconds(10), parent: parent)
        #expect(clock.nextDeadline == .seconds(20))
        clock.advance(by: .seconds(30))
        #expect(log.entries == ["warning child at t=20.000s", "stop child parentStopped at t=30.000s", "stop quiet expired"])
    }

    @Test func endingReleasesTheHandlersOfTheBudgetAndOfTheChildrenItStops() throws {
        // Expected: every handler's captures are released once `end` has returned, the parent's
        // (kept inline) and its two children's (kept in the overflow array) alike, warning handlers
        // (kept in a table beside the records) as well as stop handlers.
        let scheduler = BudgetScheduler(clock: clock)
        final class Capture: Sendable {}
        var weakCaptures: [() -> Capture?] = []
        func budget(_ name: String, parent: Budget?) throws -> Budget {
            let stopCapture = Capture(), warningCapture = Capture()
            weakCaptures.append { [weak stopCapture] in stopCapture }
            weakCaptures.append { [weak warningCapture] in warningCapture }
            return try scheduler.requestBudget(named: name, allowance: .seconds(30), warningLead: .seconds(5), parent: parent,
                                               onWarning: { _ in withExtendedLifetime(warningCapture) {} },
                                               onStop: { _, _ in withExtendedLifetime(stopCapture) {} })
        }
        let parent = try budget("parent", parent: nil)
        _ = try budget("one", parent: parent)
        _ = try budget("two", parent: parent)
        #expect(weakCaptures.allSatisfy { $0() != nil })
        #expect(scheduler.end(parent))
        #expect(weakCaptures.allSatisfy { $0() == nil })
    }

    @Test func handlersAreDroppedAfterTheLockSoACapturesDeinitMayCallTheScheduler() throws {
        // Expected: `end` lets go of the ended budget's handlers and those of the child it stops only
        // after the scheduler's lock, so a capture whose deinit asks the scheduler how many budgets
        // are live gets an answer: 1, the other budget. Dropped under the lock, the deinit would take
        // the lock again: a crash on the error-checking lock of debug builds, a hang otherwise. (The
        // child's stop handler is also held by the list of stops `end` runs, so its line checks only
        // the count; the other three are the ones a regression would break.)
        let scheduler = BudgetScheduler(clock: clock)
        let log = self.log
        final class AsksOnDeinit: Sendable {
            let scheduler: BudgetScheduler, log: TestLog<String>, name: String
            init(_ scheduler: BudgetScheduler, _ log: TestLog<String>, _ name: String) {
                (self.scheduler, self.log, self.name) = (scheduler, log, name)
            }
            deinit { log.append("\(name) released, \(scheduler.liveCount) live") }
        }
        func budget(_ name: String, parent: Budget?) throws -> Budget {
            try scheduler.requestBudget(
                named: name, allowance: .seconds(30), warningLead: .seconds(5), parent: parent,
                onWarning: { [capture = AsksOnDeinit(scheduler, log, "\(name)'s warning handler")] _ in withExtendedLifetime(capture) {} },
                onStop: { [capture = AsksOnDeinit(scheduler, log, "\(name)'s stop handler")] _, _ in withExtendedLifetime(capture) {} })
        }
        _ = try request(scheduler, "other", allowance: .seconds(60), handlers: false)
        let job = try budget("job", parent: nil)
        _ = try budget("child", parent: job)
        #expect(log.entries.isEmpty)
        #expect(scheduler.end(job))
        #expect(log.entries.sorted() == ["child's stop handler released, 1 live", "child's warning handler released, 1 live",
                                         "job's stop handler released, 1 live", "job's warning handler released, 1 live"])
    }

    @Test func aReusedSideTableEntryNeverCarriesAnEndedBudgetsHandlersOrCeiling() throws {
        // Expected: "plain" (no handlers, no ceiling) reuses the slot and side-table entry of
        // "handled" (handlers, ceiling 40 s): it stops silently at 30 s and may be extended past 40 s.
        let scheduler = BudgetScheduler(clock: clock)
        let log = self.log
        let handled = try scheduler.requestBudget(named: "handled", allowance: .seconds(10), maximumAllowance: .seconds(40),
                                                  onWarning: { _ in log.append("warning") }, onStop: { _, _ in log.append("stop") })
        #expect(throws: BudgetError.self) { try scheduler.extend(handled, by: .seconds(31)) }
        #expect(scheduler.end(handled))
        let plain = try request(scheduler, "plain", allowance: .seconds(10), handlers: false)
        #expect(try scheduler.extend(plain, by: .seconds(50)) == .seconds(60))
        let handledAgain = try request(scheduler, "again", allowance: .seconds(20))
        clock.advance(by: .seconds(100))
        #expect(log.entries == ["warning again at t=20.000s", "stop again expired at t=20.000s"])
        #expect(!scheduler.isLive(plain) && !scheduler.isLive(handledAgain))
    }
}
