import BudgetTime

/// Identifies one finite background task, as `UIBackgroundTaskIdentifier` does.
///
/// Identifiers are unique per app for the life of the `BackgroundSystem`: a task begun after a
/// relaunch never reuses an old number, so ending a stale identifier is reported, not misapplied.
public struct BackgroundTaskIdentifier: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number; `0` is ``invalid``.
    public var rawValue: UInt64

    /// Creates an identifier from its number.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// The identifier `beginBackgroundTask` returns when no task was granted (`UIBackgroundTaskInvalid`).
    public static let invalid = BackgroundTaskIdentifier(rawValue: 0)

    /// Orders identifiers by number, which is the order the tasks were begun.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The number, or `"invalid"`.
    public var description: String { self == .invalid ? "invalid" : String(rawValue) }
}
