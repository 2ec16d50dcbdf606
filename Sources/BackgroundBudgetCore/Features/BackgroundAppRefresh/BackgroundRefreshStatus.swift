import BudgetTime

/// Whether the system may launch or wake an app in the background for content updates
/// (`UIBackgroundRefreshStatus`) [S60][S61].
///
/// The set is closed: the three values of `UIBackgroundRefreshStatus`, so a `switch` over it needs no `default`.
public enum BackgroundRefreshStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Background App Refresh is on for the app.
    case available
    /// The user turned it off, for the device or for this app, or Low Power Mode is on [S60][S66].
    case denied
    /// The device forbids it (for example parental controls); the user cannot turn it on [S61].
    case restricted

    /// The status's name.
    public var description: String { rawValue }
}
