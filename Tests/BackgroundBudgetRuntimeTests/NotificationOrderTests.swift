import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock

/// An app delegate (and scene delegate) that logs each callback and, from its first callback on,
/// observes every notification of its app's center, as app code: `"t=… delegate name"` and
/// `"t=… note name"`, with the work some callbacks spend.
final class NotificationLog: ApplicationDelegate, SceneDelegate {
    let lines = LockedValue<[String]>([])
    let clock: VirtualClock
    let work: [String: Duration]

    init(clock: VirtualClock, work: [String: Duration] = [:]) {
        self.clock = clock
        self.work = work
    }

    func note(_ line: String, _ app: Application) {
        lines.withLock { $0.append("\(clock.now) \(line)") }
        if let duration = work[line] { app.simulateWork(for: duration) }
    }

    func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions) {
        application.notificationCenter.addObserver(forName: nil, object: nil, queue: nil) { [self] notification in
            let scene = (notification.object as? Scene).map { "(\($0.id))" } ?? ""
            note("note \(notification.name)\(scene)", application)
        }
        note("delegate willFinishLaunching", application)
    }
    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) { note("delegate didFinishLaunching", application) }
    func applicationDidBecomeActive(_ application: Application) { note("delegate applicationDidBecomeActive", application) }
    func applicationWillResignActive(_ application: Application) { note("delegate applicationWillResignActive", application) }
    func applicationDidEnterBackground(_ application: Application) { note("delegate applicationDidEnterBackground", application) }
    func applicationWillEnterForeground(_ application: Application) { note("delegate applicationWillEnterForeground", application) }
    func applicationWillTerminate(_ application: Application) { note("delegate applicationWillTerminate", application) }
    func applicationDidReceiveMemoryWarning(_ application: Application) {
        note("delegate applicationDidReceiveMemoryWarning", application)
        application.setMemoryFootprint(10_000_000)
    }
    func application(_ application: Application, didObserve notification: SystemNotification) { note("delegate didObserve \(notification)", application) }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) { note("delegate willConnect(\(scene.id))", scene.application) }
    func sceneWillEnterForeground(_ scene: Scene) { note("delegate sceneWillEnterForeground(\(scene.id))", scene.application) }
    func sceneDidBecomeActive(_ scene: Scene) { note("delegate sceneDidBecomeActive(\(scene.id))", scene.application) }
    func sceneWillResignActive(_ scene: Scene) { note("delegate sceneWillResignActive(\(scene.id))", scene.application) }
    func sceneDidEnterBackground(_ scene: Scene) { note("delegate sceneDidEnterBackground(\(scene.id))", scene.application) }
    func sceneDidDisconnect(_ scene: Scene) { note("delegate sceneDidDisconnect(\(scene.id))", scene.application) }

    /// The lines from `time` on.
    func lines(from time: String) -> [String] {
        lines.withLock { lines in Array(lines.drop { !$0.hasPrefix(time) }) }
    }
}

/// The lifecycle notifications on a virtual clock, with exact instants: each posted right after the
/// delegate callback it goes with (app-delegate apps), after the scene callback and as the app as a
/// whole changes state (scene-based apps), as the *Lifecycle rules* article lists.
@Suite struct NotificationOrderTests {
    let clock = VirtualClock()

