import BudgetTime

/// The identifier of a scene session (`UISceneSession.persistentIdentifier`): it names one window of
/// an app, and survives the scene's disconnection and the app's termination until the user closes it.
///
/// The system names the sessions it creates `scene-1`, `scene-2`, … in the order they are created.
public struct SceneID: RawRepresentable, Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The identifier.
    public var rawValue: String

    /// Creates an identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates an identifier from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The identifier.
    public var description: String { rawValue }

    /// Orders identifiers by their text.
    public static func < (lhs: SceneID, rhs: SceneID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A scene's activation state (`UIScene.ActivationState`). A scene of a suspended app reports
/// ``background``.
///
/// The set is closed: the four states of `UIScene.ActivationState`, so a `switch` over it needs no `default`.
public enum SceneActivationState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Not connected to the app.
    case unattached
    /// On screen and receiving events.
    case foregroundActive
    /// On screen, not receiving events.
    case foregroundInactive
    /// Off screen.
    case background

    /// Whether the scene is on screen.
    public var isForeground: Bool { self == .foregroundActive || self == .foregroundInactive }

    /// The state's trace name.
    public var description: String { rawValue }
}
