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
}
