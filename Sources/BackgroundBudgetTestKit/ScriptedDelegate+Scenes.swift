import BackgroundBudgetCore
import BackgroundBudgetRuntime

extension ScriptedDelegate: SceneDelegate {
    // MARK: Scripting scenes

    /// Runs `handler` each time the scene callback is received, for any scene (replacing an earlier
    /// handler); the callback is recorded first, as ``ScriptedDelegate/Callback/scene(_:_:)``.
    ///
    /// ```swift
    /// app.sceneDelegate = delegate
    /// delegate.onScene(.didEnterBackground) { scene in scene.application.beginBackgroundTask(withName: "save") }
    /// ```
    /// - Parameters:
    ///   - callback: The scene callback.
    ///   - handler: Called with the scene, on the app's queue, outside the delegate's lock.
    public func onScene(_ callback: SceneCallback, perform handler: @escaping @Sendable (Scene) -> Void) {
        script.withLock { $0.scene[callback] = handler }
    }

    /// Answers ``/BackgroundBudget/SceneDelegate/stateRestorationActivity(for:)`` with `provider` (by default the
    /// delegate restores nothing).
    ///
    /// ```swift
    /// delegate.onStateRestoration { _ in UserActivity(activityType: "com.example.notes.editing") }
    /// ```
    /// - Parameter provider: Called with the scene right after its `sceneDidEnterBackground`.
    public func onStateRestoration(_ provider: @escaping @Sendable (Scene) -> UserActivity?) {
        script.withLock { $0.restoration = provider }
    }

    /// The scene callbacks received, in order, with the scene each was about.
    ///
    /// ```swift
    /// #expect(delegate.sceneCallbacks.map(\.callback) == [.willConnect, .willEnterForeground, .didBecomeActive])
    /// ```
    public var sceneCallbacks: [(callback: SceneCallback, scene: SceneID)] {
        records.compactMap { if case .scene(let callback, let scene) = $0.callback { (callback, scene) } else { nil } }
    }

    // MARK: SceneDelegate

    private func sceneCallback(_ callback: SceneCallback, _ scene: Scene) {
        note(.scene(callback, scene.id), scene.application)
        let handler = script.withLock { $0.scene[callback] }
        handler?(scene)   // outside the lock
    }

    /// Records the callback and runs its handler.
    public func scene(_ scene: Scene, willConnectTo session: SceneSession) { sceneCallback(.willConnect, scene) }
    /// Records the callback and runs its handler.
    public func sceneWillEnterForeground(_ scene: Scene) { sceneCallback(.willEnterForeground, scene) }
    /// Records the callback and runs its handler.
    public func sceneDidBecomeActive(_ scene: Scene) { sceneCallback(.didBecomeActive, scene) }
    /// Records the callback and runs its handler.
    public func sceneWillResignActive(_ scene: Scene) { sceneCallback(.willResignActive, scene) }
    /// Records the callback and runs its handler.
    public func sceneDidEnterBackground(_ scene: Scene) { sceneCallback(.didEnterBackground, scene) }
    /// Records the callback and runs its handler.
    public func sceneDidDisconnect(_ scene: Scene) { sceneCallback(.didDisconnect, scene) }
    /// The answer of the ``onStateRestoration(_:)`` provider, or `nil`.
    public func stateRestorationActivity(for scene: Scene) -> UserActivity? {
        let provider = script.withLock { $0.restoration }
        return provider?(scene)   // outside the lock
    }
}
