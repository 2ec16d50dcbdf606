import BudgetTime

/// A device setting or condition that changed, as the trace records it (`deviceChanged`).
///
/// The changes grow as the model does, so this is a struct with a static member (a static function for one with
/// values) per change rather than an enum: a new one is not a breaking change. Compare with `==`, or match in a
/// `switch` that has a `default`; read a change's values through the property of its name.
public struct DeviceChange: Sendable, Hashable, CustomStringConvertible {
    /// The changes the model knows, with their values, for the package's own exhaustive switches.
    package enum Base: Sendable, Hashable {
        case network(Bool)
        case externalPower(Bool)
        case idle(Bool)
        case lowPowerMode(Bool)
        case criticallyLowBattery(Bool)
        case reboot
        case backgroundAppRefresh(Bool)
        case backgroundAppRefreshRestricted(Bool)
        case memoryCapacity(Int?)
        case systemUnderLoad(Bool)
        case backgroundGPU(Bool)
    }

    /// The change, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The network connection came or went.
    public static func network(_ value: Bool) -> DeviceChange { DeviceChange(.network(value)) }
    /// What a ``network(_:)`` change carries; `nil` for any other change.
    public var network: Bool? {
        if case .network(let v0) = base { v0 } else { nil }
    }

    /// External power was connected or disconnected.
    public static func externalPower(_ value: Bool) -> DeviceChange { DeviceChange(.externalPower(value)) }
    /// What an ``externalPower(_:)`` change carries; `nil` for any other change.
    public var externalPower: Bool? {
        if case .externalPower(let v0) = base { v0 } else { nil }
    }

    /// The device became idle or stopped being idle.
    public static func idle(_ value: Bool) -> DeviceChange { DeviceChange(.idle(value)) }
    /// What an ``idle(_:)`` change carries; `nil` for any other change.
    public var idle: Bool? {
        if case .idle(let v0) = base { v0 } else { nil }
    }

    /// Low Power Mode went on or off.
    public static func lowPowerMode(_ value: Bool) -> DeviceChange { DeviceChange(.lowPowerMode(value)) }
    /// What a ``lowPowerMode(_:)`` change carries; `nil` for any other change.
    public var lowPowerMode: Bool? {
        if case .lowPowerMode(let v0) = base { v0 } else { nil }
    }

    /// The battery became critically low, or recovered.
    public static func criticallyLowBattery(_ value: Bool) -> DeviceChange {
        DeviceChange(.criticallyLowBattery(value))
    }
    /// What a ``criticallyLowBattery(_:)`` change carries; `nil` for any other change.
    public var criticallyLowBattery: Bool? {
        if case .criticallyLowBattery(let v0) = base { v0 } else { nil }
    }

    /// The device restarted (value `restarted`).
    public static let reboot = DeviceChange(.reboot)

    /// Background App Refresh was switched on or off (the device's switch, or an app's own).
    public static func backgroundAppRefresh(_ value: Bool) -> DeviceChange {
        DeviceChange(.backgroundAppRefresh(value))
    }
    /// What a ``backgroundAppRefresh(_:)`` change carries; `nil` for any other change.
    public var backgroundAppRefresh: Bool? {
        if case .backgroundAppRefresh(let v0) = base { v0 } else { nil }
    }

    /// Background App Refresh became restricted or not.
    public static func backgroundAppRefreshRestricted(_ value: Bool) -> DeviceChange {
        DeviceChange(.backgroundAppRefreshRestricted(value))
    }
    /// What a ``backgroundAppRefreshRestricted(_:)`` change carries; `nil` for any other change.
    public var backgroundAppRefreshRestricted: Bool? {
        if case .backgroundAppRefreshRestricted(let v0) = base { v0 } else { nil }
    }

    /// The memory for apps changed, in bytes; `nil` for no limit.
    public static func memoryCapacity(_ value: Int?) -> DeviceChange { DeviceChange(.memoryCapacity(value)) }
    /// What a ``memoryCapacity(_:)`` change carries; `nil` for any other change.
    public var memoryCapacity: Int?? {
        if case .memoryCapacity(let v0) = base { v0 } else { nil }
    }

    /// The system came under load or left it (continued-processing tasks wait while it is).
    public static func systemUnderLoad(_ value: Bool) -> DeviceChange { DeviceChange(.systemUnderLoad(value)) }
    /// What a ``systemUnderLoad(_:)`` change carries; `nil` for any other change.
    public var systemUnderLoad: Bool? {
        if case .systemUnderLoad(let v0) = base { v0 } else { nil }
    }

    /// Background GPU support was turned on or off.
    public static func backgroundGPU(_ value: Bool) -> DeviceChange { DeviceChange(.backgroundGPU(value)) }
    /// What a ``backgroundGPU(_:)`` change carries; `nil` for any other change.
    public var backgroundGPU: Bool? {
        if case .backgroundGPU(let v0) = base { v0 } else { nil }
    }

    /// The setting's name, the trace's `name`: `network`, `externalPower`, `idle`, `lowPowerMode`, `criticallyLowBattery`, `reboot`,
    /// `backgroundAppRefresh`, `backgroundAppRefreshRestricted`, `memoryCapacity`, `systemUnderLoad`,
    /// `backgroundGPU`.
    public var name: String {
        switch base {
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
        switch base {
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
