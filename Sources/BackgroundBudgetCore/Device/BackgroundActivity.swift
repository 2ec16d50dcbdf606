import BudgetClock

/// Continuous work that keeps an app running in the background for as long as it lasts, if the app
/// declares the matching mode in `UIBackgroundModes`.
///
/// Source: IOS-FACTS §4 ([S25]–[S30], [S38]).
public enum BackgroundActivity: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Playing or recording audible content with an active audio session (mode `audio`) [S27][S28].
    case audioPlayback
    /// Standard location updates (mode `location`) [S30].
    case locationUpdates
    /// A Nearby Interaction session (mode `nearby-interaction`) [S26][S94].
    case nearbyInteraction
    /// A Push to Talk session (mode `push-to-talk`) [S38].
    case pushToTalk

    /// The mode the app must declare for this activity to keep it running.
    public var requiredMode: BackgroundModes {
        switch self {
        case .audioPlayback: .audio
        case .locationUpdates: .location
        case .nearbyInteraction: .nearbyInteraction
        case .pushToTalk: .pushToTalk
        }
    }

    /// The activity's trace name.
    public var description: String { rawValue }
}

/// Why an activity could not start keeping the app running.
public enum ActivityDenial: String, Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The app does not declare the activity's mode in `UIBackgroundModes`.
    case modeNotDeclared
    /// The app is not running or is suspended.
    case notRunning
    /// The app sets `UIApplicationExitsOnSuspend` and never runs in the background.
    case exitsOnSuspend

    /// A sentence saying why.
    public var description: String {
        switch self {
        case .modeNotDeclared: "the app does not declare the background mode"
        case .notRunning: "the app is not running"
        case .exitsOnSuspend: "the app exits on suspend"
        }
    }
}

/// A system event that may launch, wake or reach an app in the background.
///
/// Apps receive them in ``ApplicationDelegate/application(_:didReceive:)``; each stands for one of
/// Apple's entry points, noted per case.
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

/// What the system did with a ``BackgroundEvent``.
public enum EventOutcome: Sendable, Hashable, CustomStringConvertible {
    /// Delivered to the app, which was launched, woken or already running.
    case delivered
    /// Held until the app next runs (the app does not declare the mode; events are queued) [S36][S37].
    case queued
    /// Not delivered, for a reason.
    case dropped(EventDropReason)

    /// `delivered`, `queued` or `dropped(reason)`.
    public var description: String {
        switch self {
        case .delivered: "delivered"
        case .queued: "queued"
        case .dropped(let reason): "dropped(\(reason.rawValue))"
        }
    }
}

/// Why the system did not deliver a background event.
public enum EventDropReason: String, Sendable, Hashable, CaseIterable {
    /// The app does not declare the event's mode.
    case modeNotDeclared
    /// The user killed the app from the app switcher; it is not relaunched until the user opens it.
    case killedByUser
    /// The app sets `UIApplicationExitsOnSuspend` and is never run in the background.
    case exitsOnSuspend
    /// The app is not monitoring significant changes or regions.
    case notMonitoring
    /// Too many silent pushes within ``BudgetPolicy/silentPushWindow`` (``BudgetPolicy/silentPushesPerHour``).
    case throttled
    /// Background App Refresh is off for the app (denied or restricted) [S59][S62].
    case backgroundAppRefreshOff
    /// The app is terminating.
    case terminating
}
