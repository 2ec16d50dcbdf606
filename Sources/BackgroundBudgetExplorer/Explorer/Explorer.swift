import BudgetTime
import BackgroundBudgetRuntime

/// Drives a target through many sequences of user gestures and system events and reports every
/// invariant that breaks, each with its sequence shrunk to a minimal scenario.
///
/// ```swift
/// let target = try ExplorerTarget(json: scenarioText)
/// let explorer = try Explorer(target: target, invariants: [.dataSaved(by: [.willTerminate])])
/// let report = explorer.randomWalks(seed: 1, sequences: 10_000)
/// print(report)                                      // the summary, each failure and its events
/// print(report.failures.first?.scenarioFile ?? "")   // a scenario file `bgbudget run` replays
/// ```
///
/// Everything is deterministic: the same target, invariants, menu and seed (or depth) give the same
/// report, byte for byte.
public struct Explorer: Sendable {
    /// What is explored.
    public let target: ExplorerTarget
    /// The rules every sequence must keep.
    public let invariants: [ExplorerInvariant]
    /// The events to choose from.
    public let menu: ExplorerMenu
    /// How long one exploration may take on the wall clock before it stops with what it has (the
    /// report says ``ExplorerReport/stoppedAt``); `nil`, the default, for no limit. A guard for test
    /// suites, not a way to choose results: a run stopped by it is not deterministic.
    public var timeLimit: Duration?
    /// How many events, added up over the sequences it runs, one shrinking may perform before it
    /// returns the smallest failure so far: 2,000,000 by default (a couple of seconds at most).
    public var shrinkBudget = 2_000_000
    /// Asked, as often as the time limit is, whether to stop now with what was found (the command
    /// line's Ctrl-C); the report then says ``ExplorerReport/stoppedAt`` as for the time limit.
    package var interruption: (@Sendable () -> Bool)?
    /// Whether every sequence is run from a fresh session, replaying the setup and its prefix, even
    /// where a saved state could be restored (``ExplorerSession/save()``): the reference the
    /// restoring search is checked and measured against. The reports are the same either way.
    package var replaysEverySequence = false

    /// Creates an explorer.
    /// - Parameters:
    ///   - target: The scenario's apps and setup.
    ///   - invariants: The rules; the built-in ones by default.
    ///   - menu: The events; the standard menu for the target's apps' manifests by default.
    /// - Throws: ``ScenarioError`` when the setup cannot run (its policy is invalid or an event of
    ///   it is refused).
    public init(target: ExplorerTarget, invariants: [ExplorerInvariant] = ExplorerInvariant.builtIn,
                menu: ExplorerMenu? = nil) throws(ScenarioError) {
        self.target = target
        self.invariants = invariants
        self.menu = menu ?? .standard(for: target.scenario.apps.map(\.manifest))
        _ = try ExplorerSession(target)
    }

    /// A fresh session; the setup ran once in `init`, so it runs again.
    package func session() -> ExplorerSession {
        do {
            return try ExplorerSession(target, invariants: invariants)
        } catch {
            preconditionFailure("the setup ran in Explorer.init and cannot fail now: \(error)")
        }
    }

    /// Random walks: sequences of `length` events, each picked by weight from the menu with a
    /// generator seeded by `seed` (an event the lifecycle refuses is replaced by another pick, up to
    /// eight times). A sequence stops at its first broken invariant; each invariant's first failure is
    /// shrunk (``shrink(_:invariant:)``), once for each app it breaks for. A target whose own events
    /// already break an invariant is not explored: the report has that failure alone, with no event, and says it stopped.
    /// - Parameters:
    ///   - seed: The generator's seed.
    ///   - sequences: How many sequences to try.
    ///   - length: Events per sequence; 20 by default.
    ///   - stopAtFirstFailure: Whether to stop at the first failing sequence; `true` by default.
    ///   - progress: Called after each sequence with the report so far, for a progress line.
    /// - Returns: The report.
    public func randomWalks(seed: UInt64, sequences: Int, length: Int = 20, stopAtFirstFailure: Bool = true,
                            progress: ((ExplorerReport) -> Void)? = nil) -> ExplorerReport {
        var report = ExplorerReport(strategy: "random walks (seed \(seed), up to \(sequences) sequences of \(length) events)")
        if let broken = setupFailure() { return setupBrokenReport(report, broken) }
        var random = SplitMix64(seed: seed)
        var found = ExplorerFinds(self)
        let stop = StopWatch(limit: timeLimit, interruption: interruption)
        // Each walk starts from the setup: restored when it can be, run again otherwise.
        var session = session()
        var start: ExplorerSession.Saved?
        if !replaysEverySequence {
            _ = session.violation()   // the setup breaks nothing (``setupFailure()``): its trace is read once
            start = session.save()
        }
        for number in 1...max(sequences, 1) where sequences > 0 {
            if stop.isPast { report.stoppedAt = "\(number - 1) sequences: the time limit passed"; break }
            if let start { session.restore(start) } else if number > 1 { session = self.session() }
            var events: [ExplorerEvent] = []
            events.reserveCapacity(length)
            walk: while events.count < length {
                for _ in 0..<8 {
                    guard let done = session.perform(menu.pick(using: &random)) else { continue }
                    events.append(done)
                    report.eventsPerformed += 1
                    if let broken = session.violation() {
                        report.failingSequences += 1
                        if report.firstFailureAt == nil { report.firstFailureAt = number }
                        found.record(broken.name, message: broken.message, events, in: session)
                        break walk
                    }
                    continue walk
                }
                break
            }
            report.sequencesTried += 1
            progress?(report)
            if stopAtFirstFailure, !found.isEmpty { break }
        }
        report.failures = found.shrunk()
        return report
    }

