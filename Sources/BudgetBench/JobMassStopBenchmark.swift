// job_mass_stop_* and job_with_background_task_*: a graceful shutdown of 10,000 jobs, and the cost of
// one job under a budget, each beside the plain Swift concurrency alternative in the same run.
#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif
import BackgroundBudget

/// Two figures with in-run baselines:
/// - Mass stop: 10,000 `withBackgroundTask` jobs on a ``DispatchClock`` that ignore the warning (they
///   sleep for an hour) get `shutdown(grace: 100 ms)`; the figure is the time from the end of the grace
///   until every call has returned, beside 10,000 tasks sleeping in one task group and cancelled at
///   once with `cancelAll()` (time from the cancel until the group is empty). The call's own duration
///   is in the note. Target: every call returned within 50 ms of the end of the grace.
/// - The same stop with budgets alone (no tasks): the time from the end of the grace until the last
///   of 10,000 stop handlers has run. Target: within 50 ms.
/// - Per job: request + run + end of trivial work through `withBackgroundTask`, beside the same work
///   under a plain `withTaskGroup` with a `Task.sleep` timeout child cancelled when the work returns.
struct JobMassStopBenchmark: Benchmark {
    private static let rounds = 5

    var figureNames: [String] { ["job_mass_stop_10k_ms", "job_mass_stop_handlers_10k_ms", "job_with_background_task_ns"] }

    func run() -> [Figure] {
        #if canImport(Dispatch)
        // Interleaved A/B/C, round by round, so that load changes hit every side alike.
        var massStop: [(afterGrace: Double, call: Double)] = [], cancelAll: [Double] = [], handlers: [Double] = []
        for _ in 0..<Self.rounds {
            massStop.append(blocking { await Self.massStop(count: 10_000) })
            cancelAll.append(blocking { await Self.cancelAll(count: 10_000) })
            handlers.append(Self.massStopHandlers(count: 10_000))
        }
        let perJob = blocking { await Self.perJob(count: 20_000) }
        let perJobBaseline = blocking { await Self.perJobBaseline(count: 20_000) }
        let stops = massStop.map(\.afterGrace), calls = massStop.map(\.call)
        return [
            Figure(name: "job_mass_stop_10k_ms", value: median(stops), unit: "ms", baseline: "task_group_cancel_all_10k",
                   baselineValue: median(cancelAll),
                   note: "end of a 100 ms grace until all 10,000 calls returned, median of \(Self.rounds) interleaved rounds (\(list(stops)) ms); "
                       + "shutdown call \(list(calls)) ms; cancelAll of 10,000 sleeping tasks: \(list(cancelAll)) ms; \(loadNote())")
                .targeting(valueAtMost: 50),
            Figure(name: "job_mass_stop_handlers_10k_ms", value: median(handlers), unit: "ms", baseline: "task_group_cancel_all_10k",
                   baselineValue: median(cancelAll),
                   note: "end of a 100 ms grace until the last of 10,000 stop handlers ran (budgets alone, no tasks), median of \(Self.rounds) (\(list(handlers)) ms)")
                .targeting(valueAtMost: 50),
            Figure(name: "job_with_background_task_ns", value: perJob, unit: "ns", baseline: "task_group_sleep_timeout",
                   baselineValue: perJobBaseline,
                   note: "request+run+end of trivial work, 20,000 jobs in a row; baseline: withTaskGroup + Task.sleep timeout child"),
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

    /// Milliseconds from the end of the grace until every job returned, and the `shutdown` call's own.
    private static func massStop(count: Int) async -> (afterGrace: Double, call: Double) {
        let clock = DispatchClock(label: "bench.mass-stop")
        defer { clock.shutdown() }
        let scheduler = BudgetScheduler(clock: clock)
        let grace = Duration.milliseconds(100)
        return await withTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    _ = try? await withBackgroundTask(named: "j\(index)", allowance: .seconds(3_600), scheduler: scheduler) { _ in
                        try await Task.sleep(for: .seconds(3_600))            // ignores the warning
                    }
                }
            }
            try? await scheduler.waitForRunningJobs(count)
            let start = nowNanoseconds()
            scheduler.shutdown(grace: grace)
            let called = nowNanoseconds()
            await group.waitForAll()
            let end = nowNanoseconds()
            let graceEnd = start + UInt64(grace.components.seconds * 1_000_000_000 + grace.components.attoseconds / 1_000_000_000)
            return (Double(Int64(end) - Int64(graceEnd)) / 1e6, Double(called - start) / 1e6)
        }
    }

    /// Milliseconds from the end of the grace until the last of `count` budgets' stop handlers ran.
    private static func massStopHandlers(count: Int) -> Double {
        let clock = DispatchClock(label: "bench.mass-stop-handlers")
        defer { clock.shutdown() }
        let scheduler = BudgetScheduler(clock: clock)
        let last = LockedValue<(count: Int, at: UInt64)>((0, 0))
        let done = DispatchSemaphore(value: 0)
        for index in 0..<count {
            _ = try? scheduler.requestBudget(named: "j\(index)", allowance: .seconds(3_600), onWarning: { _ in },
                                             onStop: { _, _ in
                                                 let finished = last.withLock { last in
                                                     last = (last.count + 1, nowNanoseconds())
                                                     return last.count == count
                                                 }
                                                 if finished { done.signal() }
                                             })
        }
        let start = nowNanoseconds()
        scheduler.shutdown(grace: .milliseconds(100))
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

    /// Nanoseconds per trivial job through `withBackgroundTask`.
    private static func perJob(count: Int) async -> Double {
        let clock = DispatchClock(label: "bench.per-job")
        defer { clock.shutdown() }
        let scheduler = BudgetScheduler(clock: clock)
        let start = nowNanoseconds()
        var sum = 0
        for index in 0..<count {
            let outcome = try? await withBackgroundTask(named: "job", allowance: .seconds(30), scheduler: scheduler) { _ in index &* 3 }
            sum &+= (try? outcome?.get()) ?? 0
        }
        precondition(sum != 1)
        return Double(nowNanoseconds() - start) / Double(count)
    }

    /// Nanoseconds per trivial job under a task group with a `Task.sleep` timeout child.
    private static func perJobBaseline(count: Int) async -> Double {
        let start = nowNanoseconds()
        var sum = 0
        for index in 0..<count {
            let value = await withTaskGroup(of: Int?.self) { group in
                group.addTask { index &* 3 }
                group.addTask {
                    try? await Task.sleep(for: .seconds(30))
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
            sum &+= value ?? 0
        }
        precondition(sum != 1)
        return Double(nowNanoseconds() - start) / Double(count)
    }
    #endif
}
