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
/// The callbacks grow as the model does, so this is a struct with a static member per callback rather than an enum:
/// a new one is not a breaking change. Compare with `==`, or match in a `switch` that has a `default`.
public struct SceneCallback: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The callbacks the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case willConnect
        case willEnterForeground
        case didBecomeActive
        case willResignActive
        case didEnterBackground
        case didDisconnect
    }

    /// The callback, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The callback's name, as traces and outside files spell it.
    public var rawValue: String { base.rawValue }

    /// The callback with that name, or `nil` for one the model does not know.
    public init?(rawValue: String) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }

    /// Every callback the model knows, in declaration order.
    public static var allCases: [SceneCallback] { Base.allCases.map(SceneCallback.init) }

    /// `scene(_:willConnectTo:options:)`: a session's scene is created and connects to the app.
    public static let willConnect = SceneCallback(.willConnect)
    /// `sceneWillEnterForeground(_:)`.
    public static let willEnterForeground = SceneCallback(.willEnterForeground)
    /// `sceneDidBecomeActive(_:)`.
    public static let didBecomeActive = SceneCallback(.didBecomeActive)
    /// `sceneWillResignActive(_:)`.
    public static let willResignActive = SceneCallback(.willResignActive)
    /// `sceneDidEnterBackground(_:)`.
    public static let didEnterBackground = SceneCallback(.didEnterBackground)
    /// `sceneDidDisconnect(_:)`: the user closed the scene in the app switcher, or the system reclaimed
    /// a background scene; never on an ordinary app switch ([S11]).
    public static let didDisconnect = SceneCallback(.didDisconnect)

    /// The Objective-C selector, e.g. `"sceneDidEnterBackground:"`.
    public var selector: String {
        switch base {
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
        switch base {
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
