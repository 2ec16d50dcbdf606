import BudgetTime

/// One step of a lifecycle transition, in the order the app experiences it.
///
/// The steps grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum LifecycleStep: Sendable, Hashable, CustomStringConvertible {
    /// The app's state becomes the given state.
    case enter(ApplicationState)
    /// The system calls a delegate method (and posts the matching notification).
    case callback(AppCallback)
    /// The app's process exits, for the given reason; always followed by `.enter(.notRunning)`.
    case exit(TerminationReason)
    /// A notification queued while the app was suspended is delivered. The transition function never
    /// produces this step: the runtime inserts it right after a suspended app resumes.
    case notification(SystemNotification)
    /// The system calls a scene delegate method for one scene (scene-based apps only).
    case sceneCallback(SceneCallback, SceneID)
    /// A scene's activation state becomes the given state (``SceneActivationState/unattached`` when it
    /// disconnects).
    case sceneState(SceneActivationState, SceneID)

    /// A short name for the step, e.g. `"enter(background)"` or `"applicationDidEnterBackground"`.
    public var description: String {
        switch self {
        case .enter(let state): "enter(\(state))"
        case .callback(let callback): callback.eventName
        case .exit(let reason): "exit(\(reason.rawValue))"
        case .notification(let notification): "notification(\(notification))"
        case .sceneCallback(let callback, let scene): "\(callback.eventName)(\(scene))"
        case .sceneState(let state, let scene): "scene(\(scene), \(state))"
        }
    }
}
