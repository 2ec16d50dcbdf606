import BudgetClock

/// The gates iOS puts in front of running an app in the background, one predicate each.
///
/// Every decision (fetch opportunities, task requests, event launches and wakes, activities, the
/// keep-alive handler) and every explanation (``FetchExplanation``, ``TaskRequestExplanation``,
/// ``Explanation/relaunchBlockers``) asks these predicates, so that what the system does and what it
/// says about it cannot drift apart:
/// - Background App Refresh (``DeviceCore/backgroundAppRefreshGates(slot:)``): restricted, the
///   device's switch, Low Power Mode, the app's switch [S60][S61][S66];
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
    /// The user killed the app from the app switcher and has not opened it since [S86].
    case killedByUser
    /// The app sets `UIApplicationExitsOnSuspend`: it is never run in the background.
    case exitsOnSuspend

    /// Whether the gate is one of Background App Refresh's switches.
    package var isBackgroundAppRefresh: Bool {
        switch self {
        case .backgroundAppRefreshRestricted, .backgroundAppRefreshOffForDevice, .lowPowerMode, .backgroundAppRefreshOffForApp: true
        case .killedByUser, .exitsOnSuspend: false
        }
    }
}

extension DeviceCore {
    /// What the system would launch or wake an app for; the user-kill rule depends on it.
    package enum WakePurpose: Sendable, Hashable {
        /// Content updates: fetches, task requests, silent pushes. A user kill stops them [S86][S63].
        case content
        /// A significant-change or region event: it relaunches even after a user kill while
        /// ``BudgetPolicy/relaunchesLocationAppsAfterUserKill`` holds (since iOS 8) [S31].
        case location
        /// A Bluetooth or accessory event: a user kill stops the launch, not the wake of a process
        /// that runs (the app was opened or relaunched since).
        case accessory
    }

    /// Background App Refresh: every switch that keeps it off for the app, in a fixed order
    /// (restricted, the device's switch, Low Power Mode, the app's switch); empty when it is available.
    /// - Parameter s: The app's slot.
    package func backgroundAppRefreshGates(slot s: Int) -> [BackgroundGate] {
        var gates: [BackgroundGate] = []
        if settings.backgroundAppRefreshRestricted { gates.append(.backgroundAppRefreshRestricted) }
        if !settings.backgroundAppRefresh { gates.append(.backgroundAppRefreshOffForDevice) }
        if settings.lowPowerMode { gates.append(.lowPowerMode) }
        if !records[s].backgroundAppRefresh { gates.append(.backgroundAppRefreshOffForApp) }
        return gates
    }

    /// The Background App Refresh status of an app, from ``backgroundAppRefreshGates(slot:)``:
    /// restricted if the device forbids it; denied if any other switch is off; available otherwise.
    package func backgroundRefreshStatus(of app: AppID) -> BackgroundRefreshStatus {
        let gates = backgroundAppRefreshGates(slot: slot(app))
        if gates.contains(.backgroundAppRefreshRestricted) { return .restricted }
        return gates.isEmpty ? .available : .denied
    }

    /// The user-kill gate: ``BackgroundGate/killedByUser`` when the user killed the app from the app
    /// switcher, has not opened it since, and the kill stops a launch or wake for `purpose`; else `nil`.
    /// - Parameters:
    ///   - s: The app's slot.
    ///   - purpose: What the system would run the app for.
    package func userKillGate(slot s: Int, for purpose: WakePurpose) -> BackgroundGate? {
        guard records[s].killedByUser else { return nil }
        switch purpose {
        case .content: return .killedByUser
        case .location: return policy.relaunchesLocationAppsAfterUserKill ? nil : .killedByUser
        case .accessory: return records[s].state == .notRunning ? .killedByUser : nil
        }
    }

    /// The exits-on-suspend gate: ``BackgroundGate/exitsOnSuspend`` when the app sets
    /// `UIApplicationExitsOnSuspend`, else `nil`.
    /// - Parameters:
    ///   - s: The app's slot.
    ///   - exceptOnScreen: Whether work that can also run in the foreground (task requests) passes
    ///     while the app is on screen.
    package func exitsOnSuspendGate(slot s: Int, exceptOnScreen: Bool = false) -> BackgroundGate? {
        guard records[s].manifest.exitsOnSuspend else { return nil }
        return exceptOnScreen && records[s].state.isForeground ? nil : .exitsOnSuspend
    }
}

extension FetchBlocker {
    /// The blocker naming a gate's exact switch.
    package init(_ gate: BackgroundGate) {
        switch gate {
        case .backgroundAppRefreshRestricted: self = .backgroundAppRefreshRestricted
        case .backgroundAppRefreshOffForDevice: self = .backgroundAppRefreshOffForDevice
        case .lowPowerMode: self = .lowPowerMode
        case .backgroundAppRefreshOffForApp: self = .backgroundAppRefreshOff
        case .killedByUser: self = .killedByUser
        case .exitsOnSuspend: self = .exitsOnSuspend
        }
    }
}

extension TaskRequestBlocker {
    /// The blocker naming a gate's exact switch.
    package init(_ gate: BackgroundGate) {
        switch gate {
        case .backgroundAppRefreshRestricted: self = .backgroundAppRefreshRestricted
        case .backgroundAppRefreshOffForDevice: self = .backgroundAppRefreshOffForDevice
        case .lowPowerMode: self = .lowPowerMode
        case .backgroundAppRefreshOffForApp: self = .backgroundAppRefreshOff
        case .killedByUser: self = .killedByUser
        case .exitsOnSuspend: self = .exitsOnSuspend
        }
    }
}

extension EventDropReason {
    /// The trace's drop reason for a gate: every Background App Refresh switch is
    /// ``EventDropReason/backgroundAppRefreshOff``.
    package init(_ gate: BackgroundGate) {
        switch gate {
        case .backgroundAppRefreshRestricted, .backgroundAppRefreshOffForDevice, .lowPowerMode, .backgroundAppRefreshOffForApp:
            self = .backgroundAppRefreshOff
        case .killedByUser: self = .killedByUser
        case .exitsOnSuspend: self = .exitsOnSuspend
        }
    }
}

extension FetchSkipReason {
    /// The trace's skip reason for a blocker found at a fetch opportunity: every Background App Refresh
    /// switch is ``FetchSkipReason/backgroundAppRefreshOff``; `nil` for a blocker that does not skip an
    /// opportunity (it stops fetches being planned, or only describes the plan).
    package init?(_ blocker: FetchBlocker) {
        switch blocker {
        case .backgroundAppRefreshOff, .backgroundAppRefreshOffForDevice, .lowPowerMode, .backgroundAppRefreshRestricted:
            self = .backgroundAppRefreshOff
        case .killedByUser: self = .killedByUser
        case .inForeground: self = .inForeground
        case .fetchInProgress: self = .fetchInProgress
        case .fetchModeMissing, .usesTaskScheduler, .exitsOnSuspend, .intervalNever, .notBefore, .throttled: return nil
        }
    }
}
