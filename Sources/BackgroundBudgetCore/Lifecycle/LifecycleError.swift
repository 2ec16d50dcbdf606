import BudgetTime

/// An event that cannot happen to an app in its current state. Nothing was changed.
///
/// ```swift
/// do { try system.pressHome() } catch { print(error) }
/// // cannot pressHome: app is background, not in the foreground
/// ```
public struct LifecycleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What exactly was wrong.
    ///
    /// The problems grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .notRunning: print("launch it first")
    /// default: print(error)
    /// }
    /// ```
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Problem: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The app is already running.
        case alreadyRunning
        /// The app is not running.
        case notRunning
        /// The event needs an active app.
        case notActive
        /// The event needs an app covered by an interruption (inactive).
        case notInterrupted
        /// The event needs an app in the foreground.
        case notInForeground
        /// The event needs an app that is not in the foreground.
        case inForeground
        /// The app is already in the foreground.
        case alreadyInForeground
        /// The event needs an app running in the background.
        case notInBackground
        /// The event needs a suspended app.
        case notSuspended
        /// The app sets `UIApplicationExitsOnSuspend`, so it never runs in the background.
        case exitsOnSuspend
        /// No app is in the foreground to receive a device-wide event.
        case noForegroundApp
        /// The app is terminating: `applicationWillTerminate` is running.
        case terminating
        /// The event concerns scenes, and the app has not adopted the scene-based life cycle (its
        /// manifest has no ``AppManifest/sceneManifest``).
        case noScenes
        /// The app does not support multiple scenes (`UIApplicationSupportsMultipleScenes`).
        case multipleScenesNotSupported
        /// The app has no connected scene with that identifier.
        case noSuchScene
        /// The event needs a scene in the background.
        case sceneNotInBackground

        /// The problem's name.
        public var description: String { rawValue }
    }

    /// The event that was refused.
    public var event: LifecycleEvent
    /// The app's state when it was refused.
    public var state: ApplicationState
    /// Why it was refused.
    public var problem: Problem
    /// The app concerned, when known.
    public var app: AppID?

    /// Creates an error.
    public init(event: LifecycleEvent, state: ApplicationState, problem: Problem, app: AppID? = nil) {
        self.event = event
        self.state = state
        self.problem = problem
        self.app = app
    }

    /// A sentence saying what was refused and why.
    public var description: String {
        let who = app.map { "app '\($0)'" } ?? "app"
        let why: String = switch problem {
        case .alreadyRunning: "is already running (\(state))"
        case .notRunning: "is not running"
        case .notActive: "is \(state), not active"
        case .notInterrupted: "is \(state), not covered by an interruption"
        case .notInForeground: "is \(state), not in the foreground"
        case .inForeground: "is in the foreground (\(state)); send it to the background first"
        case .alreadyInForeground: "is already in the foreground (\(state))"
        case .notInBackground: "is \(state), not running in the background"
        case .notSuspended: "is \(state), not suspended"
        case .exitsOnSuspend: "sets UIApplicationExitsOnSuspend and never runs in the background"
        case .noForegroundApp: "no app is in the foreground"
        case .terminating: "is terminating (applicationWillTerminate is running)"
        case .noScenes: "has not adopted the scene-based life cycle (no UIApplicationSceneManifest)"
        case .multipleScenesNotSupported: "does not support multiple scenes (UIApplicationSupportsMultipleScenes)"
        case .noSuchScene: "has no connected scene '\(event.scene.map(\.rawValue) ?? "")'"
        case .sceneNotInBackground: "has scene '\(event.scene.map(\.rawValue) ?? "")' on screen, not in the background"
        }
        if problem == .noForegroundApp { return "cannot \(event): \(why)" }
        return "cannot \(event): \(who) \(why)"
    }
}
