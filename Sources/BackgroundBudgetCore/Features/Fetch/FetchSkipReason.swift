import BudgetTime

/// Why a background fetch opportunity passed without a fetch.
///
/// The reasons grow as the model does, so this is a struct with a static member per reason rather
/// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
/// a `default`:
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
