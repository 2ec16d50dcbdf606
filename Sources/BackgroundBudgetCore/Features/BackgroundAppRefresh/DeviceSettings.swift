import BudgetTime

/// Device-wide settings the system consults.
package struct DeviceSettings: Sendable, Hashable {
    /// Settings › General › Background App Refresh.
    package internal(set) var backgroundAppRefresh = true
    /// The device forbids Background App Refresh (for example parental controls).
    package internal(set) var backgroundAppRefreshRestricted = false
    /// Low Power Mode, which turns Background App Refresh off [S60][S66].
    package internal(set) var lowPowerMode = false
    /// The battery is critically low, which stops discretionary background activity without changing
    /// any app's Background App Refresh status [S59].
    package internal(set) var criticallyLowBattery = false
}
