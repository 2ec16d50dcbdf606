import BudgetTime

/// Why a background fetch opportunity passed without a fetch.
///
/// The reasons grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`:
///
/// ```swift
/// switch reason {
/// case .backgroundAppRefreshOff: print("backgroundAppRefreshOff")
/// default: print(reason)   // its name
/// }
/// ```
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum FetchSkipReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Background App Refresh is off for the app (denied or restricted).
    case backgroundAppRefreshOff
    /// The battery is critically low [S59].
    case criticallyLowBattery
    /// The user killed the app from the app switcher; it is not launched until the user opens it.
    case killedByUser
    /// The app is on screen.
    case inForeground
    /// A fetch is still running.
    case fetchInProgress

    /// The reason's name.
    public var description: String { rawValue }
}
