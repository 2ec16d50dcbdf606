import BudgetTime

/// A callback that the system delivers to a scene's delegate (`UISceneDelegate` and
/// `UIWindowSceneDelegate`), in an app that adopts the scene-based life cycle.
///
/// The foreground and background callbacks replace the app delegate's: a scene-based app's delegate
/// gets no `applicationWillEnterForeground`, `applicationDidBecomeActive`,
/// `applicationWillResignActive` or `applicationDidEnterBackground` ([S10][S100]); it still gets
/// the launch, termination and memory-warning callbacks ([S9]). ``selector`` is the Objective-C
/// selector; ``eventName`` the name used in JSON traces (the selector without its final colon).
///
/// The callbacks grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum SceneCallback: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `scene(_:willConnectTo:options:)`: a session's scene is created and connects to the app.
    case willConnect
    /// `sceneWillEnterForeground(_:)`.
    case willEnterForeground
    /// `sceneDidBecomeActive(_:)`.
    case didBecomeActive
    /// `sceneWillResignActive(_:)`.
    case willResignActive
    /// `sceneDidEnterBackground(_:)`.
    case didEnterBackground
    /// `sceneDidDisconnect(_:)`: the user closed the scene in the app switcher, or the system reclaimed
    /// a background scene; never on an ordinary app switch ([S11]).
    case didDisconnect

    /// The Objective-C selector, e.g. `"sceneDidEnterBackground:"`.
    public var selector: String {
        switch self {
        case .willConnect: "scene:willConnectToSession:options:"
        case .willEnterForeground: "sceneWillEnterForeground:"
        case .didBecomeActive: "sceneDidBecomeActive:"
        case .willResignActive: "sceneWillResignActive:"
        case .didEnterBackground: "sceneDidEnterBackground:"
        case .didDisconnect: "sceneDidDisconnect:"
        }
    }

    /// The trace event name: the selector without its final colon, e.g. `"sceneDidEnterBackground"`.
    public var eventName: String { String(selector.dropLast()) }

    /// The callback with a given trace event name, or `nil`.
    /// - Parameter eventName: A name such as `"sceneWillResignActive"`.
    public init?(eventName: String) {
        guard let match = Self.allCases.first(where: { $0.eventName == eventName }) else { return nil }
        self = match
    }

    /// The app-delegate callback this one replaces, whose time limit it shares, or `nil`.
    public var replacedAppCallback: AppCallback? {
        switch self {
        case .willEnterForeground: .willEnterForeground
        case .didBecomeActive: .didBecomeActive
        case .willResignActive: .willResignActive
        case .didEnterBackground: .didEnterBackground
        case .willConnect, .didDisconnect: nil
        }
    }

    /// The trace event name.
    public var description: String { eventName }
}
