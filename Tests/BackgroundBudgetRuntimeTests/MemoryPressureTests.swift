import Testing
import TestSupport
@testable import BackgroundBudget
@testable import BackgroundBudgetRuntime
@testable import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

extension ScriptedDelegate {
    /// A delegate that shrinks to the footprints given when it enters the background or is warned.
    static func shrinking(inBackgroundTo backgroundFootprint: Int? = nil, onWarningTo warningFootprint: Int? = nil) -> ScriptedDelegate {
        let delegate = ScriptedDelegate()
        if let backgroundFootprint { delegate.on(.didEnterBackground) { $0.setMemoryFootprint(backgroundFootprint) } }
        if let warningFootprint { delegate.on(.didReceiveMemoryWarning) { $0.setMemoryFootprint(warningFootprint) } }
        return delegate
    }
}

/// Memory pressure and jetsam, and notifications coalesced while suspended.
@Suite struct MemoryPressureTests {
    let clock = VirtualClock()
    let system: BackgroundSystem
    static let mb = 1_000_000

    init() {
        system = BackgroundSystem(clock: clock)
    }

    private func install(_ id: AppID, footprint: Int, delegate: ScriptedDelegate = ScriptedDelegate(), modes: BackgroundModes = []) throws -> Application {
        var manifest = AppManifest(id: id, backgroundModes: modes)
        manifest.memoryFootprint = footprint
        return try system.install(manifest, delegate: delegate)
    }

    private func exits() -> [String] {
        system.trace.events.filter { $0.eventName == "exit" }.map { "\($0.app) \($0.reason ?? "")" }
    }

    @Test func suspendedAppsArePurgedFirstLargestThenLeastRecentlyUsed() throws {
        let a = try install("a", footprint: 100 * Self.mb)
        let b = try install("b", footprint: 300 * Self.mb)
        let c = try install("c", footprint: 100 * Self.mb)
        let d = try install("d", footprint: 200 * Self.mb)
        for app in [a, b, c, d] {
            try system.open(app)
            clock.advance(by: .seconds(10))
        }
        try system.pressHome()                                 // all four suspended: 700 MB
        system.setMemoryCapacity(450 * Self.mb)
        #expect(exits() == ["b memoryPressure"])                // the largest, 300 MB
        system.setMemoryCapacity(150 * Self.mb)
        // d (200 MB) next; then a and c tie at 100 MB and a was used longer ago.
        #expect(exits() == ["b memoryPressure", "d memoryPressure", "a memoryPressure"])
        #expect(c.applicationState == .suspended)
        #expect(system.memoryInUse == 100 * Self.mb)
        #expect(!system.trace.events.contains { $0.callback == .didReceiveMemoryWarning })
    }

    @Test func anAppThatShrinksInTheBackgroundIsPurgedLater() throws {
        let lean = try install("lean", footprint: 400 * Self.mb, delegate: ScriptedDelegate.shrinking(inBackgroundTo: 20 * Self.mb))
        let fat = try install("fat", footprint: 100 * Self.mb)
        try system.open(lean)
        try system.open(fat)
        try system.pressHome()
        #expect(lean.memoryFootprint == 20 * Self.mb)
        system.setMemoryCapacity(100 * Self.mb)
        #expect(exits() == ["fat memoryPressure"])
    }

    @Test func runningAppsAreWarnedThenBackgroundAppsKilledByBandTheForegroundLast() throws {
        let music = try install("music", footprint: 300 * Self.mb, modes: [.audio])
        let maps = try install("maps", footprint: 200 * Self.mb, modes: [.location])
        let game = try install("game", footprint: 400 * Self.mb, delegate: ScriptedDelegate.shrinking(onWarningTo: 350 * Self.mb))
        try system.open(music)
        try music.startPlayingAudio()
        try system.open(maps)
        try maps.startUpdatingLocation()
        try system.open(game)
        #expect(system.jetsamBand(of: music) == .audioAndAccessory)
        #expect(system.jetsamBand(of: maps) == .background)
        #expect(system.jetsamBand(of: game) == .foreground)
        system.setMemoryCapacity(600 * Self.mb)
        // Nothing suspended to purge: everyone is warned; the game shrinks to 350 MB (850 in use);
        // maps (background band) is killed first, then music (audio band) — the game, in front, survives.
        #expect(system.trace.events.filter { $0.callback == .didReceiveMemoryWarning }.map(\.app) == ["music", "maps", "game"])
        #expect(exits() == ["maps memoryPressure", "music memoryPressure"])
        #expect(game.applicationState == .active)
        #expect(system.memoryInUse == 350 * Self.mb)
    }

