import BudgetTime

/// How often an app asks to be woken for a background fetch
/// (`setMinimumBackgroundFetchInterval(_:)`) [S41][S42].
///
/// The set is closed: UIKit's two constants and an interval of the app's choice, so a `switch` over it needs
/// no `default`.
public enum BackgroundFetchInterval: Sendable, Hashable, CustomStringConvertible {
    /// No fetches (`backgroundFetchIntervalNever`), the default.
    case never
    /// As often as the system allows (`backgroundFetchIntervalMinimum`): every
    /// ``BudgetPolicy/minimumFetchInterval`` at best.
    case minimum
    /// No more often than this.
    case atLeast(Duration)

    /// `never`, `minimum` or `atLeast(600.0 seconds)`.
    public var description: String {
        switch self {
        case .never: "never"
        case .minimum: "minimum"
        case .atLeast(let interval): "atLeast(\(interval))"
        }
    }
}
