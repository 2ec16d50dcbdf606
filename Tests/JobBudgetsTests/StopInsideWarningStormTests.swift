#if canImport(Dispatch)
import BudgetLock
import Dispatch
import Foundation
import Testing
import JobBudgets
import BudgetClock
import TestSupport

/// A storm of slow warning handlers on both clocks: each runs past its budget's hard stop (a
/// checkpoint that takes time: real time on a dispatch clock, a nested advance on a virtual one), and
/// every other one ends its budget from inside, while other threads shut scopes down with short
/// graces, stop and end budgets. No stop handler may run inside its own warning handler, and every
/// budget is finished exactly once: an `end` that returned `true`, or one stop handler call. A long
/// suite (the dispatch clock's storm is on real time); CI also runs it under ThreadSanitizer.
@Suite(LongRun.only) struct StopInsideWarningStormTests {
    /// What the handlers saw, per budget number.
    final class Watch: Sendable {
        let warningRunning = LockedValue<Set<UInt64>>([])
        let finishes = LockedValue<[UInt64: String]>([:])
        let violations = LockedValue<[String]>([])
        let group = DispatchGroup()

        func finished(_ budget: Budget, _ how: String) {
            let first = finishes.withLock { finishes in
                guard let earlier = finishes[budget.id] else {
                    finishes[budget.id] = how
                    return true
                }
                violations.withLock { $0.append("\(budget) finished twice: \(earlier), then \(how)") }
                return false
            }
            if first { group.leave() }
        }

        func warning(_ budget: Budget, scheduler: BudgetScheduler, ends: Bool, checkpoint: () -> Void) {
            warningRunning.withLock { _ = $0.insert(budget.id) }
            checkpoint()
            if ends, scheduler.end(budget) { finished(budget, "ended in its warning") }
            warningRunning.withLock { _ = $0.remove(budget.id) }
        }

        func stop(_ budget: Budget, _ reason: BudgetStopReason) {
            if warningRunning.withLock({ $0.contains(budget.id) }) {
                violations.withLock { $0.append("stop \(reason) inside the warning of \(budget)") }
            }
            finished(budget, "stopped: \(reason)")
        }
    }

    /// One storm: `perScope` budgets in each of 4 scopes (every other one a child of the one before),
    /// allowances from `base` to `base` + 6 ms, warning leads of 0-2 ms and graces of 0-1 ms, so that
    /// a slow checkpoint of 0-`slowest` runs past the hard stop; then 4 threads doing `drive` while 4
    /// others shut scopes down with a 1 ms grace, stop and end budgets.
    func storm(clock: any BudgetClock, perScope: Int, base: Duration, checkpoint: @escaping @Sendable (Int) -> Void,
               drive: @escaping @Sendable (Int) -> Void) throws -> [String] {
        let scheduler = BudgetScheduler(clock: clock)
        let watch = Watch()
        let scopes = (0..<4).map { scheduler.makeScope(named: "s\($0)") }
        var budgets: [Budget] = []
        for scope in scopes {
            var parent: Budget?
            for index in 0..<perScope {
                watch.group.enter()
                let request = { (parent: Budget?) throws(BudgetError) -> Budget in
                    try scope.requestBudget(
                        named: "b\(index)", allowance: base + .milliseconds(Int64(index % 7)),
                        warningLead: .milliseconds(Int64(index % 3)), grace: .milliseconds(Int64(index % 2)), parent: parent,
                        onWarning: { budget in
                            watch.warning(budget, scheduler: scheduler, ends: index % 2 == 0) { checkpoint(index) }
                        },
                        onStop: { budget, reason in watch.stop(budget, reason) })
                }
                // On a real clock the parent may already have stopped: then the budget has none.
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
                switch index % 6 {
                case 0: if scheduler.end(budget) { watch.finished(budget, "ended") }
                case 1: scheduler.stop(budget)
                case 2 where index % 30 == 2: scopes[thread - 4].shutdown(grace: .milliseconds(1))
                default: break
                }
            }
        }
        drive(-1)                                              // whatever is left
        let finished = watch.group.wait(timeout: .now() + .seconds(60))
        try #require(finished == .success, "every budget ended or stopped")
        #expect(scheduler.liveCount == 0)
        return watch.violations.withLock { $0 }
    }

    @Test func slowWarningsOnTheVirtualClock() throws {
        for _ in 0..<20 {
            let clock = VirtualClock()
            let violations = try storm(clock: clock, perScope: 200, base: .zero,
                                       checkpoint: { index in clock.advance(by: .milliseconds(Int64(index % 4))) },
                                       drive: { thread in
                                           if thread < 0 { clock.runUntilIdle(); return }
                                           for _ in 0..<10 { clock.advance(by: .microseconds(500)) }
                                       })
            #expect(violations.isEmpty, "\(violations.prefix(5))")
        }
    }

    @Test func slowWarningsOnTheDispatchClock() throws {
        for _ in 0..<5 {
            let clock = DispatchClock(label: "stop-inside-warning-storm")
            defer { clock.shutdown() }
            let violations = try storm(clock: clock, perScope: 40, base: .milliseconds(5),
                                       checkpoint: { index in usleep(UInt32(500 * (index % 4))) }, drive: { _ in })
            #expect(violations.isEmpty, "\(violations.prefix(5))")
        }
    }
}
#endif