    @Test func warningsThatFreeEnoughSaveEveryone() throws {
        let app = try install("app", footprint: 500 * Self.mb, delegate: ScriptedDelegate.shrinking(onWarningTo: 100 * Self.mb))
        try system.open(app)
        system.setMemoryCapacity(200 * Self.mb)
        #expect(exits() == [])
        #expect(app.memoryFootprint == 100 * Self.mb)
        // A new episode warns again.
        app.setMemoryFootprint(300 * Self.mb)
        #expect(system.trace.events.filter { $0.callback == .didReceiveMemoryWarning }.count == 2)
    }

    @Test func launchingIntoAFullDevicePurgesOthers() throws {
        let old = try install("old", footprint: 300 * Self.mb)
        try system.open(old)
        try system.pressHome()
        system.setMemoryCapacity(400 * Self.mb)
        let new = try install("new", footprint: 200 * Self.mb)
        try system.open(new)
        #expect(exits() == ["old memoryPressure"])
        #expect(new.applicationState == .active)
    }

    @Test func notificationsForASuspendedAppAreCoalescedAndDeliveredFirst() throws {
        let delegate = ScriptedDelegate()
        let app = try install("app", footprint: Self.mb, delegate: delegate)
        try system.open(app)
        system.post(.orientation("portrait"))
        try system.pressHome()
        system.post(.orientation("landscapeLeft"))
        system.post(.batteryLevel(0.5))
        system.post(.orientation("landscapeRight"))
        system.post(.locale("fr_FR"))
        system.post(.batteryLevel(0.4))
        #expect(delegate.notifications == [.orientation("portrait")])
        try system.open(app)
        // One per kind, latest value, in the order the kinds first arrived, before willEnterForeground.
        #expect(delegate.received.filter { $0.kind == .notification || $0 == .lifecycle(.willEnterForeground) } == [
            .notification(.orientation("portrait")),
            .notification(.orientation("landscapeRight")), .notification(.batteryLevel(0.4)), .notification(.locale("fr_FR")),
            .lifecycle(.willEnterForeground),
        ])
        #expect(delegate.records(ofKind: .notification).dropFirst().allSatisfy { $0.state == .background })
        #expect(system.trace.count(of: .notificationQueued) == 5)
    }

    @Test func notificationsQueuedForAnAppThatIsPurgedAreDropped() throws {
        let delegate = ScriptedDelegate()
        let app = try install("app", footprint: Self.mb, delegate: delegate)
        try system.open(app)
        try system.pressHome()
        system.post(.significantTimeChange)
        try system.purge(app)
        try system.open(app)
        #expect(delegate.notifications.isEmpty)
    }
}

@Suite struct AppSwitcherTests {
    @Test func theSwitcherListsOpenedAppsMostRecentFirstUntilSwipedAway() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let mail = try system.install(AppManifest(id: "mail"))
        let maps = try system.install(AppManifest(id: "maps"))
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.remoteNotification]))
        for app in [mail, maps, news] {
            try system.open(app)
            clock.advance(by: .seconds(5))
        }
        try system.open(mail)                        // switching sends news to the background
        #expect(news.applicationState == .suspended)
        #expect(system.appSwitcher.map(\.id) == ["mail", "news", "maps"])
        try system.purge(news)                       // purged apps stay in the switcher
        #expect(system.appSwitcher.map(\.id) == ["mail", "news", "maps"])
        try system.killFromAppSwitcher(news)         // swiping a purged app removes it and blocks relaunch
        #expect(system.appSwitcher.map(\.id) == ["mail", "maps"])
        #expect(system.deliver(.silentPush, to: news) == .dropped(.killedByUser))
    }
}

