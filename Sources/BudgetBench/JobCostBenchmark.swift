// job_with_background_task_ns, job_unlimited_ns, job_allowance_ns: what one job costs under a budget,
// beside the plain Swift concurrency alternatives in the same run.
#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif
import BackgroundBudget

/// Request + run + end of trivial work through `withBackgroundTask`, 20,000 jobs in a row on a
/// ``DispatchClock``, interleaved round by round with:
/// - the bare child task it wraps (`withTaskGroup`, one `addTask`, `next()`): a job with an
///   `.unlimited` allowance (no clock timer) at most 1.1× that, one with a 30 s allowance at most 2×;
/// - the same work under a plain `withTaskGroup` with a `Task.sleep` timeout child cancelled when the
///   work returns (what a runner without budgets writes for a timeout).
///
/// Each figure is given in wall time and in the process's CPU time (every thread: the work hops
/// between the cooperative pool's threads); the targets are on CPU time, which other load on the
/// machine blurs far less than wall time.
struct JobCostBenchmark: Benchmark {
    private static let rounds = 7
    private static let jobs = 20_000

    var figureNames: [String] {
        ["job_with_background_task_ns", "job_with_background_task_cpu_ns", "job_unlimited_ns", "job_unlimited_cpu_ns",
         "job_allowance_ns", "job_allowance_cpu_ns"]
    }

    func run() -> [Figure] {
        #if canImport(Dispatch)
        var timeout: [Cost] = [], unlimited: [Cost] = [], allowance: [Cost] = [], bare: [Cost] = []
        for _ in 0..<Self.rounds {
            bare.append(blocking { await Self.bareChildTask(count: Self.jobs) })
            unlimited.append(blocking { await Self.perJob(count: Self.jobs, allowance: .unlimited) })
            allowance.append(blocking { await Self.perJob(count: Self.jobs, allowance: .seconds(30)) })
            timeout.append(blocking { await Self.sleepTimeout(count: Self.jobs) })
        }
        let rounds = "median of \(Self.rounds) interleaved rounds of \(Self.jobs) jobs in a row"
        var figures: [Figure] = []
        for (kind, cpu) in [("", false), ("_cpu", true)] {
            let pick = { (costs: [Cost]) in costs.map { cpu ? $0.cpu : $0.wall } }
            let clock = cpu ? "process CPU time" : "wall time"
            figures.append(Figure(
                name: "job_with_background_task\(kind)_ns", value: median(pick(allowance)).rounded(), unit: "ns",
                baseline: "task_group_sleep_timeout", baselineValue: median(pick(timeout)).rounded(),
                note: "\(clock); request+run+end of trivial work, 30 s allowance, \(rounds) (\(list(pick(allowance))) ns); "
                    + "baseline: withTaskGroup + Task.sleep timeout child (\(list(pick(timeout))) ns)"))
            var unlimitedFigure = Figure(
                name: "job_unlimited\(kind)_ns", value: median(pick(unlimited)).rounded(), unit: "ns",
                baseline: "bare_child_task", baselineValue: median(pick(bare)).rounded(),
                note: "\(clock); withBackgroundTask(allowance: .unlimited) of trivial work, \(rounds) (\(list(pick(unlimited))) ns); "
                    + "baseline: withTaskGroup + addTask + next (\(list(pick(bare))) ns); \(loadNote())")
            var allowanceFigure = Figure(
                name: "job_allowance\(kind)_ns", value: median(pick(allowance)).rounded(), unit: "ns",
                baseline: "bare_child_task", baselineValue: median(pick(bare)).rounded(),
                note: "\(clock); withBackgroundTask(allowance: 30 s) of trivial work, \(rounds) (\(list(pick(allowance))) ns)")
            if cpu {
                unlimitedFigure = unlimitedFigure.targeting(atMost: true, 1.1)
                allowanceFigure = allowanceFigure.targeting(atMost: true, 2)
            }
            figures += [unlimitedFigure, allowanceFigure]
        }
        return figures
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

    /// Times `count` runs of `body` per run: wall and process CPU nanoseconds.
    private static func timed(count: Int, _ body: (Int) async -> Int) async -> Cost {
        let cpuStart = processCPUNanoseconds()
        let start = nowNanoseconds()
        var sum = 0
        for index in 0..<count { sum &+= await body(index) }
        precondition(sum != 1)
        let wall = nowNanoseconds() - start, cpu = processCPUNanoseconds() - cpuStart
        return Cost(wall: Double(wall) / Double(count), cpu: Double(cpu) / Double(count))
    }

    /// Per trivial job through `withBackgroundTask`.
    private static func perJob(count: Int, allowance: Duration) async -> Cost {
        let clock = DispatchClock(label: "bench.per-job")
        defer { clock.shutdown() }
        let scheduler = BudgetScheduler(clock: clock)
        return await timed(count: count) { index in
            let outcome = try? await withBackgroundTask(named: "job", allowance: allowance, scheduler: scheduler) { _ in index &* 3 }
            return (try? outcome?.get()) ?? 0
        }
    }

    /// Per trivial job as the bare child task `withBackgroundTask` wraps.
    private static func bareChildTask(count: Int) async -> Cost {
        await timed(count: count) { index in
            await withTaskGroup(of: Int.self) { group in
                group.addTask { index &* 3 }
                return await group.next() ?? 0
            }
        }
    }

    /// Per trivial job under a task group with a `Task.sleep` timeout child.
    private static func sleepTimeout(count: Int) async -> Cost {
        await timed(count: count) { index in
            await withTaskGroup(of: Int?.self) { group in
                group.addTask { index &* 3 }
                group.addTask {
                    try? await Task.sleep(for: .seconds(30))
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first ?? 0
            }
        }
    }
    #endif
}
