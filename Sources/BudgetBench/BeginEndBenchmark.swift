// begin_end_ns: the cost of a budget to the job runners that hold thousands.
#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif
import BackgroundBudget

/// The median cost of a begin+end pair on one thread: a `BudgetScheduler` budget, an app's finite
/// background task (trace recorded), and the obvious alternative, a `DispatchSourceTimer` per budget.
struct BeginEndBenchmark: Benchmark {
    var figureNames: [String] { ["begin_end_ns", "app_begin_end_ns", "baseline_source_per_budget_begin_end_ns"] }

    func run() -> [Figure] {
        let scheduler = BudgetScheduler(clock: VirtualClock())
        // A few budgets stay live so the pair works against a non-empty heap, as in a job runner.
        for _ in 0..<1_000 { _ = try? scheduler.requestBudget(named: "background", allowance: .seconds(3_600)) }
        let budget = measurePairs { _ = scheduler.end(try! scheduler.requestBudget(named: "job", allowance: .seconds(30), warningLead: .seconds(5))) }

        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let app = try! system.install(AppManifest(id: "bench"))
        try! system.open(app)
        for _ in 0..<100 { app.beginBackgroundTask(withName: "long-running") }
        let appPair = measurePairs { app.endBackgroundTask(app.beginBackgroundTask(withName: "job")) }

        #if canImport(Dispatch)
        let queue = DispatchQueue(label: "bench.baseline")
        let baseline = measurePairs(rounds: 21, pairsPerRound: 2_000) {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .seconds(30), leeway: .nanoseconds(0))
            timer.setEventHandler {}
            timer.resume()
            timer.cancel()
        }
        #else
        let baseline = Double.nan
        #endif
        return [
            Figure(name: "begin_end_ns", value: budget.rounded(), note: "BudgetScheduler request+end; target ≤ 300"),
            Figure(name: "app_begin_end_ns", value: appPair.rounded(), note: "Application begin/endBackgroundTask, trace recorded"),
            Figure(name: "baseline_source_per_budget_begin_end_ns", value: baseline.rounded(),
                   note: "one DispatchSourceTimer per budget: create, schedule, resume, cancel"),
        ]
    }

    /// Median nanoseconds per call over rounds of many calls, after a warm-up round.
    private func measurePairs(rounds: Int = 31, pairsPerRound: Int = 20_000, _ pair: () -> Void) -> Double {
        var samples: [Double] = []
        for round in 0...rounds {
            let start = nowNanoseconds()
            for _ in 0..<pairsPerRound { pair() }
            let elapsed = Double(nowNanoseconds() - start) / Double(pairsPerRound)
            if round > 0 { samples.append(elapsed) }
        }
        return median(samples)
    }
}
