import BudgetTime

/// A system notification an app observes: the queued kinds of Apple's "Processing queued
/// notifications" list [S73][S74].
///
/// While an app is suspended, notifications are queued and coalesced to one net change per kind (the
/// latest value wins); when the app runs again they are delivered first, before any other callback,
/// in the order their kinds first arrived.
///
/// The notifications grow as the model does, so this is a struct with a static member (a static function for one
/// with values) per notification rather than an enum: a new one is not a breaking change. Compare with `==`, or
/// match in a `switch` that has a `default`; read a notification's values through the property of its name.
public struct SystemNotification: Sendable, Hashable, CustomStringConvertible {
    /// The notifications the model knows, with their values, for the package's own exhaustive switches.
    package enum Base: Sendable, Hashable {
        case orientation(String)
        case locale(String)
        case userDefaults
        case screenMode
        case screenConnection(Bool)
        case accessoryConnection(Bool)
        case ubiquityIdentity
        case significantTimeChange
        case batteryLevel(Double)
        case batteryState(String)
        case proximity(Bool)
        case protectedData(Bool)
        case backgroundRefreshStatus(BackgroundRefreshStatus)
    }

    /// The notification, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// `UIDevice.orientationDidChangeNotification`, with the new orientation.
    public static func orientation(_ value: String) -> SystemNotification { SystemNotification(.orientation(value)) }
    /// What an ``orientation(_:)`` notification carries; `nil` for any other notification.
    public var orientation: String? {
        if case .orientation(let v0) = base { v0 } else { nil }
    }

    /// `NSLocale.currentLocaleDidChangeNotification`, with the new locale identifier.
    public static func locale(_ value: String) -> SystemNotification { SystemNotification(.locale(value)) }
    /// What a ``locale(_:)`` notification carries; `nil` for any other notification.
    public var locale: String? {
        if case .locale(let v0) = base { v0 } else { nil }
    }

    /// `UserDefaults.didChangeNotification` (a setting changed in the Settings app).
    public static let userDefaults = SystemNotification(.userDefaults)
    /// `UIScreen.modeDidChangeNotification`.
    public static let screenMode = SystemNotification(.screenMode)

    /// `UIScreen.didConnectNotification` (`true`) or `didDisconnectNotification` (`false`).
    public static func screenConnection(_ value: Bool) -> SystemNotification {
        SystemNotification(.screenConnection(value))
    }
    /// What a ``screenConnection(_:)`` notification carries; `nil` for any other notification.
    public var screenConnection: Bool? {
        if case .screenConnection(let v0) = base { v0 } else { nil }
    }

    /// `EAAccessoryDidConnect` (`true`) or `EAAccessoryDidDisconnect` (`false`).
    public static func accessoryConnection(_ value: Bool) -> SystemNotification {
        SystemNotification(.accessoryConnection(value))
    }
    /// What an ``accessoryConnection(_:)`` notification carries; `nil` for any other notification.
    public var accessoryConnection: Bool? {
        if case .accessoryConnection(let v0) = base { v0 } else { nil }
    }

    /// `NSUbiquityIdentityDidChange`.
    public static let ubiquityIdentity = SystemNotification(.ubiquityIdentity)
    /// `UIApplication.significantTimeChangeNotification` (midnight, a time-zone change, …).
    public static let significantTimeChange = SystemNotification(.significantTimeChange)

    /// `UIDevice.batteryLevelDidChangeNotification`, with the level from 0 to 1.
    public static func batteryLevel(_ value: Double) -> SystemNotification { SystemNotification(.batteryLevel(value)) }
    /// What a ``batteryLevel(_:)`` notification carries; `nil` for any other notification.
    public var batteryLevel: Double? {
        if case .batteryLevel(let v0) = base { v0 } else { nil }
    }

    /// `UIDevice.batteryStateDidChangeNotification`, with the state's name.
    public static func batteryState(_ value: String) -> SystemNotification { SystemNotification(.batteryState(value)) }
    /// What a ``batteryState(_:)`` notification carries; `nil` for any other notification.
    public var batteryState: String? {
        if case .batteryState(let v0) = base { v0 } else { nil }
    }

    /// `UIDevice.proximityStateDidChangeNotification`.
    public static func proximity(_ value: Bool) -> SystemNotification { SystemNotification(.proximity(value)) }
    /// What a ``proximity(_:)`` notification carries; `nil` for any other notification.
    public var proximity: Bool? {
        if case .proximity(let v0) = base { v0 } else { nil }
    }

    /// Protected data became available (`true`) or unavailable (`false`) [S74].
    public static func protectedData(_ value: Bool) -> SystemNotification { SystemNotification(.protectedData(value)) }
    /// What a ``protectedData(_:)`` notification carries; `nil` for any other notification.
    public var protectedData: Bool? {
        if case .protectedData(let v0) = base { v0 } else { nil }
    }

    /// `UIApplication.backgroundRefreshStatusDidChangeNotification`, with the app's new status [S60].
    public static func backgroundRefreshStatus(_ backgroundRefreshStatus: BackgroundRefreshStatus) -> SystemNotification {
        SystemNotification(.backgroundRefreshStatus(backgroundRefreshStatus))
    }
    /// What a ``backgroundRefreshStatus(_:)`` notification carries; `nil` for any other notification.
    public var backgroundRefreshStatus: BackgroundRefreshStatus? {
        if case .backgroundRefreshStatus(let v0) = base { v0 } else { nil }
    }

    /// The kind, for coalescing: notifications of one kind replace each other.
    public var kind: String {
        switch base {
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
        switch base {
        case .orientation(let value), .locale(let value), .batteryState(let value): "\(kind)(\(value))"
        case .screenConnection(let value), .accessoryConnection(let value), .proximity(let value), .protectedData(let value):
            "\(kind)(\(value))"
        case .batteryLevel(let value): "\(kind)(\(value))"
        case .backgroundRefreshStatus(let status): "\(kind)(\(status))"
        case .userDefaults, .screenMode, .ubiquityIdentity, .significantTimeChange: kind
        }
    }
}
