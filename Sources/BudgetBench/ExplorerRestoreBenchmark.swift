import BackgroundBudgetExplorer
import BackgroundBudget
import Foundation

/// The explorer restoring saved states against the explorer replaying every sequence from the setup
/// (`Explorer.replaysEverySequence`, the search as it was), in the same run, on the shipped scenarios
/// (Examples/scenarios), thread CPU time, the built-in invariants:
/// - `explorer_restore_walks_a_day_events_per_s`, `…_walks_per_s`: random walks of 20 events on
///   a-day-in-the-background.json; target >= 10x.
/// - `explorer_restore_walks_shipped_events_per_s`: the same on every shipped scenario, events over
///   the summed time; target >= 5x.
/// - `explorer_restore_exhaustive_a_day_d3_states_per_s`: exhaustive search to depth 3 on a-day;
///   `…_shipped_d2_states_per_s`: to depth 2 on every shipped scenario; target >= 10x.
/// - `explorer_restore_floor_ns_per_event`: the model's own cost per event: the events the walks on
///   a-day performed, done again on a restored session without checking invariants, against the
///   restoring walk's cost per event (how close the explorer runs to its floor).
/// The reports of both modes are compared too: the note says whether they are identical.
struct ExplorerRestoreBenchmark: Benchmark {
    var figureNames: [String] {
        ["explorer_restore_walks_a_day_events_per_s", "explorer_restore_walks_a_day_walks_per_s",
         "explorer_restore_walks_shipped_events_per_s", "explorer_restore_exhaustive_a_day_d3_states_per_s",
         "explorer_restore_exhaustive_shipped_d2_states_per_s", "explorer_restore_floor_ns_per_event"]
    }

