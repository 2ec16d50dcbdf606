import BudgetTime

/// A system event that may launch, wake or reach an app in the background.
///
/// Apps receive them in `ApplicationDelegate.application(_:didReceive:)`; each stands for one of
/// Apple's entry points, noted per case.
///
/// The events grow as the model does, so this is a struct with a static member (a static function for one with
/// values) per event rather than an enum: a new one is not a breaking change. Compare with `==`, or match in a
/// `switch` that has a `default`; read an event's values through the property of its name.
public struct BackgroundEvent: Sendable, Hashable, CustomStringConvertible {
    /// The events the model knows, with their values, for the package's own exhaustive switches.
    package enum Base: Sendable, Hashable {
        case significantLocationChange
        case regionBoundary(String)
        case silentPush
        case voipPush
        case bluetooth(BluetoothRole)
        case accessory
        case newsstandDownload
    }

    /// The event, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// A significant location change (`startMonitoringSignificantLocationChanges`) [S29].
    public static let significantLocationChange = BackgroundEvent(.significantLocationChange)

    /// A monitored region was entered or left (region monitoring) [S32].
    public static func regionBoundary(_ value: String) -> BackgroundEvent { BackgroundEvent(.regionBoundary(value)) }
    /// What a ``regionBoundary(_:)`` event carries; `nil` for any other event.
    public var regionBoundary: String? {
        if case .regionBoundary(let v0) = base { v0 } else { nil }
    }

    /// A silent remote notification (`application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`) [S63].
    public static let silentPush = BackgroundEvent(.silentPush)
    /// A VoIP push (PushKit); the app must report a call before returning [S35].
    public static let voipPush = BackgroundEvent(.voipPush)

    /// A Core Bluetooth event for the central or peripheral role [S36].
    public static func bluetooth(_ bluetoothRole: BluetoothRole) -> BackgroundEvent {
        BackgroundEvent(.bluetooth(bluetoothRole))
    }
    /// What a ``bluetooth(_:)`` event carries; `nil` for any other event.
    public var bluetooth: BluetoothRole? {
        if case .bluetooth(let v0) = base { v0 } else { nil }
    }

    /// An External Accessory event [S37].
    public static let accessory = BackgroundEvent(.accessory)
    /// A finished Newsstand download [S39].
    public static let newsstandDownload = BackgroundEvent(.newsstandDownload)

    /// The Core Bluetooth role of an event.
    ///
    /// The set is closed: an app is a central or a peripheral, so a `switch` over it needs no `default`.
    public enum BluetoothRole: String, Sendable, Hashable, CaseIterable {
        /// The app is a central.
        case central
        /// The app is a peripheral.
        case peripheral
    }

    /// The mode the app must declare for the event to run it in the background.
    public var requiredMode: BackgroundModes {
        switch base {
        case .significantLocationChange, .regionBoundary: .location
        case .silentPush: .remoteNotification
        case .voipPush: .voip
        case .bluetooth(.central): .bluetoothCentral
        case .bluetooth(.peripheral): .bluetoothPeripheral
        case .accessory: .externalAccessory
        case .newsstandDownload: .newsstandContent
        }
    }

    /// The launch reason recorded when the event launches or wakes the app.
    public var launchReason: LaunchReason {
        switch base {
        case .significantLocationChange, .regionBoundary: .location
        case .silentPush: .remoteNotification
        case .voipPush: .voip
        case .bluetooth: .bluetooth
        case .accessory: .externalAccessory
        case .newsstandDownload: .newsstandContent
        }
    }

    /// The event's trace name, e.g. `"silentPush"` or `"bluetooth(central)"`.
    public var description: String {
        switch base {
        case .significantLocationChange: "significantLocationChange"
        case .regionBoundary(let region): "regionBoundary(\(region))"
        case .silentPush: "silentPush"
        case .voipPush: "voipPush"
        case .bluetooth(let role): "bluetooth(\(role.rawValue))"
        case .accessory: "accessory"
        case .newsstandDownload: "newsstandDownload"
        }
    }
}
