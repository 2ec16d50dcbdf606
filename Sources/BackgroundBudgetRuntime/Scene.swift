/// A scene of a scene-based app as its delegate sees it (`UIScene`): its session, its activation
/// state when the callback was delivered, and the app it belongs to.
import BackgroundBudgetCore

public struct Scene: Sendable {
    /// The scene's session.
    public var session: SceneSession
    /// The scene's activation state as the callback is delivered (`UIScene.activationState`).
    public var activationState: SceneActivationState
    /// The app the scene belongs to (`UIApplication.shared`).
    public let application: Application

    /// The session's identifier.
    public var id: SceneID { session.persistentIdentifier }
}

/// A scene session (`UISceneSession`): it outlives its scene's disconnection and the app's process,
/// until the user closes it.
public struct SceneSession: Sendable, Hashable {
    /// The session's identifier.
    public var persistentIdentifier: SceneID
    /// The activity the scene gave (``SceneDelegate/stateRestorationActivity(for:)``) when it last went
    /// to the background, handed back when the session's scene reconnects; `nil` if none [S76].
    public var stateRestorationActivity: UserActivity?

    /// Creates a session value.
    public init(persistentIdentifier: SceneID, stateRestorationActivity: UserActivity? = nil) {
        self.persistentIdentifier = persistentIdentifier
        self.stateRestorationActivity = stateRestorationActivity
    }
}

/// A user activity that restores a scene's state (the values of an `NSUserActivity` the model keeps).
public struct UserActivity: Sendable, Hashable {
    /// The activity type, e.g. `"com.example.notes.editing"`.
    public var activityType: String
    /// What the activity carries, e.g. the identifier of the open document.
    public var userInfo: [String: String]

    /// Creates an activity.
    public init(activityType: String, userInfo: [String: String] = [:]) {
        self.activityType = activityType
        self.userInfo = userInfo
    }
}

extension Scene {
    /// Reads what the scene's session carries for state restoration
    /// (``SceneSession/stateRestorationActivity``) and records it in the trace
    /// (`restorationActivityRead`: the session as `name`, the activity type as `activityType`, `null`
    /// for none), as an app that logs what it restores would show it. Code of an ended process leaves
    /// no entry.
    /// - Returns: The session's activity, or `nil`.
    @discardableResult
    public func recordStateRestorationActivity() -> UserActivity? {
        let activity = session.stateRestorationActivity
        application.system?.decide(caller: application) { [id, app = application.id] core, now in
            core.readRestorationActivity(activity?.activityType, scene: id, of: app, at: now)
        }
        return activity
    }
}
