// begin_end_*: the cost of a budget to the job runners that hold thousands.
#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif
import BackgroundBudget

/// The cost of a begin+end pair on one thread, in wall time and in the process's CPU time (every
/// thread, so work a timer thread does on the pair's behalf counts), with 0 and with 1,000 other
/// budgets live (allowances spread over an hour):
/// - `begin_end_<live>_ns`: a `BudgetScheduler` budget (30 s, a warning 5 s before, warning and stop
///   handlers) on a ``DispatchClock``, requested and ended;
/// - baseline, with as many other entries live: a locked dictionary with one Dispatch timer for the
///   earliest deadline (``LockedDictionaryTimer``); target (CPU): at most 3×;
/// - `app_begin_end_ns`: an app's finite background task on a ``VirtualClock`` (trace recorded),
///   beside a `DispatchWorkItem` handed to `asyncAfter` 30 s out, then cancelled.
///
/// The sides take turns, round by round (A/B/C/A/B/C); each figure is the median of the rounds.
struct BeginEndBenchmark: Benchmark {
    var figureNames: [String] {
        ["begin_end_0_ns", "begin_end_0_cpu_ns", "begin_end_1000_ns", "begin_end_1000_cpu_ns", "app_begin_end_ns", "app_begin_end_cpu_ns"]
    }

    private static let rounds = 15
    private static let pairsPerRound = 20_000

    func run() -> [Figure] {
        #if canImport(Dispatch)
        var figures: [Figure] = []
        for live in [0, 1_000] {
            let clock = DispatchClock(label: "bench.begin-end")
            let scheduler = BudgetScheduler(clock: clock)
            let dictionary = LockedDictionaryTimer()
            var random = SplitMix64(seed: 3)
            for _ in 0..<live {
                let seconds = 60 + Int64(random.next(below: 3_600))
                _ = try! scheduler.requestBudget(named: "background", allowance: .seconds(seconds), onStop: { _, _ in })
                dictionary.schedule(after: .seconds(seconds)) {}
            }
            let sides: [() -> Void] = [
                {
                    let handle = try! scheduler.requestBudget(named: "job", allowance: .seconds(30), warningLead: .seconds(5),
                                                              onWarning: { _ in }, onStop: { _, _ in })
                    _ = scheduler.end(handle)
                },
                { dictionary.cancel(dictionary.schedule(after: .seconds(30)) {}) },
            ]
            let costs = interleaved(sides)
            clock.shutdown()
            let note = "\(live) other live; median of \(Self.rounds) interleaved rounds of \(Self.pairsPerRound); \(loadNote())"
            let budget = costs[0], locked = costs[1]
            figures += [
                Figure(name: "begin_end_\(live)_ns", value: budget.wall.rounded(), unit: "ns", baseline: "locked_dictionary_one_timer",
                       baselineValue: locked.wall.rounded(), note: "BudgetScheduler request+end with onWarning and onStop, DispatchClock; wall; " + note),
                Figure(name: "begin_end_\(live)_cpu_ns", value: budget.cpu.rounded(), unit: "ns", baseline: "locked_dictionary_one_timer",
                       baselineValue: locked.cpu.rounded(), note: "process CPU time; " + note).targeting(atMost: true, 3),
            ]
        }

        let virtual = VirtualClock()
        let system = BackgroundSystem(clock: virtual)
        let app = try! system.install(AppManifest(id: "bench"))
        try! system.open(app)
        let queue = DispatchQueue(label: "bench.baseline", qos: .userInteractive)
        let appCosts = interleaved([
            { app.endBackgroundTask(app.beginBackgroundTask(withName: "job")) },
            {
                let item = DispatchWorkItem {}
                queue.asyncAfter(deadline: .now() + .seconds(30), execute: item)
                item.cancel()
            },
        ])
        let base = "work_item_async_after_cancel"
        figures += [
            Figure(name: "app_begin_end_ns", value: appCosts[0].wall.rounded(), unit: "ns", baseline: base, baselineValue: appCosts[1].wall.rounded(),
                   note: "Application begin/endBackgroundTask on a VirtualClock, trace recorded; wall time"),
            Figure(name: "app_begin_end_cpu_ns", value: appCosts[0].cpu.rounded(), unit: "ns", baseline: base, baselineValue: appCosts[1].cpu.rounded(),
                   note: "the same, process CPU time"),
        ]
        return figures
        #else
        return []
        #endif
    }

    /// Median wall and process CPU nanoseconds per call of each side, over rounds in which the
    /// sides take turns (the first side of each round rotating), after a warm-up round.
    private func interleaved(_ sides: [() -> Void]) -> [Cost] {
        var samples = [[Cost]](repeating: [], count: sides.count)
        for round in 0...Self.rounds {
            for offset in sides.indices {
                let side = (offset + round) % sides.count
                let cost = Cost.of(process: true) { for _ in 0..<Self.pairsPerRound { sides[side]() } }
                if round > 0 {
                    samples[side].append(Cost(wall: cost.wall / Double(Self.pairsPerRound), cpu: cost.cpu / Double(Self.pairsPerRound)))
                }
            }
        }
        return samples.map(medianCost)
    }
}
