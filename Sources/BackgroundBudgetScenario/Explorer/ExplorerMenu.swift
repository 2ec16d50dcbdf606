import BackgroundBudget

/// The events an explorer chooses from, each with a weight for random walks.
///
/// The exhaustive search tries every entry at every depth; a random walk picks entries in proportion
/// to their weights. ``standard(for:)`` covers what a user and the system do to a few apps.
public struct ExplorerMenu: Sendable, Hashable {
    /// One choice.
    public struct Entry: Sendable, Hashable {
        /// The event.
        public var event: ExplorerEvent
        /// How often a random walk picks it, relative to the others (at least 1).
        public var weight: Int

        /// Creates an entry.
        /// - Parameters:
        ///   - event: The event.
        ///   - weight: Its weight; 1 by default.
        public init(_ event: ExplorerEvent, weight: Int = 1) {
            self.event = event
            self.weight = weight
        }
    }

    /// The entries, in the order the exhaustive search tries them.
    public let entries: [Entry]
    /// The sum of the weights.
    let totalWeight: UInt64

    /// Creates a menu.
    /// - Parameter entries: The choices.
    /// - Throws: ``ExplorerError`` when there is no entry, a weight is below 1, or an event cannot be
    ///   written to a scenario file (``ExplorerEvent/isExplorable``).
    public init(_ entries: [Entry]) throws(ExplorerError) {
        guard !entries.isEmpty else { throw ExplorerError.emptyMenu }
        for (index, entry) in entries.enumerated() {
            guard entry.weight >= 1, entry.weight <= 1_000_000 else { throw ExplorerError.badWeight(index: index, weight: entry.weight) }
            guard entry.event.isExplorable else { throw ExplorerError.unexplorableEvent(index: index, entry.event.description) }
        }
        self.entries = entries
        totalWeight = entries.reduce(0) { $0 + UInt64($1.weight) }
    }

    /// The standard menu for some apps: opening them (often), Home (often), switching, an
    /// interruption and its answers, a purge, the app-switcher swipe and a system termination, a
    /// silent push, a location event and a fetch launch for each app; memory pressure and its relief;
    /// Background App Refresh, Low Power Mode, network, power and idleness going on and off; and waits
    /// of 1 s, 10 s, 1 min and 10 min.
    /// - Parameter apps: The apps' identifiers.
    /// - Returns: The menu.
    public static func standard(for apps: [AppID]) -> ExplorerMenu {
        var entries: [Entry] = []
        for app in apps {
            entries.append(Entry(.act(.open(app)), weight: 6))
            if apps.count > 1 { entries.append(Entry(.act(.switchTo(app)), weight: 2)) }
            entries += [Entry(.act(.purge(app)), weight: 2), Entry(.act(.killFromAppSwitcher(app))),
                        Entry(.act(.terminate(app, reason: .system))),
                        Entry(.act(.deliver(app, .silentPush))), Entry(.act(.deliver(app, .significantLocationChange))),
                        Entry(.act(.launchInBackground(app, reason: .backgroundFetch)))]
        }
        entries += [Entry(.act(.home), weight: 6), Entry(.act(.beginInterruption), weight: 2),
                    Entry(.act(.dismissInterruption)), Entry(.act(.answerInterruption)),
                    Entry(.act(.setMemoryCapacity(bytes: 120_000_000))),
                    Entry(.act(.setMemoryCapacity(bytes: 1_000_000_000_000)))]
        for flag in [true, false] {
            entries += [Entry(.act(.setBackgroundAppRefresh(enabled: flag, app: nil))), Entry(.act(.setLowPowerMode(flag))),
                        Entry(.act(.setNetwork(flag))), Entry(.act(.setExternalPower(flag))), Entry(.act(.setDeviceIdle(flag)))]
        }
        entries += [Entry(.wait(.seconds(1)), weight: 3), Entry(.wait(.seconds(10)), weight: 3),
                    Entry(.wait(.seconds(60)), weight: 2), Entry(.wait(.seconds(600)))]
        // Every entry above is explorable and weighted, so the menu is valid.
        return (try? ExplorerMenu(entries)) ?? ExplorerMenu(unchecked: entries)
    }

    private init(unchecked entries: [Entry]) {
        self.entries = entries
        totalWeight = entries.reduce(0) { $0 + UInt64($1.weight) }
    }

    /// Picks an entry in proportion to the weights.
    func pick(using random: inout SplitMix64) -> ExplorerEvent {
        var roll = random.next(below: totalWeight)
        for entry in entries {
            if roll < UInt64(entry.weight) { return entry.event }
            roll -= UInt64(entry.weight)
        }
        return entries[entries.count - 1].event
    }
}

/// Why an explorer could not be set up.
public enum ExplorerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The menu has no entry.
    case emptyMenu
    /// An entry's weight is below 1 or above 1,000,000.
    case badWeight(index: Int, weight: Int)
    /// An entry's event cannot be written to a scenario file, or is a wait of no time.
    case unexplorableEvent(index: Int, String)
    /// An invariant name or parameter that the command line does not know.
    case unknownInvariant(String, known: [String])

    /// What was wrong, and where.
    public var description: String {
        switch self {
        case .emptyMenu: "the explorer's menu has no event"
        case .badWeight(let index, let weight): "menu entry \(index) has weight \(weight); weights are whole numbers from 1 to 1000000"
        case .unexplorableEvent(let index, let event):
            "menu entry \(index) (\(event)) cannot be explored: waits must be positive, and tasks, submissions, notifications and cancellations belong in a behaviour"
        case .unknownInvariant(let name, let known): "unknown invariant '\(name)'; expected one of \(known.joined(separator: ", "))"
        }
    }
}
