import BudgetTime

/// A device setting or condition that changed, as the trace records it (`deviceChanged`).
///
/// The changes grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum DeviceChange: Sendable, Hashable, CustomStringConvertible {
    /// The network connection came or went.
    case network(Bool)
    /// External power was connected or disconnected.
    case externalPower(Bool)
    /// The device became idle or stopped being idle.
    case idle(Bool)
    /// Low Power Mode went on or off.
    case lowPowerMode(Bool)
    /// The battery became critically low, or recovered.
    case criticallyLowBattery(Bool)
    /// The device restarted (value `restarted`).
    case reboot
    /// Background App Refresh was switched on or off (the device's switch, or an app's own).
    case backgroundAppRefresh(Bool)
    /// Background App Refresh became restricted or not.
    case backgroundAppRefreshRestricted(Bool)
    /// The memory for apps changed, in bytes; `nil` for no limit.
    case memoryCapacity(Int?)
    /// The system came under load or left it (continued-processing tasks wait while it is).
    case systemUnderLoad(Bool)
    /// Background GPU support was turned on or off.
    case backgroundGPU(Bool)

    /// The setting's name, the trace's `name`: `network`, `externalPower`, `idle`, `lowPowerMode`, `criticallyLowBattery`, `reboot`,
    /// `backgroundAppRefresh`, `backgroundAppRefreshRestricted`, `memoryCapacity`, `systemUnderLoad`,
    /// `backgroundGPU`.
    public var name: String {
        switch self {
        case .network: "network"
        case .externalPower: "externalPower"
        case .idle: "idle"
        case .lowPowerMode: "lowPowerMode"
        case .criticallyLowBattery: "criticallyLowBattery"
        case .reboot: "reboot"
        case .backgroundAppRefresh: "backgroundAppRefresh"
        case .backgroundAppRefreshRestricted: "backgroundAppRefreshRestricted"
        case .memoryCapacity: "memoryCapacity"
        case .systemUnderLoad: "systemUnderLoad"
        case .backgroundGPU: "backgroundGPU"
        }
    }

    /// The new value, the trace's `value`: `on` or `off`, or a capacity such as `512 MB` or `unlimited`.
    public var value: String {
        switch self {
        case .network(let on), .externalPower(let on), .idle(let on), .lowPowerMode(let on), .criticallyLowBattery(let on),
             .backgroundAppRefresh(let on),
             .backgroundAppRefreshRestricted(let on), .systemUnderLoad(let on), .backgroundGPU(let on):
            on ? "on" : "off"
        case .reboot: "restarted"
        case .memoryCapacity(let bytes):
            bytes.map { $0 % 1_000_000 == 0 ? "\($0 / 1_000_000) MB" : "\($0) bytes" } ?? "unlimited"
        }
    }

    /// `network off`.
    public var description: String { "\(name) \(value)" }
}
