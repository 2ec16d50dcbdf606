import BackgroundBudget
import Testing
import BackgroundBudgetTestKit

/// `ScriptedDelegate` as a scene delegate: scene callbacks recorded with their scene, instant and the
/// app's state, scripted per callback, and a state-restoration answer.
@Suite struct ScriptedSceneDelegateTests {
    let clock = VirtualClock()

    private func sceneBasedApp(_ system: BackgroundSystem, _ delegate: ScriptedDelegate) throws -> Application {
        var manifest = AppManifest(id: "notes")
        manifest.sceneManifest = SceneManifest(supportsMultipleScenes: false)
        let app = try system.install(manifest, delegate: delegate)
        app.sceneDelegate = delegate
        return app
    }

    @Test func itRecordsSceneCallbacksBesideTheAppDelegatesInApplesOrder() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate(clock: clock)
        let app = try sceneBasedApp(system, delegate)
        try system.open(app)
        clock.advance(by: .seconds(4))
        try system.pressHome()

        let scene = try #require(delegate.sceneCallbacks.first?.scene)
        #expect(delegate.records.map(\.callback) == [
            .lifecycle(.willFinishLaunching), .lifecycle(.didFinishLaunching),
            .scene(.willConnect, scene), .scene(.willEnterForeground, scene), .scene(.didBecomeActive, scene),
            .scene(.willResignActive, scene), .scene(.didEnterBackground, scene),
        ])
        #expect(delegate.callbacks == [.willFinishLaunching, .didFinishLaunching])   // no app-delegate foreground callbacks
        #expect(delegate.times(of: .scene(.didEnterBackground, scene)) == [.seconds(4)])
        #expect(delegate.records(ofKind: .scene).map(\.state) == [.background, .background, .active, .active, .background])
    }

    @Test func aScriptedSceneCallbackRunsAndTheRestorationActivityComesBackOnReconnect() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate(clock: clock)
        delegate.onScene(.didEnterBackground) { scene in
            _ = scene.application.beginBackgroundTask(withName: "save")
        }
        delegate.onStateRestoration { _ in UserActivity(activityType: "com.example.notes.editing", userInfo: ["draft": "7"]) }
        let restored = LockedValue<[UserActivity?]>([])
        delegate.onScene(.willConnect) { scene in restored.withLock { $0.append(scene.session.stateRestorationActivity) } }
        let app = try sceneBasedApp(system, delegate)
        try system.open(app)
        try system.pressHome()
        #expect(system.trace.count(of: .backgroundTaskBegan) == 1)

        let scene = try #require(system.scenes(of: app).first?.id)
        try system.reclaimScene(scene, of: app)
        try system.open(app)
        #expect(restored.withLock { $0 } == [nil, UserActivity(activityType: "com.example.notes.editing", userInfo: ["draft": "7"])])
        #expect(delegate.sceneCallbacks.map(\.callback).suffix(4) == [.didDisconnect, .willConnect, .willEnterForeground, .didBecomeActive])
    }
}
