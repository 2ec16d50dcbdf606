import BackgroundBudgetCore
import BudgetTime
import BackgroundBudgetRuntime

/// The events an explorer chooses from, each with a weight for random walks.
///
/// The exhaustive search tries every entry at every depth; a random walk picks entries in proportion
/// to their weights. `standard(for:)` covers what a user and the system do to a few apps.
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

    /// The standard menu for some apps: for each app, opening it (often), switching to it, a purge,
    /// the app-switcher swipe, a system termination, a silent push, a location event, a fetch launch,
    /// and its own Background App Refresh switch going off and on; for the device, Home (often), an
    /// interruption and its answers, memory pressure and its relief, a reboot, and Background App
    /// Refresh, its restriction, Low Power Mode, a critically low battery, the network, power,
    /// idleness and system load going on and off; waits of 1 s, 10 s, 1 min and 10 min; and
    /// ``ExplorerEvent/advance`` (often), which reaches what is armed hours ahead.
    /// - Parameter apps: The apps' identifiers.
    /// - Returns: The menu.
    public static func standard(for apps: [AppID]) -> ExplorerMenu {
        standard(for: apps.map { AppManifest(id: $0) })
    }

    /// The standard menu for some apps, with what their manifests add: for a scene-based app, opening
    /// another window (when it supports several), closing its first two scenes and reclaiming the
    /// first; for each background mode an app declares, the event it is woken for (a VoIP push, a
    /// Bluetooth or accessory event, a Newsstand download, a location relaunch).
    /// - Parameter manifests: The apps' manifests.
    /// - Returns: The menu.
    public static func standard(for manifests: [AppManifest]) -> ExplorerMenu {
        var entries: [Entry] = []
        for manifest in manifests {
            let app = manifest.id
            entries.append(Entry(.act(.open(app)), weight: 6))
            if manifests.count > 1 { entries.append(Entry(.act(.switchTo(app)), weight: 2)) }
            entries += [Entry(.act(.purge(app)), weight: 2), Entry(.act(.killFromAppSwitcher(app))),
                        Entry(.act(.terminate(app, reason: .system))),
                        Entry(.act(.deliver(app, .silentPush))), Entry(.act(.deliver(app, .significantLocationChange))),
                        Entry(.act(.launchInBackground(app, reason: .backgroundFetch)))]
            entries += modeEvents(of: manifest).map { Entry(.act(.deliver(app, $0))) }
            if let scenes = manifest.sceneManifest {
                if scenes.supportsMultipleScenes { entries.append(Entry(.act(.openScene(app)))) }
                entries += [Entry(.act(.closeScene(app, scene: "scene-1"))), Entry(.act(.reclaimScene(app, scene: "scene-1")))]
                if scenes.supportsMultipleScenes { entries.append(Entry(.act(.closeScene(app, scene: "scene-2")))) }
            }
            for flag in [false, true] { entries.append(Entry(.act(.setBackgroundAppRefresh(enabled: flag, app: app)))) }
        }
        entries += [Entry(.act(.home), weight: 6), Entry(.act(.beginInterruption), weight: 2),
                    Entry(.act(.dismissInterruption)), Entry(.act(.answerInterruption)),
                    Entry(.act(.setMemoryCapacity(bytes: 120_000_000))),
                    Entry(.act(.setMemoryCapacity(bytes: 1_000_000_000_000))), Entry(.act(.reboot))]
        for flag in [true, false] {
            entries += [Entry(.act(.setBackgroundAppRefresh(enabled: flag, app: nil))), Entry(.act(.setLowPowerMode(flag))),
                        Entry(.act(.setNetwork(flag))), Entry(.act(.setExternalPower(flag))), Entry(.act(.setDeviceIdle(flag))),
                        Entry(.act(.setBackgroundAppRefreshRestricted(flag))), Entry(.act(.setCriticallyLowBattery(flag))),
                        Entry(.act(.setSystemUnderLoad(flag)))]
        }
        entries += [Entry(.wait(.seconds(1)), weight: 3), Entry(.wait(.seconds(10)), weight: 3),
                    Entry(.wait(.seconds(60)), weight: 2), Entry(.wait(.seconds(600))), Entry(.advance, weight: 3)]
        // Every entry above is explorable and weighted, so the menu is valid.
        return (try? ExplorerMenu(entries)) ?? ExplorerMenu(unchecked: entries)
    }

    /// The events a manifest's background modes are woken for.
    private static func modeEvents(of manifest: AppManifest) -> [BackgroundEvent] {
        let modes = manifest.backgroundModes
        var events: [BackgroundEvent] = []
        if modes.contains(.voip) { events.append(.voipPush) }
        if modes.contains(.bluetoothCentral) { events.append(.bluetooth(.central)) }
        if modes.contains(.bluetoothPeripheral) { events.append(.bluetooth(.peripheral)) }
        if modes.contains(.externalAccessory) { events.append(.accessory) }
        if modes.contains(.newsstandContent) { events.append(.newsstandDownload) }
        return events
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