    static let folder = String(#filePath.dropLast("Sources/BudgetBench/ExplorerRestoreBenchmark.swift".count)) + "Examples/scenarios/"

    static func explorers(_ name: String) -> (restoring: Explorer, replaying: Explorer) {
        guard let file = FileManager.default.contents(atPath: folder + name),
              let restoring = try? Explorer(target: ExplorerTarget(jsonBytes: Array(file), file: folder + name)) else {
            fatalError("\(folder + name) must load")
        }
        var replaying = restoring
        replaying.replaysEverySequence = true
        return (restoring, replaying)
    }

    /// Runs `body` and returns its result and thread CPU seconds.
    static func timed<T>(_ body: () -> T) -> (T, Double) {
        let start = threadCPUNanoseconds()
        let value = body()
        return (value, Double(threadCPUNanoseconds() - start) / 1e9)
    }

    /// With `BUDGETBENCH_EXPLORER_WALKS=n` in the environment, only n walks on a-day, for callgrind
    /// (collect inside `randomWalks`; see the Performance article): the restoring walks, or with
    /// `BUDGETBENCH_EXPLORER_FLOOR=1` the floor's. The figure is the events to divide the count by.
    static func countOnly(_ walks: Int, floor: Bool) -> [Figure] {
        let (restoring, _) = explorers("a-day-in-the-background.json")
        var explorer = restoring
        if floor {
            do { explorer = try Explorer(target: restoring.target, invariants: [], menu: restoring.menu) } catch { fatalError("\(error)") }
        }
        let report = explorer.randomWalks(seed: 1, sequences: walks, stopAtFirstFailure: false)
        return [Figure(name: "explorer_restore_counted_events", value: Double(report.eventsPerformed),
                       note: floor ? "the floor's walks" : "the restoring walks")]
    }

    func run() -> [Figure] {
        let environment = ProcessInfo.processInfo.environment
        if let walks = environment["BUDGETBENCH_EXPLORER_WALKS"].flatMap(Int.init) {
            return Self.countOnly(walks, floor: environment["BUDGETBENCH_EXPLORER_FLOOR"] == "1")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: Self.folder)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        var figures: [Figure] = []
        var identical = true

        // Random walks on a-day.
        let (restoring, replaying) = Self.explorers("a-day-in-the-background.json")
        _ = restoring.randomWalks(seed: 0, sequences: 20, stopAtFirstFailure: false)   // warm-up
        let (fast, fastSeconds) = Self.timed { restoring.randomWalks(seed: 1, sequences: 4_000, stopAtFirstFailure: false) }
        let (slow, slowSeconds) = Self.timed { replaying.randomWalks(seed: 1, sequences: 400, stopAtFirstFailure: false) }
        identical = identical && restoring.randomWalks(seed: 1, sequences: 400, stopAtFirstFailure: false).description == slow.description
        figures.append(Figure(name: "explorer_restore_walks_a_day_events_per_s", value: Double(fast.eventsPerformed) / fastSeconds, unit: "/s",
                              baseline: "replaying_walks", baselineValue: Double(slow.eventsPerformed) / slowSeconds,
                              note: "\(fast.sequencesTried) walks, \(fast.eventsPerformed) events in \(String(format3: fastSeconds)) s; "
                                  + "replaying \(slow.sequencesTried) walks in \(String(format3: slowSeconds)) s").targeting(atMost: false, 10))
        figures.append(Figure(name: "explorer_restore_walks_a_day_walks_per_s", value: Double(fast.sequencesTried) / fastSeconds, unit: "/s",
                              baseline: "replaying_walks", baselineValue: Double(slow.sequencesTried) / slowSeconds))

        // The floor: the same kind of walks' events without invariants, on a restored session.
        let floorExplorer: Explorer
        do { floorExplorer = try Explorer(target: restoring.target, invariants: [], menu: restoring.menu) } catch { fatalError("\(error)") }
        let (bare, bareSeconds) = Self.timed { floorExplorer.randomWalks(seed: 1, sequences: 4_000, stopAtFirstFailure: false) }
        let floor = bareSeconds * 1e9 / Double(max(bare.eventsPerformed, 1))
        let walkPerEvent = fastSeconds * 1e9 / Double(max(fast.eventsPerformed, 1))
        figures.append(Figure(name: "explorer_restore_floor_ns_per_event", value: floor, unit: "ns",
                              baseline: "restoring_walk_ns_per_event", baselineValue: walkPerEvent,
                              note: "a-day: the model (core and runtime shell) driven by the walks with no invariant, restored per walk; "
                                  + "the explorer's walk costs \(String(format3: walkPerEvent / floor))x that"))

        // Random walks and exhaustive search on every shipped scenario.
        var walked = (fast: 0, fastSeconds: 0.0, slow: 0, slowSeconds: 0.0)
        var searched = (fast: 0, fastSeconds: 0.0, slow: 0, slowSeconds: 0.0)
        for name in names {
            let (restoring, replaying) = Self.explorers(name)
            let (a, aSeconds) = Self.timed { restoring.randomWalks(seed: 1, sequences: 200, stopAtFirstFailure: false) }
            let (b, bSeconds) = Self.timed { replaying.randomWalks(seed: 1, sequences: 200, stopAtFirstFailure: false) }
            identical = identical && a.description == b.description
            walked.fast += a.eventsPerformed; walked.fastSeconds += aSeconds
            walked.slow += b.eventsPerformed; walked.slowSeconds += bSeconds
            let (c, cSeconds) = Self.timed { restoring.exhaustive(depth: 2) }
            let (d, dSeconds) = Self.timed { replaying.exhaustive(depth: 2) }
            identical = identical && c.description == d.description
            searched.fast += c.statesSeen; searched.fastSeconds += cSeconds
            searched.slow += d.statesSeen; searched.slowSeconds += dSeconds
        }
        figures.append(Figure(name: "explorer_restore_walks_shipped_events_per_s", value: Double(walked.fast) / walked.fastSeconds, unit: "/s",
                              baseline: "replaying_walks", baselineValue: Double(walked.slow) / walked.slowSeconds,
                              note: "\(names.count) scenarios, 200 walks of 20 events each").targeting(atMost: false, 5))

        let (deep, deepSeconds) = Self.timed { restoring.exhaustive(depth: 3) }
        let (deepSlow, deepSlowSeconds) = Self.timed { replaying.exhaustive(depth: 3) }
        identical = identical && deep.description == deepSlow.description
        figures.append(Figure(name: "explorer_restore_exhaustive_a_day_d3_states_per_s", value: Double(deep.statesSeen) / deepSeconds, unit: "/s",
                              baseline: "replaying_search", baselineValue: Double(deepSlow.statesSeen) / deepSlowSeconds,
                              note: "\(deep.statesSeen) states, \(deep.sequencesTried) sequences in \(String(format3: deepSeconds)) s; "
                                  + "replaying: \(String(format3: deepSlowSeconds)) s").targeting(atMost: false, 10))
        figures.append(Figure(name: "explorer_restore_exhaustive_shipped_d2_states_per_s", value: Double(searched.fast) / searched.fastSeconds,
                              unit: "/s", baseline: "replaying_search", baselineValue: Double(searched.slow) / searched.slowSeconds,
                              note: "\(names.count) scenarios, \(searched.fast) states; reports of both modes "
                                  + (identical ? "identical" : "DIFFER")).targeting(atMost: false, 10))
        return figures
    }
}
