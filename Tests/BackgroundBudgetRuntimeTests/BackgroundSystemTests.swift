import Testing
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

@Suite struct BackgroundSystemTests {
    let clock = VirtualClock()
    let system: BackgroundSystem

    init() {
        system = BackgroundSystem(clock: clock)
    }

    @Test func theStateLabWalkThroughDeliversTheBooksCallbacks() throws {
        let delegate = ScriptedDelegate()
        let app = try system.install(AppManifest(id: "com.example.StateLab"), delegate: delegate)
        try system.open(app)
        try system.beginInterruption()
        try system.dismissInterruption()
        try system.beginInterruption()
        try system.answerInterruption()
        #expect(app.applicationState == .suspended)
        try system.open(app)

        let expected: [AppCallback] = [
            .willFinishLaunching, .didFinishLaunching, .didBecomeActive,   // launch
            .willResignActive, .didBecomeActive,                            // SMS dismissed
            .willResignActive,                                              // SMS arrives
            .didBecomeActive, .willResignActive, .didEnterBackground,       // the user replies: the flurry
            .willEnterForeground, .didBecomeActive,                         // the user comes back
        ]
        #expect(delegate.callbacks == expected)
        #expect(system.trace.callbacks(for: app.id) == expected)
        #expect(system.trace.states(for: app.id) == [
            .inactive, .active, .inactive, .active, .inactive, .active, .inactive, .background, .suspended,
            .background, .inactive, .active,
        ])
        #expect(app.applicationState == .active)
    }

    @Test func readmeExampleHolds() throws {
        let app = try system.install(AppManifest(id: "com.example.news"))
        try system.open(app)
        clock.advance(by: .seconds(4))
        try system.beginInterruption()
        try system.answerInterruption()
        #expect(system.trace.callbacks(for: app.id).suffix(3) == [.didBecomeActive, .willResignActive, .didEnterBackground])
        #expect(app.applicationState == .suspended)
    }

    @Test func delegatesSeeTheStateUIKitWouldReportDuringEachCallback() throws {
        let delegate = ScriptedDelegate()
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        try system.open(app)
        #expect(delegate.states == [
            .inactive, .inactive, .active,           // willFinish, didFinish, didBecomeActive
            .active, .background,                    // willResignActive, didEnterBackground
            .background, .active,                    // willEnterForeground (resumed), didBecomeActive
        ])
    }

    @Test func homeSuspendsAnAppThatNothingKeepsRunning() throws {
        let app = try system.install(AppManifest(id: "a"))
        try system.open(app)
        clock.advance(by: .seconds(3))
        try system.pressHome()
        #expect(system.state(of: app) == .suspended)
        let last = try #require(system.trace.events.last)
        #expect(last == TraceEvent(time: .seconds(3), app: "a", kind: .stateChange(.suspended, cause: .suspend(.noBackgroundWork))))
    }

    @Test func backgroundLaunchPassesTheReasonAndSuspendsAfterwards() throws {
        let delegate = ScriptedDelegate()
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        try system.launchInBackground(app, reason: .location)
        #expect(delegate.callbacks == [.willFinishLaunching, .didFinishLaunching, .didEnterBackground])
        #expect(delegate.launchOptions == [LaunchOptions(backgroundLaunchReason: .location)])
        #expect(app.applicationState == .suspended)
        #expect(system.foregroundApplication == nil)
    }

    @Test func openingAnotherAppSendsTheForegroundAppAway() throws {
        let first = try system.install(AppManifest(id: "first"))
        let second = try system.install(AppManifest(id: "second"))
        try system.open(first)
        try system.open(second)
        #expect(system.foregroundApplication === second)
        #expect(first.applicationState == .suspended)
        #expect(system.trace.events.map(\.app).firstIndex(of: "second")! > system.trace.events.lastIndex { $0.app == "first" && $0.callback == .didEnterBackground }!)
        #expect(system.trace.events(for: "first").compactMap(\.state).suffix(3) == [.inactive, .background, .suspended])
    }

    @Test func userKillIsSilentForASuspendedApp() throws {
        let delegate = ScriptedDelegate()
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        try system.killFromAppSwitcher(app)
        #expect(!delegate.callbacks.contains(.willTerminate))
        #expect(app.applicationState == .notRunning)
        #expect(system.trace.events.suffix(2).map(\.kind) == [
            .exit(.userKill, code: nil), .stateChange(.notRunning, cause: .killFromAppSwitcher),
        ])
    }

    @Test func workStartedFromACallbackRunsAfterTheCurrentStepsAndBeforeSuspension() throws {
        // A kill requested from inside applicationDidEnterBackground lands while the app still runs in
        // the background: willTerminate, then exit; the app is never suspended.
        let system = self.system
        let delegate = ScriptedDelegate { callback, app in
            if callback == .didEnterBackground { try? system.killFromAppSwitcher(app) }
        }
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        #expect(delegate.callbacks.suffix(3) == [.willResignActive, .didEnterBackground, .willTerminate])
        #expect(!system.trace.states(for: "a").contains(.suspended))
        #expect(app.applicationState == .notRunning)
    }

    @Test func exitsOnSuspendTerminatesAtHome() throws {
        let delegate = ScriptedDelegate()
        let app = try system.install(AppManifest(id: "old", exitsOnSuspend: true), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        #expect(delegate.callbacks.suffix(3) == [.willResignActive, .didEnterBackground, .willTerminate])
        #expect(app.applicationState == .notRunning)
        #expect(system.trace.events.contains { $0.kind == .exit(.exitsOnSuspend, code: nil) })
        #expect(throws: LifecycleError.self) { try system.launchInBackground(app, reason: .backgroundFetch) }
    }

    @Test func purgeOfASuspendedAppDeliversNothing() throws {
        let delegate = ScriptedDelegate()
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        let before = delegate.callbacks
        try system.purge(app)
        #expect(delegate.callbacks == before)
        #expect(app.applicationState == .notRunning)
    }

    @Test func refusedEventsChangeNothingAndNameTheApp() throws {
        let app = try system.install(AppManifest(id: "a"))
        try system.open(app)
        let before = system.trace
        #expect(throws: LifecycleError(event: .purge, state: .active, problem: .notSuspended, app: "a")) {
            try system.purge(app)
        }
        #expect(throws: LifecycleError(event: .interruptionDismissed, state: .active, problem: .notInterrupted, app: "a")) {
            try system.dismissInterruption()
        }
        try system.pressHome()
        #expect(throws: LifecycleError(event: .pressHome, state: .notRunning, problem: .noForegroundApp)) {
            try system.pressHome()
        }
        #expect(system.trace.events.prefix(before.events.count).elementsEqual(before.events))
    }

    @Test func installRefusesInvalidAndDuplicateBundleIdentifiers() throws {
        #expect(throws: InstallError(app: "bad id", problem: .invalidBundleIdentifier(
            "contains \" \"; only letters, digits, '-' and '.' are allowed"))) {
            try system.install(AppManifest(id: "bad id"))
        }
        #expect(throws: InstallError(app: "", problem: .invalidBundleIdentifier("is empty"))) {
            try system.install(AppManifest(id: ""))
        }
        try system.install(AppManifest(id: "com.example.a"))
        #expect(throws: InstallError(app: "com.example.a", problem: .alreadyInstalled)) {
            try system.install(AppManifest(id: "com.example.a"))
        }
        #expect(system.applications.map(\.id) == ["com.example.a"])
    }

    @Test func observersRunAfterTheDelegateUntilRemoved() throws {
        let order = LockedValue<[String]>([])
        let delegate = ScriptedDelegate { callback, _ in order.withLock { $0.append("delegate \(callback)") } }
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        let token = app.addObserver(for: [.didBecomeActive]) { callback in
            order.withLock { $0.append("observer \(callback)") }
        }
        try system.open(app)
        app.removeObserver(token)
        try system.pressHome()
        try system.open(app)
        #expect(order.withLock { $0 } == [
            "delegate application:willFinishLaunchingWithOptions",
            "delegate application:didFinishLaunchingWithOptions",
            "delegate applicationDidBecomeActive", "observer applicationDidBecomeActive",
            "delegate applicationWillResignActive", "delegate applicationDidEnterBackground",
            "delegate applicationWillEnterForeground", "delegate applicationDidBecomeActive",
        ])
    }

    @Test func lifecycleEventsStreamTheCallbacks() async throws {
        let app = try system.install(AppManifest(id: "a"))
        let stream = app.lifecycleEvents()
        try system.open(app)
        try system.pressHome()
        var received: [AppCallback] = []
        for await callback in stream {
            received.append(callback)
            if received.count == 5 { break }
        }
        #expect(received == [.willFinishLaunching, .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground])
    }
}
