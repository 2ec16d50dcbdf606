import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock

/// Records app-delegate and scene-delegate callbacks with the app's state and the instant, and spends
/// the configured time in some of them.
final class SceneRecorder: ApplicationDelegate, SceneDelegate {
    let log = LockedValue<[String]>([])
    let connections = LockedValue<[SceneSession]>([])
    /// For each connection: whether the scene was unattached and already among the app's connected scenes.
    let connectingSceneListed = LockedValue<[Bool]>([])
    let restoration: UserActivity?
    let work: [String: Duration]
    let clock: VirtualClock

    init(clock: VirtualClock, work: [String: Duration] = [:], restoration: UserActivity? = nil) {
        self.clock = clock
        self.work = work
        self.restoration = restoration
    }

    private func note(_ name: String, _ app: Application) {
        log.withLock { $0.append("\(clock.now) \(name) \(app.applicationState)") }
        if let duration = work[name] { app.simulateWork(for: duration) }
    }

    func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions) { note("willFinishLaunching", application) }
    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) { note("didFinishLaunching", application) }
    func applicationDidBecomeActive(_ application: Application) { note("applicationDidBecomeActive", application) }
    func applicationWillResignActive(_ application: Application) { note("applicationWillResignActive", application) }
    func applicationDidEnterBackground(_ application: Application) { note("applicationDidEnterBackground", application) }
    func applicationWillEnterForeground(_ application: Application) { note("applicationWillEnterForeground", application) }
    func applicationWillTerminate(_ application: Application) { note("applicationWillTerminate", application) }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        let listed = scene.application.connectedScenes.contains { $0.id == scene.id && $0.activationState == .unattached }
        connectingSceneListed.withLock { $0.append(scene.activationState == .unattached && listed) }
        connections.withLock { $0.append(session) }
        note("willConnect(\(scene.id))", scene.application)
    }
    func sceneWillEnterForeground(_ scene: Scene) { note("sceneWillEnterForeground(\(scene.id))", scene.application) }
    func sceneDidBecomeActive(_ scene: Scene) { note("sceneDidBecomeActive(\(scene.id))", scene.application) }
    func sceneWillResignActive(_ scene: Scene) { note("sceneWillResignActive(\(scene.id))", scene.application) }
    func sceneDidEnterBackground(_ scene: Scene) { note("sceneDidEnterBackground(\(scene.id))", scene.application) }
    func sceneDidDisconnect(_ scene: Scene) { note("sceneDidDisconnect(\(scene.id))", scene.application) }
    func stateRestorationActivity(for scene: Scene) -> UserActivity? { restoration }

    /// Installs a scene-based app with this recorder as its app and scene delegate.
    func install(_ manifest: AppManifest, multipleScenes: Bool = false, in system: BackgroundSystem) throws -> Application {
        var manifest = manifest
        manifest.sceneManifest = SceneManifest(supportsMultipleScenes: multipleScenes)
        let app = try system.install(manifest, delegate: self)
        app.sceneDelegate = self
        return app
    }
}

/// Scene-based apps on a virtual clock with exact instants: Apple's callback order relative to the app
/// delegate [S1][S2][S4][S9][S10][S11][S100], the app's state derived from its scenes, reclaimed and
/// closed scenes, multiple scenes, state restoration [S76], and the TN3187 launch rule [S99].
@Suite struct SceneLifecycleTests {
    let clock = VirtualClock()

    private func sceneApp(_ system: BackgroundSystem, _ recorder: SceneRecorder, multiple: Bool = false) throws -> Application {
        try recorder.install(AppManifest(id: "notes"), multipleScenes: multiple, in: system)
    }

    /// An iOS 13 system on the clock with the scene-based app "notes" and its recorder.
    private func notes(work: [String: Duration] = [:], restoration: UserActivity? = nil,
                       multiple: Bool = false) throws -> (BackgroundSystem, SceneRecorder, Application) {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let recorder = SceneRecorder(clock: clock, work: work, restoration: restoration)
        return (system, recorder, try sceneApp(system, recorder, multiple: multiple))
    }

