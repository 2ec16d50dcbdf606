// job_mass_stop_*: a graceful shutdown of 10,000 jobs, beside the plain Swift concurrency alternative
// in the same run.
#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif
import BackgroundBudget

/// Two figures with in-run baselines:
/// - Mass stop: 10,000 `withBackgroundTask` jobs on a ``DispatchClock`` that ignore the warning (they
///   sleep for an hour; every other one has an `.unlimited` allowance, the others an hour) get a
///   scope's `shutdown(grace: 100 ms)`; the figure is the time from the end of
///   the grace until every call has returned, beside 10,000 tasks sleeping in one task group and
///   cancelled at once with `cancelAll()` (time from the cancel until the group is empty). The
///   scheduler is *reused*: it ran 10,000 budgets before the first round and every round before
///   runs in it, so its budget slots are handed out in reverse (a free list is last-in, first-out)
///   and each round's scope shares it with the others' ended budgets. Target: at most 2× `cancelAll()`.
/// - The same stop with budgets alone (no tasks), on a reused scheduler: the time from the end of the
///   grace until the last of 10,000 stop handlers has run. Target: within 50 ms.
struct JobMassStopBenchmark: Benchmark {
    private static let rounds = 5

    var figureNames: [String] { ["job_mass_stop_10k_ms", "job_mass_stop_handlers_10k_ms"] }

    func run() -> [Figure] {
        #if canImport(Dispatch)
        // Interleaved A/B/C, round by round, so that load changes hit every side alike.
        var massStop: [(afterGrace: Double, call: Double)] = [], cancelAll: [Double] = [], handlers: [Double] = []
        let clock = DispatchClock(label: "bench.mass-stop")
        defer { clock.shutdown() }
        let reused = BudgetScheduler(clock: clock)
        Self.reuseSlots(of: reused, count: 10_000)
        for _ in 0..<Self.rounds {
            massStop.append(blocking { await Self.massStop(count: 10_000, scheduler: reused) })
            cancelAll.append(blocking { await Self.cancelAll(count: 10_000) })
            handlers.append(Self.massStopHandlers(count: 10_000, scheduler: reused))
        }
        let stops = massStop.map(\.afterGrace), calls = massStop.map(\.call)
        return [
            Figure(name: "job_mass_stop_10k_ms", value: median(stops), unit: "ms", baseline: "task_group_cancel_all_10k",
                   baselineValue: median(cancelAll),
                   note: "end of a scope's 100 ms grace until all 10,000 calls returned, reused scheduler, median of \(Self.rounds) "
                       + "interleaved rounds (\(list(stops)) ms); shutdown call \(list(calls)) ms; cancelAll of 10,000 sleeping tasks: "
                       + "\(list(cancelAll)) ms; \(loadNote())")
                .targeting(atMost: true, 2),
            Figure(name: "job_mass_stop_handlers_10k_ms", value: median(handlers), unit: "ms", baseline: "task_group_cancel_all_10k",
                   baselineValue: median(cancelAll),
                   note: "end of a scope's 100 ms grace until the last of 10,000 stop handlers ran (budgets alone, no tasks), reused scheduler, "
                       + "median of \(Self.rounds) (\(list(handlers)) ms)")
                .targeting(valueAtMost: 50),
        ]
        #else
        return []
        #endif
    }

    #if canImport(Dispatch)
    private func list(_ values: [Double]) -> String { values.map { String(format3: $0) }.joined(separator: ", ") }

    /// Runs async work to completion from the benchmark's synchronous thread.
    private func blocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let result = LockedValue<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// Every other job has no time limit of its own (a queue's job without a timeout), the others an
    /// hour: only the shutdown stops either.
    private static func allowance(_ index: Int) -> Duration {
        index % 2 == 0 ? .unlimited : .seconds(3_600)
    }

    /// Requests `count` budgets and ends them oldest-first, so that the scheduler hands its slots out
    /// newest-first from now on (its free list is last-in, first-out).
    private static func reuseSlots(of scheduler: BudgetScheduler, count: Int) {
        let budgets = (0..<count).map { _ in try! scheduler.requestBudget(named: "warm-up", allowance: .seconds(3_600)) }
        for budget in budgets { scheduler.end(budget) }
    }

    /// Milliseconds from the end of the grace until every job returned, and the `shutdown` call's own:
    /// the jobs run in a new scope of a reused scheduler.
    private static func massStop(count: Int, scheduler: BudgetScheduler) async -> (afterGrace: Double, call: Double) {
        let scope = scheduler.makeScope(named: "mass-stop")
        let grace = Duration.milliseconds(100)
        return await withTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    _ = try? await withBackgroundTask(named: "j\(index)", allowance: Self.allowance(index), scope: scope) { _ in
                        try await Task.sleep(for: .seconds(3_600))            // ignores the warning
                    }
                }
            }
            try? await scope.waitForLiveBudgets(exactly: count)
            try? await scheduler.waitForRunningJobs(count)
            let start = nowNanoseconds()
            scope.shutdown(grace: grace)
            let called = nowNanoseconds()
            await group.waitForAll()
            let end = nowNanoseconds()
            let graceEnd = start + UInt64(grace.components.seconds * 1_000_000_000 + grace.components.attoseconds / 1_000_000_000)
            return (Double(Int64(end) - Int64(graceEnd)) / 1e6, Double(called - start) / 1e6)
        }
    }

    /// Milliseconds from the end of the grace until the last of `count` budgets' stop handlers ran.
    private static func massStopHandlers(count: Int, scheduler: BudgetScheduler) -> Double {
        let scope = scheduler.makeScope(named: "mass-stop-handlers")
        let last = LockedValue<(count: Int, at: UInt64)>((0, 0))
        let done = DispatchSemaphore(value: 0)
        for index in 0..<count {
            _ = try? scope.requestBudget(named: "j\(index)", allowance: Self.allowance(index), onWarning: { _ in },
                                             onStop: { _, _ in
                                                 let finished = last.withLock { last in
                                                     last = (last.count + 1, nowNanoseconds())
                                                     return last.count == count
                                                 }
                                                 if finished { done.signal() }
                                             })
        }
        let start = nowNanoseconds()
        scope.shutdown(grace: .milliseconds(100))
        done.wait()
        return (Double(last.withLock { $0.at }) - Double(start + 100_000_000)) / 1e6
    }

    /// Milliseconds from `cancelAll()` until every sleeping task of the group returned.
    private static func cancelAll(count: Int) async -> Double {
        let started = LockedValue(0)
        return await withTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask {
                    started.withLock { $0 += 1 }
                    try? await Task.sleep(for: .seconds(3_600))
                }
            }
            while started.withLock({ $0 }) < count { await Task.yield() }
            let start = nowNanoseconds()
            group.cancelAll()
            await group.waitForAll()
            return Double(nowNanoseconds() - start) / 1e6
        }
    }

    #endif
}
