import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// Restarting the device: every process ends, with no callback; the mark a user kill leaves survives
/// [S31][S86][S87]; VoIP apps are relaunched into the background at boot [S34].
@Suite struct RebootTests {
    let clock = VirtualClock()

    /// The trace entries at one instant, as readable lines.
    private func lines(_ system: BackgroundSystem, at time: BudgetInstant) -> [String] {
        system.trace.events.filter { $0.time == time }.map(\.description)
    }

    @Test func aRebootEndsEveryProcessSilentlyAndRelaunchesTheVoIPApp() throws {
        let system = BackgroundSystem(clock: clock)
        let phoneDelegate = ScriptedDelegate()
        let newsDelegate = ScriptedDelegate()
        let phone = try system.install(AppManifest(id: "phone", backgroundModes: [.voip]), delegate: phoneDelegate)
        let news = try system.install(AppManifest(id: "news"), delegate: newsDelegate)
        try system.open(phone)
        try system.open(news)                   // phone is suspended, news on screen
        clock.advance(to: .seconds(100))
        system.reboot()
        #expect(lines(system, at: .seconds(100)) == [
            #"t=100.000s (device) deviceChanged name="reboot" value="restarted""#,
            #"t=100.000s phone exit reason="reboot""#,
            #"t=100.000s phone stateChange state="notRunning" reason="reboot""#,
            #"t=100.000s news exit reason="reboot""#,
            #"t=100.000s news stateChange state="notRunning" reason="reboot""#,
            #"t=100.000s phone stateChange state="background" reason="voip""#,
            #"t=100.000s phone application:willFinishLaunchingWithOptions"#,
            #"t=100.000s phone application:didFinishLaunchingWithOptions"#,
            #"t=100.000s phone applicationDidEnterBackground"#,
            #"t=100.000s phone stateChange state="suspended" reason="noBackgroundWork""#,
        ])
        // No callback reached the app on screen.
        #expect(newsDelegate.times(of: .lifecycle(.willResignActive)).isEmpty)
        #expect(newsDelegate.times(of: .lifecycle(.willTerminate)).isEmpty)
        #expect(news.applicationState == .notRunning)
        #expect(phone.applicationState == .suspended)
    }

    @Test func theUserKillsMarkSurvivesTheRebootUntilTheUserOpensTheApp() throws {
        let system = BackgroundSystem(clock: clock)
        let phone = try system.install(AppManifest(id: "phone", backgroundModes: [.voip]))
        try system.open(phone)
        try system.pressHome()
        try system.killFromAppSwitcher(phone)
        clock.advance(to: .seconds(50))
        system.reboot()
        #expect(phone.applicationState == .notRunning)           // not relaunched
        #expect(system.explain(phone).relaunchBlockers == [.killedByUser])
        try system.open(phone)
        try system.pressHome()
        clock.advance(to: .seconds(80))
        system.reboot()
        #expect(system.trace.events.last { $0.app == phone.id && $0.eventName == "stateChange" }?.time == .seconds(80))
        #expect(phone.applicationState == .suspended)            // relaunched once the user opened it
    }

    @Test func anAppThatExitsOnSuspendIsNotRelaunchedAndNotRunningAppsAreLeftAlone() throws {
        let system = BackgroundSystem(clock: clock)
        let old = try system.install(AppManifest(id: "old", exitsOnSuspend: true, backgroundModes: [.voip]))
        let idle = try system.install(AppManifest(id: "idle"))
        system.reboot()
        #expect(system.trace.events.map(\.description) == [#"t=0.000s (device) deviceChanged name="reboot" value="restarted""#])
        #expect(old.applicationState == .notRunning)
        #expect(idle.applicationState == .notRunning)
    }
}