    /// Bounded exhaustive search: every sequence of menu events up to `depth` long, breadth first,
    /// except that a sequence reaching a state already seen (by the fingerprint of the core's state,
    /// with instants relative to now, and of delegates that describe theirs) is not extended. A
    /// sequence that breaks an invariant is not extended either. A target whose own events already
    /// break an invariant is not explored: the report has that failure alone, with no event. (An action that records nothing can
    /// still change the state: swiping away an app that is not running marks it killed by the user.)
    /// - Parameters:
    ///   - depth: The longest sequence.
    ///   - progress: Called after each level with the report so far.
    /// - Returns: The report, with ``ExplorerReport/statesSeen``.
    public func exhaustive(depth: Int, progress: ((ExplorerReport) -> Void)? = nil) -> ExplorerReport {
        exhaustive(depth: depth, partition: .whole, progress: progress)
    }

    /// The exhaustive search, or one piece of it (``ExplorerPartition``).
    package func exhaustive(depth: Int, partition: ExplorerPartition, progress: ((ExplorerReport) -> Void)? = nil) -> ExplorerReport {
        var report = ExplorerReport(strategy: "exhaustive search (depth \(depth), \(menu.entries.count) events)")
        if let broken = setupFailure() { return setupBrokenReport(report, broken) }
        // Each sequence of the frontier with its state saved on `base`'s system, when it could be saved
        // (`nil`: replayed, on a session of its own, whose children are replayed too).
        var base = session()
        var seen: Set<UInt64> = [base.fingerprint()]
        _ = base.violation()
        var frontier: [(events: [ExplorerEvent], saved: ExplorerSession.Saved?)] = [([], replaysEverySequence ? nil : base.save())]
        var session = base
        var found = ExplorerFinds(self)
        let stop = StopWatch(limit: timeLimit, interruption: interruption)
        search: for level in 0..<max(depth, 0) {
            var next: [(events: [ExplorerEvent], saved: ExplorerSession.Saved?)] = []
            let last = level == depth - 1
            if last { report.beforeLastLevel = ExplorerCounts(report, statesSeen: seen.count) }
            for (place, (prefix, saved)) in frontier.enumerated() where !last || partition.owns(place) {
                if stop.isPast { report.stoppedAt = "\(report.sequencesTried) sequences: the time limit passed"; break search }
                // The prefix is restored (or replayed) once, and again only after an entry took effect: a
                // refused entry changes nothing (``ExplorerSession/perform(_:)``), so the next one tries the same state.
                var ready = false
                for (entryPlace, entry) in menu.entries.enumerated() {
                    if !ready {
                        if let saved {
                            base.restore(saved)
                            session = base
                        } else {
                            session = replay(prefix)
                        }
                        ready = true
                    }
                    guard let done = session.perform(entry.event) else { continue }
                    ready = false
                    let events = prefix + [done]
                    report.sequencesTried += 1
                    report.eventsPerformed += events.count
                    if let broken = session.violation() {
                        report.failingSequences += 1
                        if report.firstFailureAt == nil { report.firstFailureAt = report.sequencesTried }
                        found.record(broken.name, message: broken.message, events, in: session,
                                     order: ExplorerFindOrder(level: level, prefix: place, entry: entryPlace))
                        continue
                    }
                    let fingerprint = session.fingerprint()
                    if seen.insert(fingerprint).inserted {
                        // The last level's states are not extended: nothing to save.
                        next.append((events, saved == nil || last ? nil : session.save()))
                        if last, partition.count > 1 { report.lastLevelStates.append(fingerprint) }
                    }
                }
            }
            report.statesSeen = seen.count
            progress?(report)
            frontier = next
            if frontier.isEmpty { break }
        }
        report.statesSeen = seen.count
        report.seenSetBytes = seen.capacity * MemoryLayout<UInt64>.stride + (seen.capacity + 7) / 8
        report.failures = found.shrunk()
        return report
    }

    /// A fresh session that has done `prefix`, a sequence that broke nothing, with its events read.
    private func replay(_ prefix: [ExplorerEvent]) -> ExplorerSession {
        var session = session()
        for event in prefix { _ = session.perform(event) }
        _ = session.violation()
        return session
    }

    /// Runs a sequence from the setup and returns the first invariant it breaks, with the index of
    /// the event after which it broke; `nil` when none breaks or the lifecycle refuses an event.
    /// - Parameter events: The sequence.
    /// - Returns: The invariant's name, its message and the event's index, or `nil`.
    public func firstViolation(in events: [ExplorerEvent]) -> (invariant: String, message: String, index: Int)? {
        var session = session()
        for (index, event) in events.enumerated() {
            guard session.perform(event) != nil else { return nil }
            if let broken = session.violation() { return (broken.name, broken.message, index) }
        }
        return nil
    }
}

/// Whether a wall-clock time limit has passed since it was made.
struct StopWatch {
    private let deadline: ContinuousClock.Instant?
    private let interruption: (@Sendable () -> Bool)?

    init(limit: Duration?, interruption: (@Sendable () -> Bool)? = nil) {
        deadline = limit.map { ContinuousClock.now + $0 }
        self.interruption = interruption
    }

    /// Whether the limit has passed or the exploration was interrupted; `false` without either.
    var isPast: Bool {
        if let interruption, interruption() { return true }
        return deadline.map { ContinuousClock.now >= $0 } ?? false
    }
}
