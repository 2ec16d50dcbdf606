import BackgroundBudget
import Testing
import BackgroundBudgetTestKit

@Suite struct ScriptedDelegateTests {
    let clock = VirtualClock()

    @Test func itRecordsEachLifecycleCallbackWithItsInstantAndTheAppsState() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate(clock: clock)
        let app = try system.install(AppManifest(id: "news"), delegate: delegate)
        try system.open(app)
        clock.advance(by: .seconds(5))
        try system.pressHome()

        #expect(delegate.callbacks == [.willFinishLaunching, .didFinishLaunching, .didBecomeActive,
                                       .willResignActive, .didEnterBackground])
        #expect(delegate.states == [.inactive, .inactive, .active, .active, .background])
        #expect(delegate.times(of: .lifecycle(.didEnterBackground)) == [.seconds(5)])
        #expect(delegate.launchOptions == [LaunchOptions()])
        #expect(delegate.records.allSatisfy { $0.app == "news" })
    }

    @Test func withoutAClockItStampsRecordsWithTheSystemsClock() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        clock.advance(by: .seconds(3))
        try system.open(try system.install(AppManifest(id: "news"), delegate: delegate))
        #expect(delegate.times(of: .lifecycle(.didBecomeActive)) == [.seconds(3)])
    }

    @Test func aHandlerRunsForItsCallbackOnlyAndMayCallBackIntoTheApp() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        let began = LockedValue(0)
        delegate.on(.didEnterBackground) { app in
            began.withLock { $0 += 1 }
            app.beginBackgroundTask(withName: "upload")
        }
        let any = LockedValue<[AppCallback]>([])
        delegate.onAnyCallback { callback, _ in any.withLock { $0.append(callback) } }
        let app = try system.install(AppManifest(id: "news"), delegate: delegate)
        try system.open(app)
        try system.pressHome()

        #expect(began.withLock { $0 } == 1)
        #expect(any.withLock { $0 } == delegate.callbacks)
        #expect(app.applicationState == .background)   // the task keeps it running
        #expect(system.trace.kinds(of: .backgroundTaskBegan) == [.backgroundTaskBegan(BackgroundTaskIdentifier(rawValue: 1), name: "upload")])
    }

    @Test func eventsNotificationsAndFetchesAreRecordedAndScripted() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.onEvent { app, event in
            if event == .silentPush { app.simulateWork(for: .seconds(1)) }
        }
        delegate.completeFetches(with: .newData, after: .seconds(2))
        delegate.on(.didFinishLaunching) { $0.setMinimumBackgroundFetchInterval(.minimum) }
        let app = try system.install(AppManifest(id: "news", backgroundModes: [.remoteNotification, .fetch]), delegate: delegate)
        try system.open(app)
        system.post(.locale("fr_FR"))
        try system.pressHome()
        #expect(system.deliver(.silentPush, to: app) == .delivered)
        clock.advance(by: .seconds(1_200))

        #expect(delegate.notifications == [.locale("fr_FR")])
        #expect(delegate.events == [.silentPush])
        #expect(delegate.records(of: .event(.silentPush)).map(\.state) == [.background])
        let fetch = try #require(delegate.times(of: .fetch).first)
        #expect(system.trace.kinds(of: .fetchCompleted) == [.fetchCompleted(.newData)])
        #expect(system.trace.instants(of: .fetchCompleted) == [fetch + .seconds(2)])
        #expect(delegate.received.prefix(4) == [.lifecycle(.willFinishLaunching), .lifecycle(.didFinishLaunching),
                                               .lifecycle(.didBecomeActive), .notification(.locale("fr_FR"))])
    }

    @Test func anUnscriptedFetchCompletesWithNoData() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { $0.setMinimumBackgroundFetchInterval(.minimum) }
        let app = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        clock.advance(by: .seconds(1_200))
        #expect(delegate.received.contains(.fetch))
        #expect(system.trace.kinds(of: .fetchCompleted, for: app.id) == [.fetchCompleted(.noData)])
        delegate.clearRecords()
        #expect(delegate.records.isEmpty)
    }
}
