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
public struct FetchSkipReason: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The reasons the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case backgroundAppRefreshOff
        case criticallyLowBattery
        case killedByUser
        case inForeground
        case fetchInProgress
    }

    /// The reason, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The reason's name, as traces and outside files spell it.
    public var rawValue: String { base.rawValue }

    /// The reason with that name, or `nil` for a name the model does not know.
    public init?(rawValue: String) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }

    /// Every reason the model knows, in declaration order.
    public static var allCases: [FetchSkipReason] { Base.allCases.map(FetchSkipReason.init) }

    /// The reason's name.
    public var description: String { rawValue }

    /// Background App Refresh is off for the app (denied or restricted).
    public static let backgroundAppRefreshOff = FetchSkipReason(Base.backgroundAppRefreshOff)
    /// The battery is critically low [S59].
    public static let criticallyLowBattery = FetchSkipReason(Base.criticallyLowBattery)
    /// The user killed the app from the app switcher; it is not launched until the user opens it.
    public static let killedByUser = FetchSkipReason(Base.killedByUser)
    /// The app is on screen.
    public static let inForeground = FetchSkipReason(Base.inForeground)
    /// A fetch is still running.
    public static let fetchInProgress = FetchSkipReason(Base.fetchInProgress)
}
