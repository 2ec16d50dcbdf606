import BackgroundBudgetExplorer
import BackgroundBudget
import BackgroundBudgetScenario

/// The explorer's speed, in thread CPU time:
/// - `explorer_walk20_3apps_seq_per_s`: random walks of 20 events over three apps (an uploader that
///   begins a task in the background, a player with audio, a notes app), the built-in invariants
///   checked after every event; baseline: the same number of 20-event scenarios run by
///   `Scenario.run()`, without the explorer.
/// - `explorer_walk_events_per_s_<n>` (1k, 10k): one walk of n events over the same apps (no failure
///   stops it: the invariants are left out, the menu never kills); baseline: one scenario of n events
///   run by `Scenario.run()`. Equal rates at 1k and 10k mean time linear in the length.
/// - `explorer_exhaustive_d6_states_per_s`: distinct states per second of the exhaustive search to
///   depth 6 over one app and the standard menu; baseline: the same search replaying every sequence
///   from the setup (as it did before a replayed prefix served the entries the lifecycle refuses);
/// - `explorer_fingerprint_ns`: one hand-written fingerprint of a three-app state; baseline: the same
///   state fingerprinted by reflection (what the search used before);
/// - `explorer_exhaustive_d6_seen_set_kb`: the memory of that search's seen-set.
struct ExplorerBenchmark: Benchmark {
    var figureNames: [String] {
        ["explorer_walk20_3apps_seq_per_s", "explorer_walk_events_per_s_1k", "explorer_walk_events_per_s_10k",
         "explorer_exhaustive_d6_states_per_s", "explorer_fingerprint_ns", "explorer_exhaustive_d6_seen_set_kb"]
    }

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
        let long: Explorer
        do {
            walks = try Explorer(target: ExplorerTarget(json: Self.threeApps))
            search = try Explorer(target: ExplorerTarget(json: Self.oneApp),
                                  invariants: ExplorerInvariant.builtIn + [.dataSaved(by: [.didEnterBackground, .willTerminate])])
            let apps = walks.target.appIDs
            var entries = apps.flatMap { [ExplorerMenu.Entry(.act(.open($0)), weight: 3), ExplorerMenu.Entry(.act(.switchTo($0)))] }
            entries += [.init(.act(.home), weight: 3), .init(.act(.beginInterruption)), .init(.act(.dismissInterruption)),
                        .init(.wait(.seconds(1)), weight: 2), .init(.wait(.seconds(10))), .init(.advance)]
            long = try Explorer(target: walks.target, invariants: ExplorerInvariant.builtIn, menu: ExplorerMenu(entries))
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
        let plain = (0..<sequences).map { _ in Self.scenario(for: walks, rounds: 5, random: &random) }
        start = threadCPUNanoseconds()
        var traced = 0
        for scenario in plain { traced += (try? scenario.run().trace.events.count) ?? 0 }
        let plainSeconds = Double(threadCPUNanoseconds() - start) / 1e9

        var figures = [
            Figure(name: "explorer_walk20_3apps_seq_per_s", value: Double(report.sequencesTried) / walkSeconds, unit: "/s",
                   baseline: "plain_scenario_run_20_events", baselineValue: Double(sequences) / plainSeconds,
                   note: "\(report.eventsPerformed) events, \(report.failingSequences) failing; the baseline runs "
                       + "\(sequences) fixed 20-event scenarios through Scenario.run() (\(traced) trace events), CPU time"),
        ]
        for (label, length) in [("1k", 1_000), ("10k", 10_000)] {
            start = threadCPUNanoseconds()
            let one = long.randomWalks(seed: 3, sequences: 1, length: length)
            let seconds = Double(threadCPUNanoseconds() - start) / 1e9
            var random = SplitMix64(seed: 3)
            let scenario = Self.scenario(for: walks, rounds: length / 4, random: &random)
            start = threadCPUNanoseconds()
            _ = try? scenario.run()
            let plainSeconds = Double(threadCPUNanoseconds() - start) / 1e9
            figures.append(Figure(name: "explorer_walk_events_per_s_\(label)", value: Double(one.eventsPerformed) / seconds, unit: "/s",
                                  baseline: "plain_scenario_run_\(label)_events", baselineValue: Double(length) / plainSeconds,
                                  note: "one walk of \(one.eventsPerformed) events in \(String(format3: seconds)) s CPU, "
                                      + "\(one.failingSequences) failing; the baseline: one scenario of \(length) events"))
        }

        start = threadCPUNanoseconds()
        let exhaustive = search.exhaustive(depth: 6)
        let searchSeconds = Double(threadCPUNanoseconds() - start) / 1e9
        start = threadCPUNanoseconds()
        let replaying = Self.exhaustiveReplayingEveryPrefix(search, depth: 6)
        let replayingSeconds = Double(threadCPUNanoseconds() - start) / 1e9
        figures.append(Figure(name: "explorer_exhaustive_d6_states_per_s", value: Double(exhaustive.statesSeen) / searchSeconds, unit: "/s",
                              baseline: "exhaustive_replaying_every_prefix", baselineValue: Double(replaying.states) / replayingSeconds,
                              note: "\(exhaustive.statesSeen) states, \(exhaustive.sequencesTried) sequences in \(String(format3: searchSeconds)) s CPU; "
                                  + "the baseline replays each sequence from the setup: \(replaying.states) states, "
                                  + "\(replaying.sequences) sequences in \(String(format3: replayingSeconds)) s CPU"))

        var session = walks.session()
        for event: ExplorerEvent in [.act(.open("com.example.player")), .act(.home), .act(.open("com.example.uploader")), .act(.home),
                                     .act(.open("com.example.notes")), .wait(.seconds(5))] {
            _ = session.perform(event)
        }
        let rounds = 2_000
        var sink: UInt64 = 0
        start = threadCPUNanoseconds()
        for _ in 0..<rounds { sink &+= session.fingerprint() }
        let handNanoseconds = Double(threadCPUNanoseconds() - start) / Double(rounds)
        start = threadCPUNanoseconds()
        for _ in 0..<rounds / 10 { sink &+= session.reflectedFingerprint() }
        let reflectedNanoseconds = Double(threadCPUNanoseconds() - start) / Double(rounds / 10)
        figures.append(Figure(name: "explorer_fingerprint_ns", value: handNanoseconds, unit: "ns",
                              baseline: "reflection_fingerprint", baselineValue: reflectedNanoseconds,
                              note: "a three-app state, \(rounds) hand-written and \(rounds / 10) by reflection (checksum \(sink % 10))"))
        var seen = Figure(name: "explorer_exhaustive_d6_seen_set_kb", value: Double(exhaustive.seenSetBytes) / 1024,
                          note: "\(exhaustive.statesSeen) fingerprints of 8 bytes")
        seen.unit = "KiB"
        figures.append(seen)
        return figures
    }

