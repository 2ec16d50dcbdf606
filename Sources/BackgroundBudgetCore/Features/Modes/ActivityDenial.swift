import BudgetTime

/// Why an activity could not start keeping the app running.
public enum ActivityDenial: String, Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The app does not declare the activity's mode in `UIBackgroundModes`.
    case modeNotDeclared
    /// The app is not running or is suspended.
    case notRunning
    /// The app sets `UIApplicationExitsOnSuspend` and never runs in the background.
    case exitsOnSuspend

    /// A sentence saying why.
    public var description: String {
        switch self {
        case .modeNotDeclared: "the app does not declare the background mode"
        case .notRunning: "the app is not running"
        case .exitsOnSuspend: "the app exits on suspend"
        }
    }
}
