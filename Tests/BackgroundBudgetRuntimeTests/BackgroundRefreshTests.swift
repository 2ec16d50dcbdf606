import BackgroundBudgetExplorer
import Testing
import BackgroundBudget
import BackgroundBudgetCore
import BackgroundBudgetScenario
import BudgetClock
import BackgroundBudgetTestKit

/// Background App Refresh: the switches, Low Power Mode, what they gate and what they do not.
@Suite struct BackgroundRefreshTests {
    let clock = VirtualClock()
    let system: BackgroundSystem

    init() {
        system = BackgroundSystem(clock: clock)
    }

    @Test func theStatusFollowsTheSwitchesLowPowerModeAndRestrictions() throws {
        let news = try system.install(AppManifest(id: "news"))
        let mail = try system.install(AppManifest(id: "mail"))
        #expect(news.backgroundRefreshStatus == .available)
        system.setBackgroundAppRefresh(enabled: false, for: news)
        #expect(news.backgroundRefreshStatus == .denied)
        #expect(mail.backgroundRefreshStatus == .available)
        system.setBackgroundAppRefresh(enabled: true, for: news)
        system.setLowPowerMode(true)
        #expect([news.backgroundRefreshStatus, mail.backgroundRefreshStatus] == [.denied, .denied])
        system.setLowPowerMode(false)
        system.setBackgroundAppRefresh(enabled: false)
        #expect(mail.backgroundRefreshStatus == .denied)
        system.setBackgroundAppRefreshRestricted(true)
        #expect(mail.backgroundRefreshStatus == .restricted)
    }

    @Test func appsAreToldWhenTheirStatusChangesAndSuspendedAppsGetTheLatestOnly() throws {
        let delegate = ScriptedDelegate()
        let running = try system.install(AppManifest(id: "running"), delegate: delegate)
        let sleeper = ScriptedDelegate()
        let suspended = try system.install(AppManifest(id: "suspended"), delegate: sleeper)
        try system.open(suspended)
        try system.open(running)                        // `suspended` is now suspended
        system.setLowPowerMode(true)
        system.setLowPowerMode(false)
        system.setLowPowerMode(true)
        system.setLowPowerMode(true)                    // no change: nobody is told
        #expect(delegate.notifications == [
            .backgroundRefreshStatus(.denied), .backgroundRefreshStatus(.available), .backgroundRefreshStatus(.denied),
        ])
        #expect(sleeper.notifications.isEmpty)
        try system.open(suspended)
        #expect(sleeper.notifications == [.backgroundRefreshStatus(.denied)])
    }

    @Test func offItStopsSilentPushWakesButNotTasksAudioOrLocation() throws {
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.remoteNotification, .audio, .location]))
        try system.open(news)
        system.setBackgroundAppRefresh(enabled: false)
        try news.startPlayingAudio()
        try news.startUpdatingLocation()
        #expect(news.beginBackgroundTask(withName: "save") != .invalid)
        try system.pressHome()
        #expect(news.applicationState == .background)
        news.stopPlayingAudio()
        news.stopUpdatingLocation()
        clock.advance(by: .seconds(60))
        #expect(system.deliver(.silentPush, to: news) == .dropped(.backgroundAppRefreshOff))
        system.setBackgroundAppRefresh(enabled: true)
        #expect(system.deliver(.silentPush, to: news) == .delivered)
    }

    @Test func scenariosSwitchBackgroundAppRefreshAndLowPowerMode() throws {
        let run = try Scenario(json: """
            {"apps": [{"id": "news", "backgroundModes": ["remote-notification"]}],
             "events": [
               {"at": 0, "do": "open", "app": "news"}, {"at": 1, "do": "home"},
               {"at": 2, "do": "setLowPowerMode", "enabled": true},
               {"at": 3, "do": "deliver", "app": "news", "event": "silentPush"},
               {"at": 4, "do": "setLowPowerMode", "enabled": false},
               {"at": 5, "do": "setBackgroundAppRefresh", "enabled": false, "app": "news"},
               {"at": 6, "do": "deliver", "app": "news", "event": "silentPush"}]}
            """).run()
        #expect(run.trace.events.filter { $0.eventName == "eventDropped" }.map(\.time) == [.seconds(3), .seconds(6)])
        #expect(run.trace.events.filter { $0.eventName == "notificationQueued" }.count == 3)
    }

    /// The explanation names the switch that is off: Low Power Mode is not the app's switch.
    @Test func theFetchExplanationNamesLowPowerModeNotTheAppsSwitch() throws {
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: ScriptedDelegate.fetcher(result: .newData))
        try system.open(news)
        try system.pressHome()
        system.setLowPowerMode(true)
        let lowPower = system.explainBackgroundFetch(of: news)
        #expect(lowPower.blockers.first == .lowPowerMode)
        #expect(!lowPower.blockers.contains(.backgroundAppRefreshOff))
        #expect(lowPower.description.contains("Low Power Mode is on"))
        #expect(!lowPower.description.contains("off for the app"))

        system.setLowPowerMode(false)
        system.setBackgroundAppRefresh(enabled: false, for: news)
        let appSwitch = system.explainBackgroundFetch(of: news)
        #expect(appSwitch.blockers.first == .backgroundAppRefreshOff)
        #expect(appSwitch.description.contains("Background App Refresh is off for the app."))
        #expect(!appSwitch.description.contains("Low Power Mode"))

        // Every switch that is off is named, in a fixed order; the decision skips the opportunity.
        system.setLowPowerMode(true)
        system.setBackgroundAppRefresh(enabled: false)
        system.setBackgroundAppRefreshRestricted(true)
        #expect(Array(system.explainBackgroundFetch(of: news).blockers.prefix(4))
            == [.backgroundAppRefreshRestricted, .backgroundAppRefreshOffForDevice, .lowPowerMode, .backgroundAppRefreshOff])
        clock.advance(by: .seconds(3_000))
        #expect(!system.trace.events.contains { $0.app == news.id && $0.eventName == "performFetch" })
        #expect(system.trace.events.contains { $0.kind == .fetchSkipped(.backgroundAppRefreshOff) })
    }

    /// Low Power Mode alone skips fetches, and lifting it (the app's switch on) lets them come: the
    /// decision and the explanation read the same gate.
    @Test func lowPowerModeAloneGatesFetchesAndTheExplanationSaysSo() throws {
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: ScriptedDelegate.fetcher(result: .newData))
        try system.open(news)
        try system.pressHome()
        system.setLowPowerMode(true)
        clock.advance(by: .seconds(3_000))
        #expect(!system.trace.events.contains { $0.app == news.id && $0.eventName == "performFetch" })
        #expect(system.explainBackgroundFetch(of: news).blockers.contains(.lowPowerMode))
        system.setLowPowerMode(false)
        #expect(!system.explainBackgroundFetch(of: news).blockers.contains(.lowPowerMode))
        clock.advance(by: .seconds(3_000))
        #expect(system.trace.events.contains { $0.app == news.id && $0.eventName == "performFetch" })
    }
}
