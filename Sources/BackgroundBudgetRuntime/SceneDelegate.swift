/// The methods the system calls as a scene of a scene-based app moves through its life cycle, named as
/// in `UISceneDelegate` and `UIWindowSceneDelegate`.
///
/// An app adopts the scene-based life cycle with an ``AppManifest/sceneManifest``
/// (`UIApplicationSceneManifest`); its scene delegate then gets the foreground and background callbacks,
/// and its ``ApplicationDelegate`` no longer does (it still gets the launch, termination and
/// memory-warning callbacks) [S9][S10][S100]. One delegate serves every scene of the app; each method
/// says which scene. Every method has an empty default implementation. The system calls them on the
/// app's own serial executor, one at a time, in the documented order, the same way as the app
/// delegate's, and never while it holds a lock.
///
/// ```swift
/// final class Scenes: SceneDelegate {
///     func sceneDidEnterBackground(_ scene: Scene) {
///         // save state; begin a background task on scene.application if work remains
///     }
///     func stateRestorationActivity(for scene: Scene) -> UserActivity? {
///         UserActivity(activityType: "com.example.notes.editing", userInfo: ["note": "42"])
///     }
/// }
/// app.sceneDelegate = Scenes()
/// ```
import BackgroundBudgetCore

public protocol SceneDelegate: AnyObject, Sendable {
    /// A scene connects to the app (`scene(_:willConnectTo:options:)`): its session's
    /// ``SceneSession/stateRestorationActivity`` is the activity the scene gave when it last went to
    /// the background, if the session is being restored [S76].
    func scene(_ scene: Scene, willConnectTo session: SceneSession)
    /// The scene is about to enter the foreground (`sceneWillEnterForeground(_:)`).
    func sceneWillEnterForeground(_ scene: Scene)
    /// The scene has become active (`sceneDidBecomeActive(_:)`).
    func sceneDidBecomeActive(_ scene: Scene)
    /// The scene is about to become inactive (`sceneWillResignActive(_:)`).
    func sceneWillResignActive(_ scene: Scene)
    /// The scene is now in the background (`sceneDidEnterBackground(_:)`).
    func sceneDidEnterBackground(_ scene: Scene)
    /// The scene was disconnected (`sceneDidDisconnect(_:)`): the user closed it, or the system
    /// reclaimed it; its session may reconnect later [S11].
    func sceneDidDisconnect(_ scene: Scene)
    /// The activity that restores the scene's state (`stateRestorationActivity(for:)`): the system
    /// asks right after `sceneDidEnterBackground` returns and hands the value back in the session when
    /// the session's scene reconnects (after a reclaim, or after the app's process ended) [S76].
    func stateRestorationActivity(for scene: Scene) -> UserActivity?
}

extension SceneDelegate {
    /// Does nothing.
    public func scene(_ scene: Scene, willConnectTo session: SceneSession) {}
    /// Does nothing.
    public func sceneWillEnterForeground(_ scene: Scene) {}
    /// Does nothing.
    public func sceneDidBecomeActive(_ scene: Scene) {}
    /// Does nothing.
    public func sceneWillResignActive(_ scene: Scene) {}
    /// Does nothing.
    public func sceneDidEnterBackground(_ scene: Scene) {}
    /// Does nothing.
    public func sceneDidDisconnect(_ scene: Scene) {}
    /// Returns `nil`: nothing to restore.
    public func stateRestorationActivity(for scene: Scene) -> UserActivity? { nil }
}

extension SceneDelegate {
    /// Calls the delegate method for `callback`.
    func deliver(_ callback: SceneCallback, to scene: Scene) {
        switch callback {
        case .willConnect: self.scene(scene, willConnectTo: scene.session)
        case .willEnterForeground: sceneWillEnterForeground(scene)
        case .didBecomeActive: sceneDidBecomeActive(scene)
        case .willResignActive: sceneWillResignActive(scene)
        case .didEnterBackground: sceneDidEnterBackground(scene)
        case .didDisconnect: sceneDidDisconnect(scene)
        }
    }
}
