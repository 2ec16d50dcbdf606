import BudgetTime

/// One step of a lifecycle transition, in the order the app experiences it.
///
/// The steps grow as the model does, so this is a struct with a static member (a static function for one with
/// values) per step rather than an enum: a new one is not a breaking change. Compare with `==`, or match in a
/// `switch` that has a `default`; read a step's values through the property of its name.
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
