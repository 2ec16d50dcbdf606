import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// Where an exhaustive search found a sequence, in the order it tries them: the sequence's length
/// (its level), its prefix's place in that level's frontier, and the place of its last event in the
/// menu. Every part of a partitioned search (``ExplorerPartition``) computes the same frontiers, so
/// the places are the same whichever part found the sequence, and the smallest is the one a search
/// in one piece finds first.
package struct ExplorerFindOrder: Sendable, Hashable, Comparable {
    /// The sequence's length minus one.
    package var level: Int
    /// The prefix's place in the frontier of that level.
    package var prefix: Int
    /// The last event's place in the menu.
    package var entry: Int

    package init(level: Int, prefix: Int, entry: Int) {
        self.level = level
        self.prefix = prefix
        self.entry = entry
    }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.level, lhs.prefix, lhs.entry) < (rhs.level, rhs.prefix, rhs.entry)
    }
}

/// The failures one exploration found, one per invariant and app: the first found of each, to be
/// shrunk when the exploration ends.
struct ExplorerFinds {
    private let explorer: Explorer
    private var found: [(invariant: String, app: AppID?, events: [ExplorerEvent], order: ExplorerFindOrder?)] = []

    init(_ explorer: Explorer) {
        self.explorer = explorer
    }

    /// Whether nothing was found.
    var isEmpty: Bool { found.isEmpty }

    /// Records a failing sequence unless its invariant already broke for the same app.
    /// - Parameters:
    ///   - invariant: The invariant that broke.
    ///   - message: How it broke.
    ///   - events: The sequence.
    ///   - session: The session that ran it, to tell the app the failure is about.
    ///   - order: Where the exhaustive search found it; `nil` for random walks.
    mutating func record(_ invariant: String, message: String, _ events: [ExplorerEvent], in session: ExplorerSession,
                         order: ExplorerFindOrder? = nil) {
        let app = explorer.app(breaking: invariant, message: message, in: session.system)
        guard !found.contains(where: { $0.invariant == invariant && $0.app == app }) else { return }
        found.append((invariant, app, events, order))
    }

    /// Each failure shrunk, in the order found, with its app and where it was found.
    func shrunk() -> [ExplorerFailure] {
        found.map { find in
            var failure = explorer.shrink(find.events, invariant: find.invariant)
            failure.app = find.app
            failure.foundAt = find.order
            return failure
        }
    }
}

extension Explorer {
    /// The app an invariant broke for: the app of the trace event at which the invariant's watch first
    /// reports a break (for invariants that read the trace event by event), or else the target's app
    /// whose identifier comes first in the message; `nil` when neither tells.
    /// - Parameters:
    ///   - invariant: The invariant's name.
    ///   - message: How it broke.
    ///   - system: The system that ran the failing sequence.
    /// - Returns: The app, or `nil`.
    func app(breaking invariant: String, message: String, in system: BackgroundSystem) -> AppID? {
        if let makeWatch = invariants.first(where: { $0.name == invariant })?.makeWatch {
            let watch = makeWatch()
            for event in system.recordedEvents(after: 0) where watch(event) != nil { return event.app }
        }
        return Self.app(mentionedIn: message, among: target.appIDs)
    }

    /// The app whose identifier comes first in `message`, the longest where two start at one place.
    static func app(mentionedIn message: String, among apps: [AppID]) -> AppID? {
        var best: (start: String.Index, length: Int, app: AppID)?
        for app in apps {
            guard let range = message.firstRange(of: app.rawValue) else { continue }
            if let current = best, current.start < range.lowerBound
                || (current.start == range.lowerBound && current.length >= app.rawValue.count) { continue }
            best = (range.lowerBound, app.rawValue.count, app)
        }
        return best?.app
    }
}
