#if canImport(Dispatch)
import BudgetLock
import Dispatch
import Foundation
import Testing
import JobBudgets
import BudgetClock
import TestSupport

/// A storm on both clocks: threads advancing the clock, shutting scopes down, stopping and ending
/// budgets at once. No stop handler may run while its own warning handler runs, and no warning
/// handler may start once its budget's stop handler has begun. A long suite (it also runs under
/// ThreadSanitizer in CI).
@Suite(LongRun.only) struct HandlerOrderStormTests {
    /// What the handlers saw, per budget number.
    final class Watch: Sendable {
        let warningRunning = LockedValue<Set<UInt64>>([])
        let stopBegun = LockedValue<Set<UInt64>>([])
        let violations = LockedValue<[String]>([])
        let group = DispatchGroup()

        func warning(_ budget: Budget) {
            if stopBegun.withLock({ $0.contains(budget.id) }) { violations.withLock { $0.append("warning after stop \(budget)") } }
            warningRunning.withLock { _ = $0.insert(budget.id) }
            for _ in 0..<3 { sched_yield() }                     // a little time, to widen any window
            warningRunning.withLock { _ = $0.remove(budget.id) }
        }

        func stop(_ budget: Budget) {
            stopBegun.withLock { _ = $0.insert(budget.id) }
            if warningRunning.withLock({ $0.contains(budget.id) }) { violations.withLock { $0.append("stop during warning \(budget)") } }
            group.leave()
        }
    }

    /// Runs one storm: `budgetsPerScope` budgets in each of 4 scopes (every other one a child of the one
    /// before; allowances from `base` to `base` + 6 ms, so a real clock's come due during the storm), then 4 threads doing `drive` (advancing a virtual clock, or nothing) while 4 others
    /// shut down scopes, stop and end budgets.
    func storm(clock: any BudgetClock, budgetsPerScope: Int, base: Duration = .zero, drive: @escaping @Sendable (Int) -> Void) throws -> [String] {
        let scheduler = BudgetScheduler(clock: clock)
        let watch = Watch()
        let scopes = (0..<4).map { scheduler.makeScope(named: "s\($0)") }
        var budgets: [Budget] = []
        for scope in scopes {
            var parent: Budget?
            for index in 0..<budgetsPerScope {
                watch.group.enter()
                let request = { (parent: Budget?) throws(BudgetError) -> Budget in
                    try scope.requestBudget(
                        named: "b\(index)", allowance: base + .milliseconds(Int64(index % 7)),
                        warningLead: .milliseconds(Int64(index % 3)), grace: .milliseconds(Int64(index % 2)), parent: parent,
                        onWarning: { watch.warning($0) }, onStop: { budget, _ in watch.stop(budget) })
                }
                // On a real clock the parent may already have expired: then the budget has none.
                let budget = try (try? request(index % 2 == 1 ? parent : nil)) ?? request(nil)
                budgets.append(budget)
                parent = budget
            }
        }
        let all = budgets
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            if thread < 4 { return drive(thread) }
            let mine = all.enumerated().filter { $0.offset % 4 == thread - 4 }.map(\.element)
            for (index, budget) in mine.enumerated() {
                switch index % 5 {
                case 0: if scheduler.end(budget) { watch.group.leave() }
                case 1: scheduler.stop(budget)
                case 2 where index % 50 == 2: scopes[thread - 4].shutdown(grace: .zero)
                default: break
                }
            }
        }
        drive(-1)                                              // whatever is left
        let finished = watch.group.wait(timeout: .now() + .seconds(30))
        try #require(finished == .success, "every budget ended or stopped")
        #expect(scheduler.liveCount == 0)
        return watch.violations.withLock { $0 }
    }

    @Test func noStopDuringItsWarningOnTheVirtualClock() throws {
        for _ in 0..<20 {
            let clock = VirtualClock()
            let violations = try storm(clock: clock, budgetsPerScope: 400) { thread in
                if thread < 0 { clock.runUntilIdle(); return }
                for _ in 0..<10 { clock.advance(by: .microseconds(500)) }
            }
            #expect(violations.isEmpty, "\(violations.prefix(5))")
        }
    }

    @Test func noStopDuringItsWarningOnTheDispatchClock() throws {
        for _ in 0..<10 {
            let clock = DispatchClock(label: "storm")
            defer { clock.shutdown() }
            let violations = try storm(clock: clock, budgetsPerScope: 400, base: .milliseconds(5)) { _ in }
            #expect(violations.isEmpty, "\(violations.prefix(5))")
        }
    }
}
#endif
