/// A ``SceneDelegate`` isolated to the main actor, as `UISceneDelegate` is: a class with plain stored
/// properties, whose callbacks the system delivers on the main actor.
///
/// ```swift
/// final class WindowDelegate: MainActorSceneDelegate {   // @MainActor, inferred
///     var backgroundedScenes: [SceneID] = []
///
///     func sceneDidEnterBackground(_ scene: Scene) {
///         backgroundedScenes.append(scene.id)
///     }
/// }
///
/// app.mainActorSceneDelegate = WindowDelegate()
/// ```
///
/// The methods, their order and their defaults are those of ``SceneDelegate``; an app has one scene
/// delegate or the other (``Application/sceneDelegate`` or ``Application/mainActorSceneDelegate``).
/// The list is repeated, and a test keeps the two the same, for the reason
/// ``MainActorApplicationDelegate`` gives: a protocol's isolation covers all its requirements.
/// Setting one makes all the app's work run on the main actor, exactly as a
/// ``MainActorApplicationDelegate`` does: read *Where the callbacks run* there (on a ``VirtualClock``,
/// drive the system and the clock from the main actor).
@MainActor
public protocol MainActorSceneDelegate: AnyObject, Sendable {
    /// See ``SceneDelegate/scene(_:willConnectTo:)``.
    func scene(_ scene: Scene, willConnectTo session: SceneSession)
    /// See ``SceneDelegate/sceneWillEnterForeground(_:)``.
    func sceneWillEnterForeground(_ scene: Scene)
    /// See ``SceneDelegate/sceneDidBecomeActive(_:)``.
    func sceneDidBecomeActive(_ scene: Scene)
    /// See ``SceneDelegate/sceneWillResignActive(_:)``.
    func sceneWillResignActive(_ scene: Scene)
    /// See ``SceneDelegate/sceneDidEnterBackground(_:)``.
    func sceneDidEnterBackground(_ scene: Scene)
    /// See ``SceneDelegate/sceneDidDisconnect(_:)``.
    func sceneDidDisconnect(_ scene: Scene)
    /// See ``SceneDelegate/stateRestorationActivity(for:)``.
    func stateRestorationActivity(for scene: Scene) -> UserActivity?
}

extension MainActorSceneDelegate {
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
    /// No activity: the scene restores nothing.
    public func stateRestorationActivity(for scene: Scene) -> UserActivity? { nil }
}

/// The shell's view of a ``MainActorSceneDelegate``: a ``SceneDelegate`` whose every method runs the
/// main-actor one through ``onMainActor(_:file:line:)``, so the scene delivery path is the same for both.
final class MainActorSceneDelegateAdapter: SceneDelegate {
    let base: any MainActorSceneDelegate

    init(_ base: any MainActorSceneDelegate) {
        self.base = base
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        onMainActor { base.scene(scene, willConnectTo: session) }
    }
    func sceneWillEnterForeground(_ scene: Scene) {
        onMainActor { base.sceneWillEnterForeground(scene) }
    }
    func sceneDidBecomeActive(_ scene: Scene) {
        onMainActor { base.sceneDidBecomeActive(scene) }
    }
    func sceneWillResignActive(_ scene: Scene) {
        onMainActor { base.sceneWillResignActive(scene) }
    }
    func sceneDidEnterBackground(_ scene: Scene) {
        onMainActor { base.sceneDidEnterBackground(scene) }
    }
    func sceneDidDisconnect(_ scene: Scene) {
        onMainActor { base.sceneDidDisconnect(scene) }
    }
    func stateRestorationActivity(for scene: Scene) -> UserActivity? {
        var activity: UserActivity?
        onMainActor { activity = base.stateRestorationActivity(for: scene) }
        return activity
    }
}
