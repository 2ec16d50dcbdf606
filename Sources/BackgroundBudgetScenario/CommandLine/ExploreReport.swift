import BackgroundBudgetCore
import BackgroundBudgetExplorer

/// What `bgbudget explore` found, in the form its `--report` file holds and `bgbudget merge` reads:
/// every seed's walks and what they found, the exhaustive search's counts, the states its last level
/// reached first and what it found, each failure shrunk. Nothing in it depends on the wall clock, the
/// number of threads or the order the work was done in (only a search stopped by its time limit or
/// Ctrl-C is not deterministic), so the reports of the shards of an exploration merge into the report
/// of the exploration in one piece, byte for byte (``merged(_:)``).
struct ExploreReport: Hashable {
    /// The `format` member of the file.
    static let format = "bgbudget-explore-report"
    /// The version this build writes and reads.
    static let version = 1

    /// What every shard of one exploration must have alike.
    struct Setup: Hashable {
        /// The scenario file as the command line named it.
        var file: String
        /// The FNV-1a 64-bit hash of the file's bytes, in hexadecimal.
        var digest: String
        /// How many apps the scenario has, and how many events the menu.
        var apps: Int
        var menuEvents: Int
        /// The invariants' names, for the header.
        var invariants: [String]
        /// The `--invariant` and `--weight` values, in order.
        var invariantOptions: [String]
        var weights: [String]
        /// The random walks: how many seeds (`nil` for none), the first, sequences per seed, events per sequence.
        var seeds: Int?
        var firstSeed: UInt64
        var sequences: Int
        var length: Int
        /// The exhaustive search's depth, or `nil` for none.
        var depth: Int?
    }

    /// One failure, shrunk.
    struct Find: Hashable {
        var invariant: String
        var app: String?
        var message: String
        /// The shrunk sequence's events, as the report prints them.
        var events: [String]
        var failingEvent: Int
        var foundLength: Int
        /// The shrunk sequence's measure, by which the smallest of a group's minima is chosen.
        var measure: Explorer.ShrinkMeasure
        /// Where the exhaustive search found it; `nil` for random walks.
        var foundAt: ExplorerFindOrder?
        var scenarioFile: String

        /// The group it belongs to: one invariant breaking for one app.
        var group: String { invariant + "\u{0}" + (app ?? "") }

        /// Whether this minimum is smaller than `other`: by the measure, then by its events' words.
        func isSmaller(than other: Find) -> Bool {
            if measure != other.measure { return measure < other.measure }
            return events.lexicographicallyPrecedes(other.events)
        }

        /// `dataSaved broke at event 3 of 3 (purge com.example.notes), shrunk from 5 events: …` and
        /// the numbered events, as ``ExplorerFailure/description`` prints them.
        var description: String {
            let event = events.indices.contains(failingEvent) ? " (\(events[failingEvent]))" : ""
            var lines = ["\(invariant) broke at event \(failingEvent + 1) of \(events.count)\(event), "
                         + "shrunk from \(foundLength) events: \(message)"]
            lines += events.enumerated().map { "  \($0 + 1). \($1)" }
            return lines.joined(separator: "\n")
        }
    }

    /// One seed's random walks.
    struct Walk: Hashable {
        /// The seed's place among the seeds, from 0.
        var offset: Int
        var seed: UInt64
        var sequencesTried: Int
        var find: Find?
    }

    /// The exhaustive search, or a shard's part of it.
    struct Exhaustive: Hashable {
        /// What it had done before its last level (every shard does it alike).
        var before: ExplorerCounts
        /// The last level's part: sequences tried, events performed, failing sequences.
        var lastSequences = 0
        var lastEvents = 0
        var lastFailing = 0
        /// How many states the last level reached first.
        var lastStateCount = 0
        /// Those states, sorted, each once: kept by a shard's report alone (its shards' union is the
        /// count of the whole), so a deep search's report stays small.
        var lastStates: [UInt64] = []
        /// The first failure of each invariant and app, in the order the search found them.
        var finds: [Find] = []

        var sequencesTried: Int { before.sequencesTried + lastSequences }
        var failingSequences: Int { before.failingSequences + lastFailing }
        var statesSeen: Int { before.statesSeen + lastStateCount }
    }

    var setup: Setup
    /// The shard (`index` from 0) for a shard's report; `nil` for the whole exploration.
    var shard: ExplorerPartition?
    /// The seeds run, by place.
    var walks: [Walk] = []
    /// The exhaustive search, if it ran.
    var exhaustive: Exhaustive?
    /// Why the exploration stopped short (`stopped at the time limit of 5 min`, `interrupted (Ctrl-C)`),
    /// or `nil` when it finished.
    var stopped: String?
    /// Whether it was Ctrl-C that stopped it.
    var interrupted = false

    /// The places of the seeds this report's shard runs.
    var plannedSeeds: LazyMapCollection<Range<Int>, Int> {
        // The places `part.owns` (`place % count == index`), computed, not listed: a run may plan a
        // hundred million seeds.
        let part = shard ?? .whole
        let seeds = setup.seeds ?? 0
        let owned = seeds > part.index ? (seeds - part.index + part.count - 1) / part.count : 0
        return (0..<owned).lazy.map { part.index + $0 * part.count }
    }

    /// The failures grouped by invariant and app, each group in the order first found (walks by seed,
    /// then the exhaustive search), each with its smallest minimum.
    var groups: [Group] {
        var groups: [Group] = []
        func add(_ find: Find, seed: UInt64?) {
            if let index = groups.firstIndex(where: { $0.minimum.group == find.group }) {
                groups[index].add(find, seed: seed)
            } else {
                groups.append(Group(find, seed: seed))
            }
        }
        for walk in walks { if let find = walk.find { add(find, seed: walk.seed) } }
        for find in exhaustive?.finds ?? [] { add(find, seed: nil) }
        return groups
    }

    /// The finds of one invariant breaking for one app.
    struct Group {
        /// The smallest of the finds' minima.
        private(set) var minimum: Find
        /// The seeds that found it, in order.
        private(set) var seeds: [UInt64] = []
        /// Whether the exhaustive search found it.
        private(set) var exhaustive = false
        /// How many distinct minima the finds shrank to.
        private(set) var minima: Set<[String]> = []

        init(_ find: Find, seed: UInt64?) {
            minimum = find
            add(find, seed: seed)
        }

        mutating func add(_ find: Find, seed: UInt64?) {
            if let seed { seeds.append(seed) } else { exhaustive = true }
            minima.insert(find.events)
            if find.isSmaller(than: minimum) { minimum = find }
        }

        /// `noKillWithOpenTask for com.example.leaky: found by 3 seeds (1, 2, 5) and the exhaustive
        /// search, shrunk to 2 minima; the smallest:`.
        var headline: String {
            let shown = seeds.prefix(12).map(String.init).joined(separator: ", ")
            let more = seeds.count > 12 ? " and \(seeds.count - 12) more" : ""
            var by: [String] = []
            if !seeds.isEmpty { by.append("\(seeds.count) seed\(seeds.count == 1 ? "" : "s") (\(shown)\(more))") }
            if exhaustive { by.append("the exhaustive search") }
            let finds = seeds.count + (exhaustive ? 1 : 0)
            return "\(minimum.invariant)\(minimum.app.map { " for \($0)" } ?? ""): found by \(by.joined(separator: " and ")), "
                + (minima.count == 1 ? "\(finds == 1 ? "shrunk" : "each find shrunk to the same minimum"):"
                   : "shrunk to \(minima.count) minima; the smallest:")
        }
    }
}
