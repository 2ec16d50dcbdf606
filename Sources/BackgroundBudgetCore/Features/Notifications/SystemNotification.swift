import BudgetTime

/// A system notification an app observes: the queued kinds of Apple's "Processing queued
/// notifications" list [S73][S74].
///
/// While an app is suspended, notifications are queued and coalesced to one net change per kind (the
/// latest value wins); when the app runs again they are delivered first, before any other callback,
/// in the order their kinds first arrived.
///
/// The notifications grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and
/// a `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum SystemNotification: Sendable, Hashable, CustomStringConvertible {
    /// `UIDevice.orientationDidChangeNotification`, with the new orientation.
    case orientation(String)
    /// `NSLocale.currentLocaleDidChangeNotification`, with the new locale identifier.
    case locale(String)
    /// `UserDefaults.didChangeNotification` (a setting changed in the Settings app).
    case userDefaults
    /// `UIScreen.modeDidChangeNotification`.
    case screenMode
    /// `UIScreen.didConnectNotification` (`true`) or `didDisconnectNotification` (`false`).
    case screenConnection(Bool)
    /// `EAAccessoryDidConnect` (`true`) or `EAAccessoryDidDisconnect` (`false`).
    case accessoryConnection(Bool)
    /// `NSUbiquityIdentityDidChange`.
    case ubiquityIdentity
    /// `UIApplication.significantTimeChangeNotification` (midnight, a time-zone change, …).
    case significantTimeChange
    /// `UIDevice.batteryLevelDidChangeNotification`, with the level from 0 to 1.
    case batteryLevel(Double)
    /// `UIDevice.batteryStateDidChangeNotification`, with the state's name.
    case batteryState(String)
    /// `UIDevice.proximityStateDidChangeNotification`.
    case proximity(Bool)
    /// Protected data became available (`true`) or unavailable (`false`) [S74].
    case protectedData(Bool)
    /// `UIApplication.backgroundRefreshStatusDidChangeNotification`, with the app's new status [S60].
    case backgroundRefreshStatus(BackgroundRefreshStatus)

    /// The kind, for coalescing: notifications of one kind replace each other.
    public var kind: String {
        switch self {
        case .orientation: "orientation"
        case .locale: "locale"
        case .userDefaults: "userDefaults"
        case .screenMode: "screenMode"
        case .screenConnection: "screenConnection"
        case .accessoryConnection: "accessoryConnection"
        case .ubiquityIdentity: "ubiquityIdentity"
        case .significantTimeChange: "significantTimeChange"
        case .batteryLevel: "batteryLevel"
        case .batteryState: "batteryState"
        case .proximity: "proximity"
        case .protectedData: "protectedData"
        case .backgroundRefreshStatus: "backgroundRefreshStatus"
        }
    }

    /// The kind with its value, e.g. `"orientation(landscapeLeft)"` or `"batteryLevel(0.25)"`.
    public var description: String {
        switch self {
        case .orientation(let value), .locale(let value), .batteryState(let value): "\(kind)(\(value))"
        case .screenConnection(let value), .accessoryConnection(let value), .proximity(let value), .protectedData(let value):
            "\(kind)(\(value))"
        case .batteryLevel(let value): "\(kind)(\(value))"
        case .backgroundRefreshStatus(let status): "\(kind)(\(status))"
        case .userDefaults, .screenMode, .ubiquityIdentity, .significantTimeChange: kind
        }
    }
}
