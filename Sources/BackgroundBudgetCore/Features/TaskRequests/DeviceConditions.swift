import BudgetTime

/// Device conditions processing tasks depend on.
package struct DeviceConditions: Sendable, Hashable {
    /// A network connection is available.
    package internal(set) var networkAvailable = true
    /// The device is connected to external power.
    package internal(set) var externalPower = false
    /// The device is idle (the screen is off and no one uses it); opening an app ends idleness.
    package internal(set) var deviceIdle = false
}
