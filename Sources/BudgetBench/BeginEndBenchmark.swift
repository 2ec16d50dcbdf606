// begin_end_ns: the cost of a budget to the job runners that hold thousands.
#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif
import BackgroundBudget

/// The cost of a begin+end pair on one thread, in wall time and in the process's CPU time (every
/// thread, so work a timer thread does on the pair's behalf counts):
/// - `begin_end_ns`: a `BudgetScheduler` budget with warning and stop handlers on a ``DispatchClock``,
///   the scheduler otherwise empty (the worst case: nothing else keeps the clock's timer armed);
/// - `app_begin_end_ns`: an app's finite background task on a ``VirtualClock`` (trace recorded).
///
/// The baseline of each is the obvious alternative: a `DispatchWorkItem` handed to `asyncAfter` 30 s
/// out, then cancelled.
struct BeginEndBenchmark: Benchmark {
    var figureNames: [String] { ["begin_end_ns", "begin_end_cpu_ns", "app_begin_end_ns", "app_begin_end_cpu_ns"] }

    func run() -> [Figure] {
        let clock = DispatchClock(label: "bench.begin-end")
        let scheduler = BudgetScheduler(clock: clock)
        let budget = measurePairs {
            let handle = try! scheduler.requestBudget(named: "job", allowance: .seconds(30), warningLead: .seconds(5),
                                                      onWarning: { _ in }, onStop: { _, _ in })
            _ = scheduler.end(handle)
        }
        clock.shutdown()

        let virtual = VirtualClock()
        let system = BackgroundSystem(clock: virtual)
        let app = try! system.install(AppManifest(id: "bench"))
        try! system.open(app)
        for _ in 0..<100 { app.beginBackgroundTask(withName: "long-running") }
        let appPair = measurePairs { app.endBackgroundTask(app.beginBackgroundTask(withName: "job")) }

        #if canImport(Dispatch)
        let queue = DispatchQueue(label: "bench.baseline", qos: .userInteractive)
        let baseline = measurePairs {
            let item = DispatchWorkItem {}
            queue.asyncAfter(deadline: .now() + .seconds(30), execute: item)
            item.cancel()
        }
        #else
        let baseline = Cost(wall: .nan, cpu: .nan)
        #endif
        let base = "work_item_async_after_cancel"
        return [
            Figure(name: "begin_end_ns", value: budget.wall.rounded(), unit: "ns", baseline: base, baselineValue: baseline.wall.rounded(),
                   note: "BudgetScheduler request+end with onWarning and onStop, DispatchClock, empty scheduler; wall time, median of 31 rounds of 20000"),
            Figure(name: "begin_end_cpu_ns", value: budget.cpu.rounded(), unit: "ns", baseline: base, baselineValue: baseline.cpu.rounded(),
                   note: "the same, process CPU time (getrusage, all threads)"),
            Figure(name: "app_begin_end_ns", value: appPair.wall.rounded(), unit: "ns", baseline: base, baselineValue: baseline.wall.rounded(),
                   note: "Application begin/endBackgroundTask on a VirtualClock, trace recorded; wall time"),
            Figure(name: "app_begin_end_cpu_ns", value: appPair.cpu.rounded(), unit: "ns", baseline: base, baselineValue: baseline.cpu.rounded(),
                   note: "the same, process CPU time"),
        ]
    }

    /// Median wall and process CPU nanoseconds per call over rounds of many calls, after a warm-up round.
    private func measurePairs(rounds: Int = 31, pairsPerRound: Int = 20_000, _ pair: () -> Void) -> Cost {
        var samples: [Cost] = []
        for round in 0...rounds {
            let cost = Cost.of(process: true) { for _ in 0..<pairsPerRound { pair() } }
            if round > 0 { samples.append(Cost(wall: cost.wall / Double(pairsPerRound), cpu: cost.cpu / Double(pairsPerRound))) }
        }
        return medianCost(samples)
    }
}
