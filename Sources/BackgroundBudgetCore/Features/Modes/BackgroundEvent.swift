import BudgetTime

/// A system event that may launch, wake or reach an app in the background.
///
/// Apps receive them in `ApplicationDelegate.application(_:didReceive:)`; each stands for one of
/// Apple's entry points, noted per case.
///
/// The events grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum BackgroundEvent: Sendable, Hashable, CustomStringConvertible {
    /// A significant location change (`startMonitoringSignificantLocationChanges`) [S29].
    case significantLocationChange
    /// A monitored region was entered or left (region monitoring) [S32].
    case regionBoundary(String)
    /// A silent remote notification (`application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`) [S63].
    case silentPush
    /// A VoIP push (PushKit); the app must report a call before returning [S35].
    case voipPush
    /// A Core Bluetooth event for the central or peripheral role [S36].
    case bluetooth(BluetoothRole)
    /// An External Accessory event [S37].
    case accessory
    /// A finished Newsstand download [S39].
    case newsstandDownload

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
        switch self {
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
        switch self {
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
        switch self {
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
