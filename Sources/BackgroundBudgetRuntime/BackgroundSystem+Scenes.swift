/// Scene events: the user opens and closes windows of a scene-based app, and the system reclaims
/// background scenes.
import BackgroundBudgetCore

extension BackgroundSystem {
    /// The user opens another window of an active scene-based app (an iPad window): a new session's
    /// scene connects and comes to the foreground beside the others [S1].
    /// - Returns: The new scene's session identifier.
    /// - Throws: ``LifecycleError``: ``LifecycleError/Problem/noScenes`` for an app-delegate-only app,
    ///   ``LifecycleError/Problem/multipleScenesNotSupported`` without
    ///   ``SceneManifest/supportsMultipleScenes``, ``LifecycleError/Problem/notActive`` when the app is
    ///   not active. Nothing changes.
    @discardableResult
    public func openScene(of app: Application) throws(LifecycleError) -> SceneID {
        try send(.openScene, to: app)
        return state.withLock { $0.core.lastConnectedScene(of: app.id) ?? SceneID(rawValue: "") }
    }

    /// The user closes one window of the app (swipes it away in the app switcher): the scene goes to
    /// the background if it was on screen, then `sceneDidDisconnect`; its session is discarded, so its
    /// state restoration activity is never handed back [S11][S76]. Closing the last window on screen
    /// sends the app to the background.
    /// - Throws: ``LifecycleError`` (``LifecycleError/Problem/noSuchScene`` for a scene that is not
    ///   connected). Nothing changes.
    public func closeScene(_ scene: SceneID, of app: Application) throws(LifecycleError) {
        try send(.closeScene(scene), to: app)
    }

    /// The system disconnects a background scene to reclaim its memory: `sceneDidDisconnect` (a
    /// suspended app is resumed into the background for it). The session stays: when the user returns,
    /// the scene reconnects with its state restoration activity [S1][S11][S76].
    /// - Throws: ``LifecycleError`` (``LifecycleError/Problem/sceneNotInBackground`` for a scene on
    ///   screen). Nothing changes.
    public func reclaimScene(_ scene: SceneID, of app: Application) throws(LifecycleError) {
        try send(.reclaimScene(scene), to: app)
    }

    /// The app's connected scenes as the system decided them, in the order they connected, with their
    /// activation states.
    public func scenes(of app: Application) -> [(id: SceneID, state: SceneActivationState)] {
        state.withLock { state in
            state.core.connectedScenes(of: app.id).compactMap { id in
                state.core.sceneState(id, of: app.id).map { (id, $0) }
            }
        }
    }

    /// Called on the app's queue as a scene callback starts and after it returns (the watchdog).
    func sceneCallbackStarted(_ callback: SceneCallback, scene: SceneID, app: AppID, incarnation: UInt64) {
        decide { core, now in core.sceneCallbackStarted(callback, scene: scene, app: app, incarnation: incarnation, at: now) }
    }

    func sceneCallbackReturned(_ callback: SceneCallback, scene: SceneID, app: AppID) {
        decide { core, now in core.sceneCallbackReturned(callback, scene: scene, app: app, at: now) }
    }
}
