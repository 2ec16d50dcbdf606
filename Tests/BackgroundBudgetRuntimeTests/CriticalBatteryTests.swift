import Testing
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// A critically low battery, the first of Apple's runtime factors for background work [S59]: like
/// Low Power Mode it stops fetches, refresh and processing launches and silent-push wakes, and the
/// trace and explanations name it; unlike Low Power Mode it leaves the Background App Refresh status.
@Suite struct CriticalBatteryTests {
    let clock = VirtualClock()
    static let refreshID = "com.example.news.refresh"

    @Test func aCriticallyLowBatterySkipsFetchOpportunitiesAndSaysSoWithoutDenyingRefresh() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: ScriptedDelegate.fetcher(result: .newData))
        try system.open(news)
        try system.pressHome()
        guard let first = system.explainBackgroundFetch(of: news).blockers.lazy.compactMap({ if case .notBefore(let instant) = $0 { instant } else { nil } }).first else {
            Issue.record("no planned opportunity")
            return
        }
        system.setCriticallyLowBattery(true)
        #expect(system.trace.events.last?.jsonLine
            == #"{"t":0.000,"app":"(device)","event":"deviceChanged","name":"criticallyLowBattery","value":"on"}"#)
        #expect(news.backgroundRefreshStatus == .available)
        #expect(system.explainBackgroundFetch(of: news).blockers.contains(.criticallyLowBattery))
        clock.advance(to: first)
        #expect(system.trace.events.last { $0.app == news.id }?.kind == .fetchSkipped(.criticallyLowBattery))
        #expect(system.trace.instants(of: .fetchStarted).isEmpty)
        clock.advance(to: .seconds(3_000))
        system.setCriticallyLowBattery(false)
        #expect(!system.explainBackgroundFetch(of: news).blockers.contains(.criticallyLowBattery))
        clock.advance(by: .seconds(3_000))
        #expect(system.trace.instants(of: .fetchStarted).allSatisfy { $0 > .seconds(3_000) })
        #expect(!system.trace.instants(of: .fetchStarted).isEmpty)
    }

    @Test func aRefreshSubmittedMeanwhileIsAcceptedAndRunsTheMomentTheBatteryRecovers() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { app in
            _ = app.register(forTaskWithIdentifier: Self.refreshID) { task in task.setTaskCompleted(success: true) }
        }
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch], permittedTaskIdentifiers: [Self.refreshID]),
                                      delegate: delegate)
        try system.open(news)
        system.setCriticallyLowBattery(true)
        try news.submit(TaskRequest(identifier: Self.refreshID, kind: .appRefresh))     // not `unavailable`
        try system.pressHome()
        clock.advance(to: .seconds(1_000))                                              // due at 900 s
        #expect(system.trace.instants(of: .taskStarted).isEmpty)
        let blockers = try #require(system.explainPendingTaskRequest(Self.refreshID, of: news)).blockers
        #expect(blockers == [.criticallyLowBattery])
        system.setCriticallyLowBattery(false)
        #expect(system.trace.instants(of: .taskStarted) == [.seconds(1_000)])
    }

    @Test func silentPushesAreDroppedButTasksStillBegin() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.remoteNotification]))
        try system.open(news)
        system.setCriticallyLowBattery(true)
        #expect(news.beginBackgroundTask(withName: "upload") != .invalid)
        try system.pressHome()
        #expect(system.deliver(.silentPush, to: news) == .dropped(.criticallyLowBattery))
        #expect(system.trace.events.last?.reason == "criticallyLowBattery")
    }
}