    /// The exhaustive search replaying every sequence from the setup, without reusing a replayed prefix
    /// for the entries the lifecycle refuses: the same states and sequences, the baseline of its speed.
    static func exhaustiveReplayingEveryPrefix(_ explorer: Explorer, depth: Int) -> (states: Int, sequences: Int) {
        var seen: Set<UInt64> = [explorer.session().fingerprint()]
        var frontier: [[ExplorerEvent]] = [[]]
        var sequences = 0
        for _ in 0..<depth {
            var next: [[ExplorerEvent]] = []
            for prefix in frontier {
                for entry in explorer.menu.entries {
                    var session = explorer.session()
                    for event in prefix { _ = session.perform(event) }
                    _ = session.violation()
                    guard let done = session.perform(entry.event) else { continue }
                    sequences += 1
                    if session.violation() != nil { continue }
                    if seen.insert(session.fingerprint()).inserted { next.append(prefix + [done]) }
                }
            }
            frontier = next
        }
        return (seen.count, sequences)
    }

    /// A scenario the lifecycle never refuses: `rounds` rounds of open a random app, wait, Home, wait
    /// (four events each).
    static func scenario(for explorer: Explorer, rounds: Int, random: inout SplitMix64) -> Scenario {
        let apps = explorer.target.appIDs
        var events: [ScenarioEvent] = []
        var at = BudgetInstant.zero
        for _ in 0..<rounds {
            events.append(ScenarioEvent(at: at, .open(apps[Int(random.next(below: UInt64(apps.count)))])))
            at = at + .seconds(10)
            events.append(ScenarioEvent(at: at, .home))
            at = at + .seconds(60)
        }
        return Scenario(apps: explorer.target.scenario.apps, events: events, end: at)
    }
}
