import BudgetTime

/// Why an activity could not start keeping the app running.
///
/// The denials grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`:
///
/// ```swift
/// switch denial {
/// case .modeNotDeclared: print("modeNotDeclared")
/// default: print(denial)   // its name
/// }
/// ```
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum ActivityDenial: String, Sendable, Hashable, CaseIterable, CustomStringConvertible, Error {
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
