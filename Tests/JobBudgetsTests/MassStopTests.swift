#if canImport(Dispatch)
import BudgetClock
import BudgetLock
import BudgetTime
import Dispatch
import Testing
import JobBudgets
import TestSupport

/// Real time: 10,000 budgets whose work ignores the warning are all stopped at the shutdown's hard
/// stop, none before it, and `shutdown(grace:)` returns while a warning handler is blocked (it runs
/// none itself). A long suite. How soon after the grace they are all stopped is a speed, measured in
/// BudgetBench (`job_mass_stop_10k_ms`, in a release build), not here.
@Suite(LongRun.only) struct MassStopTests {
    @Test func tenThousandBudgetsIgnoringTheWarningAllStopAtTheShutdown() async throws {
        let clock = DispatchClock(label: "mass-stop")
        defer { clock.shutdown() }
        let scheduler = BudgetScheduler(clock: clock)
        let grace = Duration.milliseconds(200)
        let release = DispatchSemaphore(value: 0)
        let timedOut = LockedValue(false)
        let stops = LockedValue<[BudgetInstant]>([])
        for index in 0..<10_000 {
            _ = try scheduler.requestBudget(
                named: "j\(index)", allowance: .seconds(3_600),
                onWarning: { budget in                           // one handler blocks until shutdown has returned
                    if budget.name == "j0", release.wait(timeout: .now() + .seconds(30)) == .timedOut { timedOut.withLock { $0 = true } }
                },
                onStop: { _, reason in if reason == .shutdown { stops.withLock { $0.append(clock.now) } } })
        }
        let start = clock.now
        scheduler.shutdown(grace: grace)
        release.signal()                                       // only reached once shutdown has returned
        try await scheduler.waitForNoLiveBudgets()             // after the last stop handler
        #expect(!timedOut.withLock { $0 }, "shutdown waited for a warning handler")
        let times = stops.withLock { $0 }
        #expect(times.count == 10_000)
        #expect(times.allSatisfy { $0 >= start + grace })
    }
}
#endif
