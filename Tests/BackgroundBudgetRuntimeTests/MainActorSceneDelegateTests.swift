import Testing
@testable import BackgroundBudget
@testable import BackgroundBudgetRuntime
@testable import BackgroundBudgetCore
@testable import BudgetClock

/// A window's delegate as a UIKit engineer writes one: main-actor isolated, with plain stored properties.
final class MainActorWindowDelegate: MainActorSceneDelegate {
    let clock: VirtualClock
    var callbacks: [String] = []
    var allOnMainQueue = true
    var restoration: UserActivity?

    init(clock: VirtualClock) {
        self.clock = clock
    }

    private func note(_ name: String, _ scene: Scene) {
        callbacks.append("\(clock.now) \(name) \(scene.application.applicationState)")
        allOnMainQueue = allOnMainQueue && isOnMainQueue()
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        restoration = session.stateRestorationActivity
        note("willConnect", scene)
    }
    func sceneWillEnterForeground(_ scene: Scene) { note("sceneWillEnterForeground", scene) }
    func sceneDidBecomeActive(_ scene: Scene) { note("sceneDidBecomeActive", scene) }
    func sceneWillResignActive(_ scene: Scene) { note("sceneWillResignActive", scene) }
    func sceneDidEnterBackground(_ scene: Scene) { note("sceneDidEnterBackground", scene) }
    func sceneDidDisconnect(_ scene: Scene) { note("sceneDidDisconnect", scene) }
    func stateRestorationActivity(for scene: Scene) -> UserActivity? {
        UserActivity(activityType: "com.example.notes.editing", userInfo: ["draft": "42"])
    }
}

/// Main-actor scene delegates on the virtual clock: the same callbacks, order and instants as a
/// `Sendable` scene delegate gets, delivered on the main actor.
@MainActor @Suite struct MainActorSceneDelegateTests {
    let clock = VirtualClock()

    private func install(_ system: BackgroundSystem, _ delegate: MainActorWindowDelegate) throws -> Application {
        var manifest = AppManifest(id: "com.example.notes")
        manifest.sceneManifest = SceneManifest(supportsMultipleScenes: false)
        let app = try system.install(manifest, delegate: nil)
        app.mainActorSceneDelegate = delegate
        return app
    }

    @Test func aMainActorSceneDelegateWithPlainVarsHearsItsScenesInOrder() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = MainActorWindowDelegate(clock: clock)
        let app = try install(system, delegate)
        try system.open(app)
        clock.advance(by: .seconds(10))
        try system.pressHome()
        #expect(delegate.callbacks == [
            "t=0.000s willConnect background",
            "t=0.000s sceneWillEnterForeground background",
            "t=0.000s sceneDidBecomeActive active",
            "t=10.000s sceneWillResignActive active",
            "t=10.000s sceneDidEnterBackground background",
        ])
        #expect(delegate.allOnMainQueue)
    }

    @Test func aReclaimedSceneGetsItsRestorationActivityBackFromTheMainActorDelegate() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = MainActorWindowDelegate(clock: clock)
        let app = try install(system, delegate)
        try system.open(app)
        try system.pressHome()
        let scene = try #require(system.scenes(of: app).first?.id)
        try system.reclaimScene(scene, of: app)
        #expect(delegate.callbacks.last?.contains("sceneDidDisconnect") == true)
        try system.open(app)
        #expect(delegate.restoration?.activityType == "com.example.notes.editing")
        #expect(delegate.restoration?.userInfo["draft"] == "42")
    }

    @Test func theAppHoldsOneKindOfSceneDelegateAtATime() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = MainActorWindowDelegate(clock: clock)
        let app = try install(system, delegate)
        #expect(app.sceneDelegate == nil)
        #expect(app.mainActorSceneDelegate === delegate)
        app.mainActorSceneDelegate = nil
        #expect(app.mainActorSceneDelegate == nil && app.sceneDelegate == nil)
    }
}