    @Test func anAppDelegateAppPostsEachNotificationRightAfterItsCallbackReturns() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let log = NotificationLog(clock: clock, work: ["delegate applicationDidEnterBackground": .seconds(2)])
        let app = try system.install(AppManifest(id: "news"), delegate: log)
        try system.open(app)
        clock.advance(to: .seconds(10))
        try system.pressHome()
        clock.advance(to: .seconds(20))
        try system.open(app)
        clock.advance(to: .seconds(30))
        try system.beginInterruption()
        try system.dismissInterruption()
        #expect(log.lines(from: "t=0") == [
            "t=0.000s delegate willFinishLaunching",
            "t=0.000s delegate didFinishLaunching",
            "t=0.000s note UIApplicationDidFinishLaunchingNotification",
            "t=0.000s delegate applicationDidBecomeActive",
            "t=0.000s note UIApplicationDidBecomeActiveNotification",
            "t=10.000s delegate applicationWillResignActive",
            "t=10.000s note UIApplicationWillResignActiveNotification",
            "t=10.000s delegate applicationDidEnterBackground",
            // After the 2 s the delegate spent: the notification follows the method.
            "t=12.000s note UIApplicationDidEnterBackgroundNotification",
            "t=20.000s delegate applicationWillEnterForeground",
            "t=20.000s note UIApplicationWillEnterForegroundNotification",
            "t=20.000s delegate applicationDidBecomeActive",
            "t=20.000s note UIApplicationDidBecomeActiveNotification",
            "t=30.000s delegate applicationWillResignActive",
            "t=30.000s note UIApplicationWillResignActiveNotification",
            "t=30.000s delegate applicationDidBecomeActive",
            "t=30.000s note UIApplicationDidBecomeActiveNotification",
        ])
        // The trace says which posts ran observers, and how many.
        let observed = system.trace.events.filter { $0.kind.tag == .notificationObserved }
        #expect(observed.count == 8)
        #expect(observed[3].jsonLine == #"{"t":12.000,"app":"news","event":"notificationObserved","name":"UIApplicationDidEnterBackgroundNotification","count":1}"#)
    }

    @Test func willTerminateMemoryWarningAndBackgroundRefreshStatusFollowTheirDelegateMethods() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let log = NotificationLog(clock: clock)
        var manifest = AppManifest(id: "news")
        manifest.memoryFootprint = 100_000_000
        let app = try system.install(manifest, delegate: log)
        try system.open(app)
        clock.advance(to: .seconds(10))
        system.setMemoryCapacity(50_000_000)     // the warned app lowers its footprint
        clock.advance(to: .seconds(20))
        system.setBackgroundAppRefresh(enabled: false)
        _ = app.beginBackgroundTask(withName: "upload")
        try system.pressHome()
        clock.advance(to: .seconds(25))
        try system.terminate(app, reason: .memoryPressure)
        #expect(log.lines(from: "t=10") == [
            "t=10.000s delegate applicationDidReceiveMemoryWarning",
            "t=10.000s note UIApplicationDidReceiveMemoryWarningNotification",
            "t=20.000s delegate didObserve backgroundRefreshStatus(denied)",
            "t=20.000s note UIApplicationBackgroundRefreshStatusDidChangeNotification",
            "t=20.000s delegate applicationWillResignActive",
            "t=20.000s note UIApplicationWillResignActiveNotification",
            "t=20.000s delegate applicationDidEnterBackground",
            "t=20.000s note UIApplicationDidEnterBackgroundNotification",
            // Apple's reference puts the notification after the method [S8].
            "t=25.000s delegate applicationWillTerminate",
            "t=25.000s note UIApplicationWillTerminateNotification",
        ])
    }

    @Test func aSceneBasedAppPostsSceneNotificationsAndTheApplicationOnesAsTheAppAsAWholeChangesState() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let log = NotificationLog(clock: clock, work: ["delegate sceneDidEnterBackground(scene-1)": .seconds(2)])
        var manifest = AppManifest(id: "notes")
        manifest.sceneManifest = SceneManifest(supportsMultipleScenes: false)
        let app = try system.install(manifest, delegate: log)
        app.sceneDelegate = log
        try system.open(app)
        clock.advance(to: .seconds(10))
        try system.pressHome()
        clock.advance(to: .seconds(20))
        try system.open(app)
        #expect(log.lines(from: "t=0") == [
            "t=0.000s delegate willFinishLaunching",
            "t=0.000s delegate didFinishLaunching",
            "t=0.000s note UIApplicationDidFinishLaunchingNotification",
            "t=0.000s delegate willConnect(scene-1)",
            "t=0.000s note UISceneWillConnectNotification(scene-1)",
            "t=0.000s delegate sceneWillEnterForeground(scene-1)",
            "t=0.000s note UISceneWillEnterForegroundNotification(scene-1)",
            // The app reaches the foreground as its scene does.
            "t=0.000s note UIApplicationWillEnterForegroundNotification",
            "t=0.000s delegate sceneDidBecomeActive(scene-1)",
            "t=0.000s note UISceneDidActivateNotification(scene-1)",
            "t=0.000s note UIApplicationDidBecomeActiveNotification",
            "t=10.000s delegate sceneWillResignActive(scene-1)",
            "t=10.000s note UISceneWillDeactivateNotification(scene-1)",
            "t=10.000s note UIApplicationWillResignActiveNotification",
            "t=10.000s delegate sceneDidEnterBackground(scene-1)",
            "t=12.000s note UISceneDidEnterBackgroundNotification(scene-1)",
            "t=12.000s note UIApplicationDidEnterBackgroundNotification",
            "t=20.000s delegate sceneWillEnterForeground(scene-1)",
            "t=20.000s note UISceneWillEnterForegroundNotification(scene-1)",
            "t=20.000s note UIApplicationWillEnterForegroundNotification",
            "t=20.000s delegate sceneDidBecomeActive(scene-1)",
            "t=20.000s note UISceneDidActivateNotification(scene-1)",
            "t=20.000s note UIApplicationDidBecomeActiveNotification",
        ])
        // Inside the scene's time limit: suspended once the observers after sceneDidEnterBackground ran.
        #expect(system.trace.events.filter { $0.state == .suspended }.map(\.time) == [.seconds(12)])
    }

    @Test func aSceneThatDisconnectsPostsDidDisconnectAndTheOldAddObserverRunsInSceneApps() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let log = NotificationLog(clock: clock)
        var manifest = AppManifest(id: "notes")
        manifest.sceneManifest = SceneManifest(supportsMultipleScenes: false)
        let app = try system.install(manifest, delegate: log)
        app.sceneDelegate = log
        let heard = LockedValue<[AppCallback]>([])
        app.addObserver(for: [.didEnterBackground, .willResignActive]) { callback in heard.withLock { $0.append(callback) } }
        try system.open(app)
        clock.advance(to: .seconds(10))
        try system.pressHome()
        #expect(heard.withLock { $0 } == [.willResignActive, .didEnterBackground])
        clock.advance(to: .seconds(20))
        try system.send(.reclaimScene("scene-1"), to: app)
        #expect(log.lines(from: "t=20").suffix(2) == [
            "t=20.000s delegate sceneDidDisconnect(scene-1)",
            "t=20.000s note UISceneDidDisconnectNotification(scene-1)",
        ])
    }
}
