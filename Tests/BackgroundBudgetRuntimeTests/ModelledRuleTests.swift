import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// Rules the model enforced without a test of their own: the default fetch interval is `never`
/// [S41][S42]; Background App Refresh does not gate VoIP [S65]; the `nearby-interaction` and
/// `push-to-talk` activities keep an app running only with their modes [S26][S38][S94]; the VoIP
/// keep-alive handler is not kept across launches [S33][S34].
@Suite struct ModelledRuleTests {
    let clock = VirtualClock()

    @Test func anAppThatNeverSetsAnIntervalGetsNoFetchAndTheExplanationSaysWhy() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]))   // sets no interval
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(86_400))
        #expect(!system.trace.contains(any: .fetchStarted, .fetchSkipped))
        #expect(system.explainBackgroundFetch(of: news).blockers == [.intervalNever])
        #expect(FetchState().interval == .never)
        news.setMinimumBackgroundFetchInterval(.minimum)
        #expect(!system.explainBackgroundFetch(of: news).blockers.contains(.intervalNever))
    }

    @Test func backgroundAppRefreshOffLeavesVoIPPushesAndTheKeepAliveHandlerAlone() throws {
        let system = BackgroundSystem(clock: clock)
        let calls = TestLog<BudgetInstant>()
        let clock = self.clock
        let phone = try system.install(AppManifest(id: "phone", backgroundModes: [.voip]),
                                       delegate: ScriptedDelegate.eventRecorder(reportsCalls: true))
        try system.open(phone)
        system.setBackgroundAppRefresh(enabled: false)
        system.setLowPowerMode(true)
        system.setBackgroundAppRefreshRestricted(true)
        system.setBackgroundAppRefresh(enabled: false, for: phone)
        #expect(phone.backgroundRefreshStatus == .restricted)
        #expect(phone.setKeepAliveTimeout(.seconds(600)) { calls.append(clock.now) })
        try system.pressHome()
        clock.advance(to: .seconds(100))
        #expect(system.deliver(.voipPush, to: phone) == .delivered)
        #expect(system.trace.instants(of: .voipCallReported) == [.seconds(100)])
        clock.advance(to: .seconds(700))
        #expect(calls.entries == [.seconds(600)])
    }

    @Test(arguments: [(BackgroundActivity.nearbyInteraction, BackgroundModes.nearbyInteraction),
                      (BackgroundActivity.pushToTalk, BackgroundModes.pushToTalk)])
    func theActivityKeepsTheAppRunningWithItsModeOnly(activity: BackgroundActivity, mode: BackgroundModes) throws {
        let system = BackgroundSystem(clock: clock)
        let app = try system.install(AppManifest(id: "app", backgroundModes: [mode]))
        try system.open(app)
        try app.startActivity(activity)
        try system.pressHome()
        clock.advance(to: .seconds(3_600))
        #expect(app.applicationState == .background)
        #expect(system.explain(app).holds == [.activity(activity)])
        app.stopActivity(activity)
        #expect(system.trace.events.last == TraceEvent(time: .seconds(3_600), app: "app",
                                                       kind: .stateChange(.suspended, cause: .suspend(.activityStopped))))

        let bare = try system.install(AppManifest(id: "bare"))
        try system.open(bare)
        #expect(throws: ActivityDenial.modeNotDeclared) { try bare.startActivity(activity) }
        #expect(system.trace.events.last?.kind == .activityDenied(activity, .modeNotDeclared))
        try system.pressHome()
        #expect(bare.applicationState == .suspended)
    }

    @Test func theKeepAliveHandlerIsNotKeptAcrossLaunches() throws {
        let system = BackgroundSystem(clock: clock)
        let calls = TestLog<BudgetInstant>()
        let clock = self.clock
        let phone = try system.install(AppManifest(id: "phone", backgroundModes: [.voip]))
        try system.open(phone)
        #expect(phone.setKeepAliveTimeout(.seconds(600)) { calls.append(clock.now) })
        try system.pressHome()
        clock.advance(to: .seconds(100))
        try system.purge(phone)
        try system.open(phone)                    // a new process, which installs no handler
        try system.pressHome()
        clock.advance(to: .seconds(2_000))
        #expect(calls.entries.isEmpty)
        #expect(!system.trace.contains(any: .keepAliveHandlerCalled))
    }
}
