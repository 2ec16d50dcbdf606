import BudgetTime

/// The gates iOS puts in front of running an app in the background, one predicate each.
///
/// Every decision (fetch opportunities, task requests, event launches and wakes, activities, the
/// keep-alive handler) and every explanation (``FetchExplanation``, ``TaskRequestExplanation``,
/// ``Explanation/relaunchBlockers``) asks these predicates, so that what the system does and what it
/// says about it cannot drift apart:
/// - Background App Refresh (``DeviceCore/backgroundAppRefreshGates(slot:)``): restricted, the
///   device's switch, Low Power Mode, the app's switch [S60][S61][S66];
/// - a critically low battery (``DeviceCore/batteryGate()``), which stops the same launches as
///   Background App Refresh off, without changing its status [S59];
/// - a user kill from the app switcher (``DeviceCore/userKillGate(slot:for:)``) [S31][S86];
/// - `UIApplicationExitsOnSuspend` (``DeviceCore/exitsOnSuspendGate(slot:exceptOnScreen:)``).
package enum BackgroundGate: String, Sendable, Hashable, CaseIterable {
    /// The device forbids Background App Refresh (for example parental controls); the user cannot
    /// turn it on [S61].
    case backgroundAppRefreshRestricted
    /// Settings › General › Background App Refresh is off for the whole device [S60].
    case backgroundAppRefreshOffForDevice
    /// Low Power Mode is on, which turns Background App Refresh off for every app [S60][S66].
    case lowPowerMode
    /// The app's own Background App Refresh switch is off [S60].
    case backgroundAppRefreshOffForApp
    /// The battery is critically low: the system runs no fetch, refresh or processing task and
    /// delivers no silent push, as with Low Power Mode [S59].
    case criticallyLowBattery
    /// The user killed the app from the app switcher and has not opened it since [S86].
    case killedByUser
    /// The app sets `UIApplicationExitsOnSuspend`: it is never run in the background.
    case exitsOnSuspend

    /// Whether the gate is one of Background App Refresh's switches.
    var isBackgroundAppRefresh: Bool {
        switch self {
        case .backgroundAppRefreshRestricted, .backgroundAppRefreshOffForDevice, .lowPowerMode, .backgroundAppRefreshOffForApp: true
        case .criticallyLowBattery, .killedByUser, .exitsOnSuspend: false
        }
    }
}
