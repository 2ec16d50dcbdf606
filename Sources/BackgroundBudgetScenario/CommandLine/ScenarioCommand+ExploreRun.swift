import BackgroundBudgetCore
import BackgroundBudgetExplorer
import BudgetLock
import Foundation

extension ScenarioCommand {
    /// The jobs `explore` runs at once without `--jobs`: one per active processor, at most 64.
    static var defaultJobs: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 64) }

    /// `2/4` as the second of four shards (`index` 1 in memory); `nil` unless `1 <= I <= N <= 10000`.
    static func parseShard(_ text: String) -> ExplorerPartition? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let index = Int(parts[0]), let count = Int(parts[1]), (1...10_000).contains(count), (1...count).contains(index) else { return nil }
        return ExplorerPartition(index: index - 1, count: count)
    }

    /// Runs `explore`'s random walks and exhaustive search for one shard (or all) on `jobs` threads,
    /// and returns what they found as a report. The results do not depend on `jobs`: seeds are
    /// independent, and the exhaustive search is split into pieces (``ExplorerPartition``) whose
    /// reports combine into the search in one piece.
    /// - Parameters:
    ///   - explorer: The explorer, its interruption set.
    ///   - setup: What the report says was explored.
    ///   - shard: The shard, or `nil` for all.
    ///   - jobs: Threads to run at once.
    ///   - remaining: The wall-clock time left, or `nil` for no limit.
    ///   - meter: The progress line.
    ///   - interrupted: Whether Ctrl-C was pressed.
    ///   - estimate: The exhaustive search's estimated sequences, for the progress line.
    static func exploreRun(_ explorer: Explorer, setup: ExploreReport.Setup, shard: ExplorerPartition?, jobs: Int,
                           remaining: @escaping @Sendable () -> Duration?, meter: ProgressMeter,
                           interrupted: (@Sendable () -> Bool)?, estimate: Double? = nil) -> ExploreReport {
        var report = ExploreReport(setup: setup, shard: shard)
        let planned = report.plannedSeeds.count, placing = shard ?? .whole
        let seeds = setup.seeds ?? 0
        // Each seed's walks, or `nil` for a seed not run (the time limit passed or Ctrl-C came first).
        let started = LockedValue((count: 0, tried: 0, failing: 0))
        let (walks, cut) = parallel(planned, jobs: jobs) { item -> (walk: ExploreReport.Walk, stopped: Bool)? in
            var explorer = explorer
            explorer.timeLimit = remaining()
            if let left = explorer.timeLimit, left <= .zero { return nil }
            if interrupted?() == true { return nil }
            let offset = placing.index + item * placing.count   // the item-th of `plannedSeeds`
            let seed = setup.firstSeed &+ UInt64(offset)
            let before = started.withLock { $0.count += 1; return $0 }
            meter.phase = .walks(seed: before.count, of: planned, before: before.tried, failingSeeds: before.failing)
            let walked = explorer.randomWalks(seed: seed, sequences: setup.sequences, length: setup.length) { report in
                meter.walked(report.sequencesTried, failing: report.failingSequences)
            }
            started.withLock { $0.tried += walked.sequencesTried; $0.failing += walked.failures.isEmpty ? 0 : 1 }
            return (ExploreReport.Walk(offset: offset, seed: seed, sequencesTried: walked.sequencesTried,
                                       find: walked.failures.first.map { find(of: $0, in: explorer) }),
                    walked.stoppedAt != nil)
        }
        report.walks = walks.map(\.walk)
        var stopped = seeds > 0 && (cut || walks.contains { $0.stopped })
        if let depth = setup.depth, !stopped {
            let part = shard ?? .whole
            meter.phase = .exhaustive(depth: depth, estimate: estimate)
            let pieces = (0..<jobs).map { ExplorerPartition(index: part.index + part.count * $0, count: part.count * jobs) }
            let searches = parallel(pieces.count, jobs: jobs) { item -> ExplorerReport? in
                var explorer = explorer
                explorer.timeLimit = remaining()
                return explorer.exhaustive(depth: depth, partition: pieces[item]) { report in
                    // One piece's counts stand for the progress of all.
                    if item == 0 { meter.searched(report.sequencesTried * pieces.count, failing: report.failingSequences) }
                }
            }
            .results
            stopped = searches.contains { $0.stoppedAt != nil }
            report.exhaustive = .combined(searches.map { exhaustivePart(of: $0, in: explorer) })
        }
        if stopped {
            report.interrupted = interrupted?() == true
            report.stopped = report.interrupted ? "interrupted (Ctrl-C)" : "stopped at the time limit"
        }
        return report
    }

    /// One piece of the exhaustive search, as the report keeps it.
    private static func exhaustivePart(of search: ExplorerReport, in explorer: Explorer) -> ExploreReport.Exhaustive {
        let whole = ExplorerCounts(sequencesTried: search.sequencesTried, eventsPerformed: search.eventsPerformed,
                                   failingSequences: search.failingSequences, statesSeen: search.statesSeen)
        // A search that ended before its last level did all its work alike in every piece.
        let before = search.beforeLastLevel ?? whole
        var part = ExploreReport.Exhaustive(before: before)
        part.lastSequences = whole.sequencesTried - before.sequencesTried
        part.lastEvents = whole.eventsPerformed - before.eventsPerformed
        part.lastFailing = whole.failingSequences - before.failingSequences
        // A search in one piece keeps no list: its count is what its last level added.
        part.lastStates = Array(Set(search.lastLevelStates)).sorted()
        part.lastStateCount = search.lastLevelStates.isEmpty ? search.statesSeen - before.statesSeen : part.lastStates.count
        part.finds = search.failures.map { find(of: $0, in: explorer) }
        return part
    }

    /// A failure as the report keeps it.
    static func find(of failure: ExplorerFailure, in explorer: Explorer) -> ExploreReport.Find {
        ExploreReport.Find(invariant: failure.invariant, app: failure.app?.rawValue, message: failure.message,
                           events: failure.events.map(\.description), failingEvent: failure.failingEvent,
                           foundLength: failure.foundLength, measure: explorer.shrinkMeasure(of: failure.events),
                           foundAt: failure.foundAt, scenarioFile: failure.scenarioFile)
    }

    /// `work(0)`…`work(count - 1)` on up to `jobs` threads at once, the results in order. A `nil` from
    /// `work` stops it (the time limit passed, or Ctrl-C): no item starts after it, and `cut` says
    /// so. With one job, or one item, everything runs on the calling thread. Only the results are
    /// kept, never a place per item: a run may plan a hundred million seeds.
    static func parallel<Result: Sendable>(_ count: Int, jobs: Int,
                                           _ work: @escaping @Sendable (Int) -> Result?) -> (results: [Result], cut: Bool) {
        if jobs <= 1 || count <= 1 {
            var results: [Result] = []
            for item in 0..<count {
                guard let result = work(item) else { return (results, true) }
                results.append(result)
            }
            return (results, false)
        }
        let done = LockedValue((results: [(item: Int, result: Result)](), next: 0, cut: false))
        DispatchQueue.concurrentPerform(iterations: min(jobs, count)) { _ in
            while true {
                let item = done.withLock { state -> Int? in
                    guard !state.cut, state.next < count else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }
                guard let item else { return }
                let result = work(item)
                done.withLock { state in
                    if let result { state.results.append((item, result)) } else { state.cut = true }
                }
            }
        }
        return done.withLock { state in (state.results.sorted { $0.item < $1.item }.map(\.result), state.cut) }
    }
}