@Suite struct MemoryAccountingTests {
    @Test func memoryInUseMatchesTheAppsInMemoryOverRandomSequences() throws {
        var random = SplitMix64(seed: 0x3E3)
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let apps = try (0..<5).map { index in
            var manifest = AppManifest(id: AppID(rawValue: "app\(index)"), backgroundModes: index == 0 ? [.audio] : [])
            manifest.memoryFootprint = Int(1 + random.next(below: 300)) * 1_000_000
            return try system.install(manifest)
        }
        for step in 0..<3_000 {
            let app = apps[Int(random.next(below: 5))]
            switch random.next(below: 8) {
            case 0, 1: try? system.open(app)
            case 2: try? system.pressHome()
            case 3: try? system.purge(app)
            case 4: try? system.killFromAppSwitcher(app)
            case 5: app.setMemoryFootprint(Int(random.next(below: 400)) * 1_000_000)
            case 6: system.setMemoryCapacity(random.next(below: 4) == 0 ? nil : Int(200 + random.next(below: 1_000)) * 1_000_000)
            default: try? app.startPlayingAudio()
            }
            clock.advance(by: .seconds(1))
            let (kept, recomputed) = system.state.withLock { ($0.core.memory.inUse, $0.core.memoryInUseRecomputed) }
            #expect(kept == recomputed, "step \(step)")
            if let capacity = system.memoryCapacity, system.state.withLock({ $0.core.memory.pendingWarnings == 0 }) {
                #expect(system.memoryInUse <= capacity, "step \(step): over capacity after pressure was relieved")
            }
        }
    }

    /// The kept purge order names the same victim as a scan of every app, under both orders within
    /// the band, through opens, Home, purges, kills, footprint changes (equal footprints included,
    /// so install order breaks ties) and capacity changes.
    @Test(arguments: [JetsamOrder.largestFootprint, .leastRecentlyUsed])
    func purgeOrderNamesTheVictimAScanWouldFind(order: JetsamOrder) throws {
        var random = SplitMix64(seed: 0x9A7 &+ UInt64(order.number))
        var policy = BudgetPolicy.iOS13
        policy.jetsamOrderWithinBand = order
        let clock = VirtualClock()
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let apps = try (0..<12).map { index in
            var manifest = AppManifest(id: AppID(rawValue: "app\(index)"), backgroundModes: index == 0 ? [.audio] : [])
            manifest.memoryFootprint = Int(1 + random.next(below: 4)) * 100_000_000
            return try system.install(manifest)
        }
        var purgesByPressure = 0
        for step in 0..<LongRun.cases(3_000, quick: 1_000) {
            let app = apps[Int(random.next(below: 12))]
            switch random.next(below: 8) {
            case 0, 1: try? system.open(app)
            case 2: try? system.pressHome()
            case 3: try? system.purge(app)
            case 4: try? system.killFromAppSwitcher(app)
            case 5: app.setMemoryFootprint(Int(random.next(below: 4)) * 100_000_000)
            case 6:
                let before = system.memoryInUse
                system.setMemoryCapacity(random.next(below: 3) == 0 ? nil : Int(300 + random.next(below: 1_200)) * 1_000_000)
                if system.memoryInUse < before { purgesByPressure += 1 }
            default: try? app.startPlayingAudio()
            }
            clock.advance(by: .seconds(1))
            let (kept, scanned) = system.state.withLock { state in
                state.core.purgeOrder.checkInvariants()
                return (state.core.purgeOrder.first, state.core.purgeVictimRecomputed)
            }
            #expect(kept == scanned, "step \(step)")
        }
        #expect(purgesByPressure > 10, "pressure purged apps \(purgesByPressure) times")
    }
}
