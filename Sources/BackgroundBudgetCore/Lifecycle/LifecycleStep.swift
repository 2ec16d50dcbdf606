import BudgetTime

/// One step of a lifecycle transition, in the order the app experiences it.
///
/// The steps grow as the model does, so this is a struct with a static member (a static function for one with
/// values) per step rather than an enum: a new one is not a breaking change. Compare with `==`, or match in a
/// `switch` that has a `default`; read a step's values through the property of its name.
public struct LifecycleStep: Sendable, Hashable, CustomStringConvertible {
    /// The steps the model knows, with their values, for the package's own exhaustive switches.
    package enum Base: Sendable, Hashable {
        case enter(ApplicationState)
        case callback(AppCallback)
        case exit(TerminationReason)
        case notification(SystemNotification)
        case sceneCallback(SceneCallback, SceneID)
        case sceneState(SceneActivationState, SceneID)
    }

    /// The step, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The app's state becomes the given state.
    public static func enter(_ applicationState: ApplicationState) -> LifecycleStep {
        LifecycleStep(.enter(applicationState))
    }
    /// What an ``enter(_:)`` step carries; `nil` for any other step.
    public var enter: ApplicationState? {
        if case .enter(let v0) = base { v0 } else { nil }
    }

    /// The system calls a delegate method (and posts the matching notification).
    public static func callback(_ appCallback: AppCallback) -> LifecycleStep { LifecycleStep(.callback(appCallback)) }
    /// What a ``callback(_:)`` step carries; `nil` for any other step.
    public var callback: AppCallback? {
        if case .callback(let v0) = base { v0 } else { nil }
    }

    /// The app's process exits, for the given reason; always followed by `.enter(.notRunning)`.
    public static func exit(_ terminationReason: TerminationReason) -> LifecycleStep {
        LifecycleStep(.exit(terminationReason))
    }
    /// What an ``exit(_:)`` step carries; `nil` for any other step.
    public var exit: TerminationReason? {
        if case .exit(let v0) = base { v0 } else { nil }
    }

    /// A notification queued while the app was suspended is delivered. The transition function never
    /// produces this step: the runtime inserts it right after a suspended app resumes.
    public static func notification(_ systemNotification: SystemNotification) -> LifecycleStep {
        LifecycleStep(.notification(systemNotification))
    }
    /// What a ``notification(_:)`` step carries; `nil` for any other step.
    public var notification: SystemNotification? {
        if case .notification(let v0) = base { v0 } else { nil }
    }

    /// The system calls a scene delegate method for one scene (scene-based apps only).
    public static func sceneCallback(_ sceneCallback: SceneCallback, _ sceneID: SceneID) -> LifecycleStep {
        LifecycleStep(.sceneCallback(sceneCallback, sceneID))
    }
    /// What a ``sceneCallback(_:_:)`` step carries; `nil` for any other step.
    public var sceneCallback: (SceneCallback, SceneID)? {
        if case .sceneCallback(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// A scene's activation state becomes the given state (``SceneActivationState/unattached`` when it
    /// disconnects).
    public static func sceneState(_ sceneActivationState: SceneActivationState, _ sceneID: SceneID) -> LifecycleStep {
        LifecycleStep(.sceneState(sceneActivationState, sceneID))
    }
    /// What a ``sceneState(_:_:)`` step carries; `nil` for any other step.
    public var sceneState: (SceneActivationState, SceneID)? {
        if case .sceneState(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// A short name for the step, e.g. `"enter(background)"` or `"applicationDidEnterBackground"`.
    public var description: String {
        switch base {
        case .enter(let state): "enter(\(state))"
        case .callback(let callback): callback.eventName
        case .exit(let reason): "exit(\(reason.rawValue))"
        case .notification(let notification): "notification(\(notification))"
        case .sceneCallback(let callback, let scene): "\(callback.eventName)(\(scene))"
        case .sceneState(let state, let scene): "scene(\(scene), \(state))"
        }
    }
}
