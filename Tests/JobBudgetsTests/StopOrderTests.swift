import Testing
import JobBudgets
import BudgetClock
import TestSupport

/// Budgets that fall due together stop oldest-first, whatever slots they were given.
@Suite struct StopOrderTests {
    /// The scheduler reuses the slot freed last first, so budgets requested after others ended sit in
    /// slots in reverse request order. A shutdown (the scheduler's, or a scope's) still stops them in
    /// the order they were requested, after the older budget that kept its slot.
    @Test(arguments: [false, true])
    func aShutdownStopsOldestFirstWhateverTheSlotReuse(inScope: Bool) throws {
        let clock = VirtualClock()
        let scheduler = BudgetScheduler(clock: clock)
        let scope = scheduler.makeScope(named: "jobs")
        let log = TestLog<String>()
        func request(_ name: String) throws -> Budget {
            let onStop: BudgetStopHandler = { budget, _ in log.append(budget.name) }
            return inScope ? try scope.requestBudget(named: name, allowance: .seconds(60), onStop: onStop)
                : try scheduler.requestBudget(named: name, allowance: .seconds(60), onStop: onStop)
        }
        let first = try request("first")
        let ended = try (0..<3).map { try request("ended\($0)") }
        for budget in ended { #expect(scheduler.end(budget)) }
        for index in 0..<3 { _ = try request("later\(index)") }   // into the three freed slots, last freed first
        clock.advance(by: .seconds(1))
        #expect(inScope ? scope.shutdown(grace: .seconds(5)) == 4 : scheduler.shutdown(grace: .seconds(5)) == 4)
        clock.advance(by: .seconds(10))
        #expect(log.entries == ["first", "later0", "later1", "later2"])
        #expect(!scheduler.isLive(first))
    }

    /// Budgets whose hard stops fall at one instant stop oldest-first, even when the older one's
    /// deadline was set last (its warning came first, and then its stop was scheduled), and whatever
    /// slots they sit in.
    @Test func oneHardStopInstantStopsOldestFirst() throws {
        let clock = VirtualClock()
        let scheduler = BudgetScheduler(clock: clock)
        let log = TestLog<String>()
        let onStop: BudgetStopHandler = { budget, _ in log.append(budget.name) }
        for budget in try (0..<4).map({ try scheduler.requestBudget(named: "ended\($0)", allowance: .seconds(1)) }) {
            scheduler.end(budget)
        }
        _ = try scheduler.requestBudget(named: "old", allowance: .seconds(30), warningLead: .seconds(5),
                                        onWarning: { _ in }, onStop: onStop)
        _ = try scheduler.requestBudget(named: "middle", allowance: .seconds(30), onStop: onStop)
        let extended = try scheduler.requestBudget(named: "new", allowance: .seconds(20), onStop: onStop)
        try scheduler.extend(extended, by: .seconds(10))
        clock.advance(by: .seconds(30))
        #expect(log.entries == ["old", "middle", "new"])
    }

    /// A parent's children stop before it, oldest first; the budgets whose stop they are part of come
    /// in request order too.
    @Test func childrenStopOldestFirstBeforeTheirParent() throws {
        let clock = VirtualClock()
        let scheduler = BudgetScheduler(clock: clock)
        let log = TestLog<String>()
        let onStop: BudgetStopHandler = { budget, _ in log.append(budget.name) }
        let parent = try scheduler.requestBudget(named: "parent", allowance: .seconds(10), onStop: onStop)
        for index in 0..<3 { _ = try scheduler.requestBudget(named: "child\(index)", allowance: .seconds(60), parent: parent, onStop: onStop) }
        _ = try scheduler.requestBudget(named: "other", allowance: .seconds(10), onStop: onStop)
        clock.advance(by: .seconds(10))
        #expect(log.entries == ["child0", "child1", "child2", "parent", "other"])
    }

    /// A scope's shutdown re-arms exactly its own budgets: those without a parent, those whose parent
    /// is in another scope, and their children in the scope; not the children in other scopes, nor
    /// other scopes' budgets. Budgets ended before (their slots reused) are not counted.
    @Test func aScopesShutdownFindsExactlyItsOwnBudgets() throws {
        let clock = VirtualClock()
        let scheduler = BudgetScheduler(clock: clock)
        let mine = scheduler.makeScope(named: "mine"), other = scheduler.makeScope(named: "other")
        let log = TestLog<String>()
        let onStop: BudgetStopHandler = { budget, reason in log.append("\(budget.name) \(reason)") }
        let root = try mine.requestBudget(named: "root", allowance: .seconds(60), onStop: onStop)
        let ended = try mine.requestBudget(named: "ended", allowance: .seconds(60), onStop: onStop)
        _ = try scheduler.requestBudget(named: "inherits", allowance: .seconds(60), parent: root, onStop: onStop)
        let outside = try other.requestBudget(named: "outside", allowance: .seconds(60), onStop: onStop)
        let foreign = try mine.requestBudget(named: "foreign", allowance: .seconds(60), parent: outside, onStop: onStop)
        _ = try other.requestBudget(named: "elsewhere", allowance: .seconds(60), parent: root, onStop: onStop)
        _ = try scheduler.requestBudget(named: "underForeign", allowance: .seconds(60), parent: foreign, onStop: onStop)
        _ = try scheduler.requestBudget(named: "unscoped", allowance: .seconds(60), onStop: onStop)
        #expect(scheduler.end(ended))
        #expect(mine.liveCount == 4 && other.liveCount == 2)
        #expect(mine.shutdown(grace: .seconds(1)) == 4)
        clock.advance(by: .seconds(1))
        #expect(log.entries == ["inherits parentStopped", "elsewhere parentStopped", "root shutdown",
                                "underForeign parentStopped", "foreign shutdown"])
        #expect(mine.liveCount == 0 && other.liveCount == 1 && scheduler.liveCount == 2)
        #expect(other.shutdown(grace: .zero) == 1)
    }

    /// A budget prints as its request number, whatever slot it reuses, and a handle made from that
    /// number names it.
    @Test func budgetsPrintTheirRequestNumbers() throws {
        let clock = VirtualClock()
        let scheduler = BudgetScheduler(clock: clock)
        for _ in 0..<3 { scheduler.end(try scheduler.requestBudget(named: "early", allowance: .seconds(1))) }
        let fourth = try scheduler.requestBudget(named: "thumbnail", allowance: .seconds(30))
        #expect(fourth.description == "\"thumbnail\" (budget#4)")
        #expect(fourth.id == 4 && Budget(id: 4) == fourth)
        #expect(scheduler.isLive(Budget(id: 4)) && !scheduler.isLive(Budget(id: 3)))
        #expect(scheduler.end(Budget(id: 4)) && !scheduler.isLive(fourth))
    }
}
