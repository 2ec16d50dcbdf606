/// Device conditions processing tasks depend on.
struct DeviceConditions: Sendable, Hashable {
    /// A network connection is available.
    var networkAvailable = true
    /// The device is connected to external power.
    var externalPower = false
    /// The device is idle (the screen is off and no one uses it); opening an app ends idleness.
    var deviceIdle = false
}