    @Test func launchHomeAndReturnFollowApplesOrder() throws {
        let (system, recorder, app) = try notes(work: ["didFinishLaunching": .seconds(1), "sceneDidEnterBackground(scene-1)": .seconds(2)])
        try system.open(app)
        #expect(app.applicationState == .active)
        #expect(system.scenes(of: app).map(\.state) == [.foregroundActive])
        clock.advance(to: .seconds(10))
        try system.pressHome()
        clock.advance(to: .seconds(20))
        try system.open(app)
        #expect(recorder.log.withLock { $0 } == [
            // The app delegate launches the app in the background state; the scene then connects [S2][S4].
            "t=0.000s willFinishLaunching background",
            "t=0.000s didFinishLaunching background",
            "t=1.000s willConnect(scene-1) background",
            "t=1.000s sceneWillEnterForeground(scene-1) background",
            "t=1.000s sceneDidBecomeActive(scene-1) active",
            // Home: the scene callbacks replace the app delegate's [S10].
            "t=10.000s sceneWillResignActive(scene-1) active",
            "t=10.000s sceneDidEnterBackground(scene-1) background",
            "t=20.000s sceneWillEnterForeground(scene-1) background",
            "t=20.000s sceneDidBecomeActive(scene-1) active",
        ])
        // Suspended once sceneDidEnterBackground returned (it took 2 s).
        let suspended = system.trace.events.filter { $0.state == .suspended }.map(\.time)
        #expect(suspended == [.seconds(12)])
        let names = system.trace.events.filter { $0.kind.tag == .sceneCallback }.map { "\($0.time) \($0.eventName) \($0.name ?? "")" }
        #expect(names.first == "t=1.000s scene:willConnectToSession:options scene-1")
        #expect(names.count == 7)
    }

    @Test func anInterruptionResignsTheSceneAndSwitchingAppsNeverDisconnectsIt() throws {
        let (system, recorder, app) = try notes()
        let other = try system.install(AppManifest(id: "other"))
        try system.open(app)
        clock.advance(to: .seconds(3))
        try system.beginInterruption()
        #expect(app.applicationState == .inactive)
        clock.advance(to: .seconds(4))
        try system.dismissInterruption()
        clock.advance(to: .seconds(5))
        try system.open(other)
        #expect(recorder.log.withLock { Array($0.dropFirst(5)) } == [
            "t=3.000s sceneWillResignActive(scene-1) active",
            "t=4.000s sceneDidBecomeActive(scene-1) active",
            "t=5.000s sceneWillResignActive(scene-1) active",
            "t=5.000s sceneDidEnterBackground(scene-1) background",
        ])
        #expect(system.scenes(of: app).map(\.state) == [.background])
        #expect(app.applicationState == .suspended)
    }

    @Test func aReclaimedSceneDisconnectsAndReconnectsWithItsRestorationActivity() throws {
        let activity = UserActivity(activityType: "com.example.notes.editing", userInfo: ["note": "42"])
        let (system, recorder, app) = try notes(restoration: activity)
        try system.open(app)
        try system.pressHome()
        #expect(app.applicationState == .suspended)
        clock.advance(to: .seconds(30))
        #expect(throws: LifecycleError.self) { try system.reclaimScene("scene-9", of: app) }
        try system.reclaimScene("scene-1", of: app)
        // Resumed into the background to hear it, then suspended again.
        #expect(app.applicationState == .suspended)
        #expect(system.scenes(of: app).isEmpty)
        clock.advance(to: .seconds(40))
        try system.open(app)
        #expect(recorder.log.withLock { Array($0.dropFirst(7)) } == [
            "t=30.000s sceneDidDisconnect(scene-1) background",
            "t=40.000s willConnect(scene-1) background",
            "t=40.000s sceneWillEnterForeground(scene-1) background",
            "t=40.000s sceneDidBecomeActive(scene-1) active",
        ])
        #expect(recorder.connections.withLock { $0 } == [
            SceneSession(persistentIdentifier: "scene-1"),
            SceneSession(persistentIdentifier: "scene-1", stateRestorationActivity: activity),
        ])
        let states = system.trace.events.filter { $0.time == .seconds(30) }.compactMap(\.state)
        #expect(states == [.background, .suspended])
    }

    @Test func theSessionSurvivesASystemTerminationButNotAUserKill() throws {
        let activity = UserActivity(activityType: "editing")
        let (system, recorder, app) = try notes(restoration: activity)
        try system.open(app)
        try system.pressHome()
        try system.purge(app)
        try system.open(app)
        #expect(recorder.connections.withLock { $0.last } == SceneSession(persistentIdentifier: "scene-1", stateRestorationActivity: activity))
        let task = app.beginBackgroundTask(withName: "save")
        clock.advance(to: .seconds(10))
        try system.pressHome()
        clock.advance(to: .seconds(12))
        // Running in the background: the scene disconnects, then applicationWillTerminate [S11][S86].
        try system.killFromAppSwitcher(app)
        #expect(recorder.log.withLock { Array($0.suffix(4)) } == [
            "t=10.000s sceneWillResignActive(scene-1) active",
            "t=10.000s sceneDidEnterBackground(scene-1) background",
            "t=12.000s sceneDidDisconnect(scene-1) background",
            "t=12.000s applicationWillTerminate background",
        ])
        _ = task
        try system.open(app)
        // The user closed the session: a new one, with nothing to restore.
        #expect(recorder.connections.withLock { $0.last } == SceneSession(persistentIdentifier: "scene-2"))
    }

    @Test func userRequestedScenesComeToTheForegroundAndClosingTheLastSendsTheAppAway() throws {
        let (system, recorder, app) = try notes(multiple: true)
        try system.open(app)
        clock.advance(to: .seconds(2))
        #expect(try system.openScene(of: app) == "scene-2")
        #expect(system.scenes(of: app).map(\.state) == [.foregroundActive, .foregroundActive])
        #expect(app.connectedScenes.map(\.id) == ["scene-1", "scene-2"])
        #expect(recorder.connectingSceneListed.withLock { $0 } == [true, true])
        clock.advance(to: .seconds(4))
        try system.closeScene("scene-1", of: app)
        #expect(app.applicationState == .active)
        clock.advance(to: .seconds(6))
        try system.pressHome()
        clock.advance(to: .seconds(8))
        #expect(throws: LifecycleError(event: .openScene, state: .suspended, problem: .notActive, app: "notes")) {
            try system.openScene(of: app)
        }
        try system.open(app)
        clock.advance(to: .seconds(9))
        try system.closeScene("scene-2", of: app)
        #expect(recorder.log.withLock { Array($0.dropFirst(5)) } == [
            "t=2.000s willConnect(scene-2) active",
            "t=2.000s sceneWillEnterForeground(scene-2) active",
            "t=2.000s sceneDidBecomeActive(scene-2) active",
            "t=4.000s sceneWillResignActive(scene-1) active",
            "t=4.000s sceneDidEnterBackground(scene-1) active",
            "t=4.000s sceneDidDisconnect(scene-1) active",
            "t=6.000s sceneWillResignActive(scene-2) active",
            "t=6.000s sceneDidEnterBackground(scene-2) background",
            "t=8.000s sceneWillEnterForeground(scene-2) background",
            "t=8.000s sceneDidBecomeActive(scene-2) active",
            "t=9.000s sceneWillResignActive(scene-2) active",
            "t=9.000s sceneDidEnterBackground(scene-2) background",
            "t=9.000s sceneDidDisconnect(scene-2) background",
        ])
        #expect(app.applicationState == .suspended)
        #expect(app.connectedScenes.isEmpty)
    }

    @Test func onlyAppsThatSupportMultipleScenesOpenMoreAndAppDelegateAppsHaveNone() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let app = try sceneApp(system, SceneRecorder(clock: clock))
        let plain = try system.install(AppManifest(id: "plain"))
        try system.open(app)
        #expect(throws: LifecycleError(event: .openScene, state: .active, problem: .multipleScenesNotSupported, app: "notes")) {
            try system.openScene(of: app)
        }
        try system.open(plain)
        #expect(throws: LifecycleError(event: .openScene, state: .active, problem: .noScenes, app: "plain")) {
            try system.openScene(of: plain)
        }
        #expect(throws: LifecycleError(event: .reclaimScene("scene-1"), state: .active, problem: .noScenes, app: "plain")) {
            try system.reclaimScene("scene-1", of: plain)
        }
    }

    @Test func aBackgroundLaunchConnectsNoSceneAndEndsTheLaunchWithDidFinishLaunching() throws {
        let (system, recorder, app) = try notes(work: ["didFinishLaunching": .seconds(5)])
        try system.launchInBackground(app, reason: .backgroundFetch)
        clock.advance(to: .seconds(30))
        // No applicationDidEnterBackground, no scene; suspended when the launch returned, and no launch
        // watchdog kill at 20 s.
        #expect(recorder.log.withLock { $0 } == ["t=0.000s willFinishLaunching background", "t=0.000s didFinishLaunching background"])
        #expect(system.trace.events.filter { $0.state == .suspended }.map(\.time) == [.seconds(5)])
        #expect(system.trace.events(of: .exit).isEmpty)
        #expect(system.scenes(of: app).isEmpty)
    }

    @Test func theLaunchWatchdogCoversTheScenesActivation() throws {
        let (system, _, app) = try notes(work: ["sceneWillEnterForeground(scene-1)": .seconds(25)])
        try system.open(app)
        #expect(app.applicationState == .notRunning)
        #expect(system.trace.events(of: .exit).map(\.time) == [.seconds(20)])
        #expect(system.trace.events(of: .exit).map(\.reason) == ["watchdog"])
    }

    @Test func anAppDelegateOnlyAppDoesNotLaunchUnderTheSceneLifecycleRule() throws {
        var policy = BudgetPolicy.iOS13
        policy.requiresSceneLifecycle = true
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let recorder = SceneRecorder(clock: clock)
        let plain = try system.install(AppManifest(id: "plain"), delegate: recorder)
        try system.open(plain)
        #expect(plain.applicationState == .notRunning)
        #expect(recorder.log.withLock { $0 }.isEmpty)
        #expect(system.trace.events.map(\.jsonLine) == [
            #"{"t":0.000,"app":"plain","event":"exit","reason":"sceneLifecycleRequired"}"#,
        ])
        let scenes = try sceneApp(system, recorder)
        try system.open(scenes)
        #expect(scenes.applicationState == .active)
        #expect(BudgetPolicy.presets.allSatisfy { !$0.requiresSceneLifecycle })
    }

    @Test func underTheSceneLifecycleRuleABackgroundLaunchFailsTooAndNothingLoops() throws {
        var policy = BudgetPolicy.iOS13
        policy.requiresSceneLifecycle = true
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let plain = try system.install(AppManifest(id: "plain", backgroundModes: [.remoteNotification, .fetch]))
        #expect(system.deliver(.silentPush, to: plain) == .dropped(.sceneLifecycleRequired))
        try system.launchInBackground(plain, reason: .backgroundFetch)
        clock.advance(to: .seconds(3_600))
        #expect(plain.applicationState == .notRunning)
        let exits = system.trace.events(of: .exit, for: plain.id)
        #expect(system.trace.events(of: .eventDelivered).isEmpty && system.trace.events(of: .eventWindowStarted).isEmpty)
        #expect(!exits.isEmpty && exits.allSatisfy { $0.reason == "sceneLifecycleRequired" })
        #expect(system.trace.events.filter { $0.app == plain.id && $0.kind.tag == .callback }.isEmpty)
    }
}
