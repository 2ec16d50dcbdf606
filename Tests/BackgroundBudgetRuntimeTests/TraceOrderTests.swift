import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// The trace shows what ran, in the order it ran: a callback (and the state changes the app sees) is
/// recorded when it starts on the app's queue, and one that never ran never appears.
@Suite struct TraceOrderTests {
    let clock = VirtualClock()

    @Test func aKillInsideDidFinishLaunchingShowsNeitherActiveNorDidBecomeActive() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { $0.simulateWork(for: .seconds(2)) }
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        clock.schedule(at: .seconds(1)) { try? system.send(.kill(.watchdog), to: app) }
        try system.open(app)
        #expect(system.trace.events == [
            TraceEvent(time: .zero, app: "a", kind: .stateChange(.inactive, cause: .launch)),
            TraceEvent(time: .zero, app: "a", kind: .callback(.willFinishLaunching)),
            TraceEvent(time: .zero, app: "a", kind: .callback(.didFinishLaunching)),
            TraceEvent(time: .seconds(1), app: "a", kind: .exit(.watchdog, code: 0x8bad_f00d)),
            TraceEvent(time: .seconds(1), app: "a", kind: .killedMidCallback(.didFinishLaunching)),
            TraceEvent(time: .seconds(1), app: "a", kind: .stateChange(.notRunning, cause: .kill(.watchdog))),
        ])
        #expect(app.applicationState == .notRunning)
    }

    @Test func aSlowCallbackDelaysTheNextOnesEntries() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { $0.simulateWork(for: .seconds(2)) }
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        try system.open(app)
        #expect(system.trace.events.suffix(2) == [
            TraceEvent(time: .seconds(2), app: "a", kind: .stateChange(.active, cause: .launch)),
            TraceEvent(time: .seconds(2), app: "a", kind: .callback(.didBecomeActive)),
        ])
    }

    @Test func theLeavingAppsDidEnterBackgroundWorkComesBeforeTheNextAppsLaunch() throws {
        let system = BackgroundSystem(clock: clock)
        let mail = ScriptedDelegate()
        mail.on(.didEnterBackground) { $0.beginBackgroundTask(withName: "send") }
        let first = try system.install(AppManifest(id: "mail"), delegate: mail)
        let second = try system.install(AppManifest(id: "maps"))
        try system.open(first)
        clock.advance(by: .seconds(10))
        let before = system.trace.events.count
        try system.open(second)
        #expect(Array(system.trace.events[before...]) == [
            TraceEvent(time: .seconds(10), app: "mail", kind: .callback(.willResignActive)),
            TraceEvent(time: .seconds(10), app: "mail", kind: .stateChange(.inactive, cause: .switchAway)),
            TraceEvent(time: .seconds(10), app: "mail", kind: .stateChange(.background, cause: .switchAway)),
            TraceEvent(time: .seconds(10), app: "mail", kind: .callback(.didEnterBackground)),
            TraceEvent(time: .seconds(10), app: "mail", kind: .backgroundTaskBegan(BackgroundTaskIdentifier(rawValue: 1), name: "send")),
            TraceEvent(time: .seconds(10), app: "mail", kind: .allowanceStarted(expiresAt: .seconds(40))),
            TraceEvent(time: .seconds(10), app: "maps", kind: .stateChange(.inactive, cause: .launch)),
            TraceEvent(time: .seconds(10), app: "maps", kind: .callback(.willFinishLaunching)),
            TraceEvent(time: .seconds(10), app: "maps", kind: .callback(.didFinishLaunching)),
            TraceEvent(time: .seconds(10), app: "maps", kind: .stateChange(.active, cause: .launch)),
            TraceEvent(time: .seconds(10), app: "maps", kind: .callback(.didBecomeActive)),
        ])
    }
}
