import BackgroundBudget
import BackgroundBudgetScenario

/// The explorer's speed, in thread CPU time:
/// - `explorer_walk20_3apps_seq_per_s`: random walks of 20 events over three apps (an uploader that
///   begins a task in the background, a player with audio, a notes app), the built-in invariants
///   checked after every event; the note gives the same 20-event scenarios run by `Scenario.run()`,
///   without the explorer, for comparison.
/// - `explorer_exhaustive_d6_states_per_s`: distinct states per second of the exhaustive search to
///   depth 6 over one app and the standard menu;
/// - `explorer_exhaustive_d6_seen_set_kb`: the memory of that search's seen-set.
struct ExplorerBenchmark: Benchmark {
    var figureNames: [String] { ["explorer_walk20_3apps_seq_per_s", "explorer_exhaustive_d6_states_per_s", "explorer_exhaustive_d6_seen_set_kb"] }

    static let threeApps = """
        {"apps": [
          {"id": "com.example.uploader", "behaviour": {"applicationDidEnterBackground": [{"do": "beginTask", "name": "upload", "work": 20}]}},
          {"id": "com.example.player", "backgroundModes": ["audio"],
           "behaviour": {"applicationDidBecomeActive": [{"do": "startActivity", "activity": "audioPlayback"}]}},
          {"id": "com.example.notes", "behaviour": {"applicationWillTerminate": [{"do": "work", "for": 0.05}]}}
         ],
         "events": []}
        """
    static let oneApp = #"{"apps": [{"id": "com.example.notes"}], "events": []}"#

    func run() -> [Figure] {
        let walks: Explorer
        let search: Explorer
        do {
            walks = try Explorer(target: ExplorerTarget(json: Self.threeApps))
            search = try Explorer(target: ExplorerTarget(json: Self.oneApp),
                                  invariants: ExplorerInvariant.builtIn + [.dataSaved(by: [.didEnterBackground, .willTerminate])])
        } catch {
            fatalError("the benchmark's scenarios are valid: \(error)")
        }
        _ = walks.randomWalks(seed: 0, sequences: 50, stopAtFirstFailure: false)   // warm-up
        let sequences = 2_000
        var start = threadCPUNanoseconds()
        let report = walks.randomWalks(seed: 1, sequences: sequences, stopAtFirstFailure: false)
        let walkSeconds = Double(threadCPUNanoseconds() - start) / 1e9

        // The baseline: the same number of 20-event scenarios, run without the explorer (open, wait, Home, wait, five times).
        var random = SplitMix64(seed: 1)
        let plain = (0..<sequences).map { _ in Self.scenario(for: walks, random: &random) }
        start = threadCPUNanoseconds()
        var traced = 0
        for scenario in plain { traced += (try? scenario.run().trace.events.count) ?? 0 }
        let plainSeconds = Double(threadCPUNanoseconds() - start) / 1e9

        start = threadCPUNanoseconds()
        let exhaustive = search.exhaustive(depth: 6)
        let searchSeconds = Double(threadCPUNanoseconds() - start) / 1e9
        return [
            Figure(name: "explorer_walk20_3apps_seq_per_s", value: Double(report.sequencesTried) / walkSeconds, unit: "/s",
                   baseline: "plain_scenario_run_20_events", baselineValue: Double(sequences) / plainSeconds,
                   note: "\(report.eventsPerformed) events, \(report.failingSequences) failing; the baseline runs "
                       + "\(sequences) fixed 20-event scenarios through Scenario.run() (\(traced) trace events), CPU time"),
            Figure(name: "explorer_exhaustive_d6_states_per_s", value: Double(exhaustive.statesSeen) / searchSeconds,
                   note: "\(exhaustive.statesSeen) states, \(exhaustive.sequencesTried) sequences in \(String(format3: searchSeconds)) s CPU"),
            {
                var figure = Figure(name: "explorer_exhaustive_d6_seen_set_kb", value: Double(exhaustive.seenSetBytes) / 1024,
                                    note: "\(exhaustive.statesSeen) fingerprints of 8 bytes")
                figure.unit = "KiB"
                return figure
            }(),
        ]
    }

    /// A 20-event scenario the lifecycle never refuses: five rounds of open a random app, wait,
    /// Home, wait.
    static func scenario(for explorer: Explorer, random: inout SplitMix64) -> Scenario {
        let apps = explorer.target.appIDs
        var events: [ScenarioEvent] = []
        var at = BudgetInstant.zero
        for _ in 0..<5 {
            events.append(ScenarioEvent(at: at, .open(apps[Int(random.next(below: UInt64(apps.count)))])))
            at = at + .seconds(10)
            events.append(ScenarioEvent(at: at, .home))
            at = at + .seconds(60)
        }
        return Scenario(apps: explorer.target.scenario.apps, events: events, end: at)
    }
}
