import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// A sequence that broke an invariant, shrunk to a minimal one.
public struct ExplorerFailure: Sendable, Hashable, CustomStringConvertible {
    /// The invariant that broke.
    public var invariant: String
    /// How it broke, at ``failingEvent``.
    public var message: String
    /// The minimal sequence: dropping any one event, or shortening any wait to the next shorter
    /// one tried, no longer breaks ``invariant``.
    public var events: [ExplorerEvent]
    /// The index in ``events`` of the event after which the invariant broke; -1 when the target's own
    /// events (the file's, before any explored event) broke it, and ``events`` is empty.
    public var failingEvent: Int
    /// How many events the sequence had when it was found.
    public var foundLength: Int
    /// The minimal sequence as a scenario file that `bgbudget run` replays.
    public var scenarioFile: String
    /// How many smaller sequences shrinking took on the way.
    public var shrinkSteps = 0
    /// The app the invariant broke for: the app of the trace event at which it broke, for invariants
    /// that read the trace event by event, else the first of the target's apps the message names;
    /// `nil` when neither tells. Failures of one invariant for one app are one failure: an
    /// exploration keeps the first, and `bgbudget explore` groups the finds of all its seeds.
    public var app: AppID?
    /// Where the exhaustive search found the sequence; `nil` for random walks.
    package var foundAt: ExplorerFindOrder?

    /// Creates a failure.
    /// - Parameters:
    ///   - invariant: The invariant that broke.
    ///   - message: How it broke.
    ///   - events: The minimal sequence.
    ///   - failingEvent: The index of the event after which it broke.
    ///   - foundLength: The sequence's length when it was found.
    ///   - scenarioFile: The sequence as a scenario file.
    ///   - shrinkSteps: The smaller sequences shrinking took.
    ///   - app: The app the invariant broke for, if known.
    public init(invariant: String, message: String, events: [ExplorerEvent], failingEvent: Int, foundLength: Int,
                scenarioFile: String, shrinkSteps: Int = 0, app: AppID? = nil) {
        self.invariant = invariant
        self.message = message
        self.events = events
        self.failingEvent = failingEvent
        self.foundLength = foundLength
        self.scenarioFile = scenarioFile
        self.shrinkSteps = shrinkSteps
        self.app = app
    }

    /// `dataSaved broke at event 3 of 3 (purge com.example.notes): …`, then the numbered events; or
    /// `dataSaved broke in the file's own events, before any explored event: …`.
    public var description: String {
        if failingEvent < 0, events.isEmpty {
            return "\(invariant) broke in the file's own events, before any explored event: \(message)"
        }
        let event = events.indices.contains(failingEvent) ? " (\(events[failingEvent]))" : ""
        var lines = ["\(invariant) broke at event \(failingEvent + 1) of \(events.count)\(event), "
                     + "shrunk from \(foundLength) events: \(message)"]
        lines += events.enumerated().map { "  \($0 + 1). \($1)" }
        return lines.joined(separator: "\n")
    }
}

/// What an exploration did and found. Its ``description`` is the same, byte for byte, for the same
/// target, invariants, menu and seed or depth.
public struct ExplorerReport: Sendable, Hashable, CustomStringConvertible {
    /// How the sequences were chosen: `random walks (seed 7, up to 10000 sequences of 20 events)`.
    public var strategy: String
    /// Sequences run to their end or to a failure.
    public var sequencesTried = 0
    /// Events performed, refused ones not counted.
    public var eventsPerformed = 0
    /// Distinct states reached (exhaustive search only; 0 for random walks).
    public var statesSeen = 0
    /// The memory the exhaustive search's seen-set held at the end, in bytes: a 64-bit fingerprint per
    /// bucket and its occupancy bit (0 for random walks).
    public var seenSetBytes = 0
    /// Sequences that broke an invariant.
    public var failingSequences = 0
    /// For each invariant that broke and each app it broke for (``ExplorerFailure/app``), its first
    /// failure, shrunk; in the order they were found.
    public var failures: [ExplorerFailure] = []
    /// The number of the sequence that first broke an invariant, from 1, if one did.
    public var firstFailureAt: Int?
    /// Where the exploration stopped short, if its ``Explorer/timeLimit`` passed, or why it explored
    /// nothing (the target's own events already break an invariant).
    public var stoppedAt: String?
    /// What an exhaustive search had done when it began its last level: the part every piece of a
    /// partitioned search does alike (``ExplorerPartition``); `nil` when it never reached the last
    /// level, or for random walks.
    package var beforeLastLevel: ExplorerCounts?
    /// The states one piece of a partitioned exhaustive search (``ExplorerPartition``) first reached at
    /// its last level, in the order reached: the pieces reach some of the same ones, so their union is
    /// what counts. Empty for a search in one piece, whose last level reached
    /// ``statesSeen`` minus ``beforeLastLevel``'s.
    package var lastLevelStates: [UInt64] = []

    /// Creates an empty report.
    /// - Parameter strategy: How the sequences are chosen.
    public init(strategy: String) {
        self.strategy = strategy
    }

    /// The summary, then each failure with its sequence.
    public var description: String {
        var lines = [strategy,
                     "sequences tried: \(sequencesTried), events: \(eventsPerformed), states seen: \(statesSeen), "
                     + "failing sequences: \(failingSequences)"]
        if let stoppedAt { lines.append("stopped after \(stoppedAt)") }
        if failures.isEmpty { lines.append("no invariant broke") }
        for failure in failures { lines.append(failure.description) }
        return lines.joined(separator: "\n") + "\n"
    }
}
