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
    /// The problems grow as the model does, so this is a struct with a static member per problem rather
    /// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
    /// a `default`:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .notRunning: print("launch it first")
    /// default: print(error)
    /// }
    /// ```
    public struct Problem: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The problems the model knows, for the package's own exhaustive switches.
        package enum Base: String, Sendable, Hashable, CaseIterable {
            case alreadyRunning
            case notRunning
            case notActive
            case notInterrupted
            case notInForeground
            case inForeground
            case alreadyInForeground
            case notInBackground
            case notSuspended
            case exitsOnSuspend
            case noForegroundApp
            case terminating
            case noScenes
            case multipleScenesNotSupported
            case noSuchScene
            case sceneNotInBackground
        }

        /// The problem, for the package's own exhaustive switches.
        package let base: Base

        package init(_ base: Base) { self.base = base }

        /// The problem's name, as traces and outside files spell it.
        public var rawValue: String { base.rawValue }

        /// The problem with that name, or `nil` for a name the model does not know.
        public init?(rawValue: String) {
            guard let base = Base(rawValue: rawValue) else { return nil }
            self.base = base
        }

        /// Every problem the model knows, in declaration order.
        public static var allCases: [Problem] { Base.allCases.map(Problem.init) }

        /// The problem's name.
        public var description: String { rawValue }

        /// The app is already running.
        public static let alreadyRunning = Problem(.alreadyRunning)
        /// The app is not running.
        public static let notRunning = Problem(.notRunning)
        /// The event needs an active app.
        public static let notActive = Problem(.notActive)
        /// The event needs an app covered by an interruption (inactive).
        public static let notInterrupted = Problem(.notInterrupted)
        /// The event needs an app in the foreground.
        public static let notInForeground = Problem(.notInForeground)
        /// The event needs an app that is not in the foreground.
        public static let inForeground = Problem(.inForeground)
        /// The app is already in the foreground.
        public static let alreadyInForeground = Problem(.alreadyInForeground)
        /// The event needs an app running in the background.
        public static let notInBackground = Problem(.notInBackground)
        /// The event needs a suspended app.
        public static let notSuspended = Problem(.notSuspended)
        /// The app sets `UIApplicationExitsOnSuspend`, so it never runs in the background.
        public static let exitsOnSuspend = Problem(.exitsOnSuspend)
        /// No app is in the foreground to receive a device-wide event.
        public static let noForegroundApp = Problem(.noForegroundApp)
        /// The app is terminating: `applicationWillTerminate` is running.
        public static let terminating = Problem(.terminating)
        /// The event concerns scenes, and the app has not adopted the scene-based life cycle (its
        /// manifest has no ``AppManifest/sceneManifest``).
        public static let noScenes = Problem(.noScenes)
        /// The app does not support multiple scenes (`UIApplicationSupportsMultipleScenes`).
        public static let multipleScenesNotSupported = Problem(.multipleScenesNotSupported)
        /// The app has no connected scene with that identifier.
        public static let noSuchScene = Problem(.noSuchScene)
        /// The event needs a scene in the background.
        public static let sceneNotInBackground = Problem(.sceneNotInBackground)
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
        let why: String = switch problem.base {
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
