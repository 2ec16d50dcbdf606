import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// Observes the power state from its launch, as app code, and counts what it heard.
final class PowerWatcher: ApplicationDelegate {
    let heard = LockedValue<[String]>([])
    let clock: VirtualClock

    init(clock: VirtualClock) {
        self.clock = clock
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        let clock = clock
        application.notificationCenter.addObserver(forName: .processInfoPowerStateDidChange, object: nil, queue: nil) { [heard] _ in
            heard.withLock { $0.append("\(clock.now) lowPower=\(application.isLowPowerModeEnabled)") }
        }
    }
}

/// Observers are the app's code: frozen while it is suspended, never run after its process ends, gone
/// with that process; removal; the notifications as an asynchronous sequence.
@Suite struct NotificationProcessTests {
    let clock = VirtualClock()

    @Test func aSuspendedAppsObserverRunsWhenTheAppNextRunsAndARunningOneAtOnce() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let watcher = PowerWatcher(clock: clock)
        let app = try system.install(AppManifest(id: "news"), delegate: watcher)
        try system.open(app)
        clock.advance(to: .seconds(5))
        system.setLowPowerMode(true)
        clock.advance(to: .seconds(10))
        try system.pressHome()                    // suspended at once
        clock.advance(to: .seconds(20))
        system.setLowPowerMode(false)             // frozen: nothing runs now
        #expect(watcher.heard.withLock { $0 } == ["t=5.000s lowPower=true"])
        clock.advance(to: .seconds(30))
        try system.open(app)                      // it runs as the app is resumed
        #expect(watcher.heard.withLock { $0 } == ["t=5.000s lowPower=true", "t=30.000s lowPower=false"])
        #expect(system.trace.events.filter { $0.kind.tag == .notificationObserved }.map(\.time) == [.seconds(5), .seconds(30)])
    }

    @Test func noObserverRunsAfterItsProcessEndsAndARelaunchStartsWithNone() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let watcher = PowerWatcher(clock: clock)
        let app = try system.install(AppManifest(id: "news"), delegate: watcher)
        try system.open(app)
        clock.advance(to: .seconds(10))
        try system.pressHome()
        system.setLowPowerMode(true)              // held for the suspended process…
        clock.advance(to: .seconds(20))
        try system.purge(app)                     // …which ends: dropped, and counted
        #expect(system.trace.events.filter { $0.kind.tag == .workDropped }.map(\.jsonLine) == [
            #"{"t":20.000,"app":"news","event":"workDropped","count":1}"#,
        ])
        clock.advance(to: .seconds(30))
        try system.open(app)                      // a new process: one observer, its own
        system.setLowPowerMode(false)
        #expect(watcher.heard.withLock { $0 } == ["t=30.000s lowPower=false"])
        #expect(system.trace.events.filter { $0.kind.tag == .notificationObserved }.map(\.jsonLine) == [
            #"{"t":30.000,"app":"news","event":"notificationObserved","name":"NSProcessInfoPowerStateDidChangeNotification","count":1}"#,
        ])
    }

    @Test func aRemovedObserverRunsNoMoreAndTestObserversStayForEveryLaunch() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let app = try system.install(AppManifest(id: "news"))
        let heard = LockedValue<[String]>([])
        let center = app.notificationCenter
        let kept = center.addObserver(forName: Application.didBecomeActiveNotification, object: app, queue: nil) { _ in
            heard.withLock { $0.append("kept") }
        }
        let removed = center.addObserver(forName: Application.didBecomeActiveNotification, object: nil, queue: nil) { _ in
            heard.withLock { $0.append("removed") }
        }
        let other = try system.install(AppManifest(id: "other"))
        center.addObserver(forName: Application.didBecomeActiveNotification, object: other, queue: nil) { _ in
            heard.withLock { $0.append("another app's object") }
        }
        try system.open(app)
        center.removeObserver(removed)
        center.removeObserver(removed)            // twice: nothing
        try system.pressHome()
        try system.purge(app)
        try system.open(app)                      // a relaunch: the test's observer is still there
        #expect(heard.withLock { $0 } == ["kept", "removed", "kept"])
        center.removeObserver(kept)
        try system.pressHome()
        try system.open(app)
        #expect(heard.withLock { $0 }.count == 3)
        #expect(system.trace.events.filter { $0.kind.tag == .notificationObserved }.map(\.jsonLine).first ==
            #"{"t":0.000,"app":"news","event":"notificationObserved","name":"UIApplicationDidBecomeActiveNotification","count":2}"#)
    }

    @Test func anObserverOfACallbackTheWatchdogCutsShortNeverRuns() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let heard = LockedValue<[String]>([])
        let app = try system.install(AppManifest(id: "news"), delegate: ScriptedDelegate { callback, app in
            if callback == .willFinishLaunching {
                app.notificationCenter.addObserver(forName: Application.didEnterBackgroundNotification, object: nil, queue: nil) { _ in
                    heard.withLock { $0.append("didEnterBackground") }
                }
            }
            if callback == .didEnterBackground { app.simulateWork(for: .seconds(8)) }   // past the 5 s limit
        })
        try system.open(app)
        clock.advance(to: .seconds(10))
        try system.pressHome()
        clock.advance(to: .seconds(30))
        #expect(heard.withLock { $0 }.isEmpty)
        #expect(system.trace.events.filter { $0.kind.tag == .exit }.map(\.time) == [.seconds(15)])
        #expect(!system.trace.events.contains { $0.kind.tag == .notificationObserved })
    }

    @Test func anObserverGivenAQueueOfTheAppRunsThereAsWorkOfItsProcess() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let heard = LockedValue<[String]>([])
        let app = try system.install(AppManifest(id: "news"), delegate: ScriptedDelegate { callback, app in
            guard callback == .willFinishLaunching else { return }
            let io = app.makeQueue(label: "io")
            app.notificationCenter.addObserver(forName: Application.willResignActiveNotification, object: nil, queue: io) { _ in
                heard.withLock { $0.append("\(Application.current === app)") }
            }
        })
        try system.open(app)
        clock.advance(to: .seconds(10))
        try system.pressHome()
        #expect(heard.withLock { $0 } == ["true"])
    }

    @Test func anAppTaskIteratingTheSequenceIsFrozenWhileTheAppIsSuspended() throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let heard = LockedValue<[String]>([])
        let clock = clock
        let app = try system.install(AppManifest(id: "news"), delegate: ScriptedDelegate { callback, app in
            guard callback == .didFinishLaunching else { return }
            let changes = app.notificationCenter.notifications(named: .processInfoPowerStateDidChange)
            app.task {
                for await _ in changes { heard.withLock { $0.append("\(clock.now) \(app.isLowPowerModeEnabled)") } }
            }
        })
        try system.open(app)
        clock.advance(to: .seconds(5))
        system.setLowPowerMode(true)
        try system.pressHome()
        clock.advance(to: .seconds(20))
        system.setLowPowerMode(false)
        #expect(heard.withLock { $0 } == ["t=5.000s true"])
        clock.advance(to: .seconds(30))
        try system.open(app)
        #expect(heard.withLock { $0 } == ["t=5.000s true", "t=30.000s false"])
    }

    @Test func anAppWithNoObserversHasNoNotificationEntriesInItsTrace() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let app = try system.install(AppManifest(id: "news"))
        try system.open(app)
        try system.pressHome()
        system.setLowPowerMode(true)
        #expect(!system.trace.events.contains { $0.kind.tag == .notificationObserved || $0.kind.tag == .workDropped })
    }

    @Test func theNotificationsAsAnAsyncSequenceBufferEachPost() async throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let app = try system.install(AppManifest(id: "news"))
        var iterator = app.notificationCenter.notifications(named: Application.didEnterBackgroundNotification).makeAsyncIterator()
        try system.open(app)
        clock.advance(to: .seconds(10))
        try system.pressHome()
        clock.advance(to: .seconds(20))
        try system.open(app)
        try system.pressHome()
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first?.name == Application.didEnterBackgroundNotification)
        #expect((first?.object as? Application) === app)
        #expect(second?.name == Application.didEnterBackgroundNotification)
    }

    @Test func aSequenceAppCodeAskedForEndsWithItsProcess() async throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let made = LockedValue<AsyncStream<AppNotification>?>(nil)
        let app = try system.install(AppManifest(id: "news"), delegate: ScriptedDelegate { callback, app in
            if callback == .didFinishLaunching {
                made.withLock { $0 = app.notificationCenter.notifications(named: Application.willResignActiveNotification) }
            }
        })
        try system.open(app)
        try system.pressHome()
        try system.purge(app)
        let stream = try #require(made.withLock { $0 })
        var names: [String] = []
        for await notification in stream { names.append(notification.name.rawValue) }
        #expect(names == ["UIApplicationWillResignActiveNotification"])
    }
}

/// A saved system state carries each process's observers: restored, the observers are those of the
/// process the state was saved in, not of a later one.
@Suite struct NotificationSnapshotTests {
    @Test func aRestoredStateHasTheObserversOfItsOwnProcess() throws {
        let clock = VirtualClock()
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        system.keepRestorableCells()
        let watcher = PowerWatcher(clock: clock)
        let app = try system.install(AppManifest(id: "news"), delegate: watcher)
        try system.open(app)
        try system.pressHome()
        let saved = try #require(system.saveState())
        try system.purge(app)
        try system.open(app)                     // a second process adds its own observer
        system.restore(saved)
        try system.open(app)                     // the first process, resumed: its one observer runs
        system.setLowPowerMode(true)
        #expect(watcher.heard.withLock { $0 } == ["t=0.000s lowPower=true"])
    }
}
