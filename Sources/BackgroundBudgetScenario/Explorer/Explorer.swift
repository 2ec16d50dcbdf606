import BackgroundBudget

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

    /// Creates an explorer.
    /// - Parameters:
    ///   - target: The scenario's apps and setup.
    ///   - invariants: The rules; the built-in ones by default.
    ///   - menu: The events; ``ExplorerMenu/standard(for:)`` for the target's apps by default.
    /// - Throws: ``ScenarioError`` when the setup cannot run (its policy is invalid or an event of
    ///   it is refused).
    public init(target: ExplorerTarget, invariants: [ExplorerInvariant] = ExplorerInvariant.builtIn,
                menu: ExplorerMenu? = nil) throws(ScenarioError) {
        self.target = target
        self.invariants = invariants
        self.menu = menu ?? .standard(for: target.appIDs)
        _ = try ExplorerSession(target)
    }

    /// A fresh session; the setup ran once in `init`, so it runs again.
    func session() -> ExplorerSession {
        do {
            return try ExplorerSession(target)
        } catch {
            preconditionFailure("the setup ran in Explorer.init and cannot fail now: \(error)")
        }
    }

    /// Random walks: sequences of `length` events, each picked by weight from the menu with a
    /// generator seeded by `seed` (an event the lifecycle refuses is replaced by another pick, up to
    /// eight times). A sequence stops at its first broken invariant; each invariant's first failure is
    /// shrunk (``shrink(_:invariant:)``).
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
        var random = SplitMix64(seed: seed)
        var found: [(invariant: String, events: [ExplorerEvent])] = []
        for number in 1...max(sequences, 1) where sequences > 0 {
            var session = session()
            var events: [ExplorerEvent] = []
            walk: while events.count < length {
                for _ in 0..<8 {
                    let event = menu.pick(using: &random)
                    guard session.perform(event) else { continue }
                    events.append(event)
                    report.eventsPerformed += 1
                    if let broken = session.violation(of: invariants) {
                        report.failingSequences += 1
                        if report.firstFailureAt == nil { report.firstFailureAt = number }
                        if !found.contains(where: { $0.invariant == broken.name }) { found.append((broken.name, events)) }
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
        report.failures = found.map { shrink($0.events, invariant: $0.invariant) }
        return report
    }

    /// Bounded exhaustive search: every sequence of menu events up to `depth` long, breadth first,
    /// except that a sequence reaching a state already seen (by the fingerprint of the core's state,
    /// with instants relative to now, and of delegates that describe theirs) is not extended. A
    /// sequence that breaks an invariant is not extended either. (An action that records nothing can
    /// still change the state: swiping away an app that is not running marks it killed by the user.)
    /// - Parameters:
    ///   - depth: The longest sequence.
    ///   - progress: Called after each level with the report so far.
    /// - Returns: The report, with ``ExplorerReport/statesSeen``.
    public func exhaustive(depth: Int, progress: ((ExplorerReport) -> Void)? = nil) -> ExplorerReport {
        var report = ExplorerReport(strategy: "exhaustive search (depth \(depth), \(menu.entries.count) events)")
        var seen: Set<UInt64> = [session().fingerprint()]
        var frontier: [[ExplorerEvent]] = [[]]
        var found: [(invariant: String, events: [ExplorerEvent])] = []
        for _ in 0..<max(depth, 0) {
            var next: [[ExplorerEvent]] = []
            for prefix in frontier {
                for entry in menu.entries {
                    var session = session()
                    for event in prefix { _ = session.perform(event) }
                    guard session.perform(entry.event) else { continue }
                    let events = prefix + [entry.event]
                    report.sequencesTried += 1
                    report.eventsPerformed += events.count
                    if let broken = session.violation(of: invariants) {
                        report.failingSequences += 1
                        if report.firstFailureAt == nil { report.firstFailureAt = report.sequencesTried }
                        if !found.contains(where: { $0.invariant == broken.name }) { found.append((broken.name, events)) }
                        continue
                    }
                    if seen.insert(session.fingerprint()).inserted { next.append(events) }
                }
            }
            report.statesSeen = seen.count
            progress?(report)
            frontier = next
            if frontier.isEmpty { break }
        }
        report.statesSeen = seen.count
        report.seenSetBytes = seen.capacity * MemoryLayout<UInt64>.stride + (seen.capacity + 7) / 8
        report.failures = found.map { shrink($0.events, invariant: $0.invariant) }
        return report
    }

    /// Runs a sequence from the setup and returns the first invariant it breaks, with the index of
    /// the event after which it broke; `nil` when none breaks or the lifecycle refuses an event.
    /// - Parameter events: The sequence.
    /// - Returns: The invariant's name, its message and the event's index, or `nil`.
    public func firstViolation(in events: [ExplorerEvent]) -> (invariant: String, message: String, index: Int)? {
        var session = session()
        for (index, event) in events.enumerated() {
            guard session.perform(event) else { return nil }
            if let broken = session.violation(of: invariants) { return (broken.name, broken.message, index) }
        }
        return nil
    }
}
