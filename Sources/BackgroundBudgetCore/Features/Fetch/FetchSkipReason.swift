import BudgetTime

/// Why a background fetch opportunity passed without a fetch.
public enum FetchSkipReason: String, Sendable, Hashable, CaseIterable {
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
}
