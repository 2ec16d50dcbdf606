import BudgetTime

extension DeviceCore {
    /// What the system would launch or wake an app for; the user-kill rule depends on it.
    enum WakePurpose: Sendable, Hashable {
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
    func backgroundAppRefreshGates(slot s: Int) -> [BackgroundGate] {
        var gates: [BackgroundGate] = []
        if settings.backgroundAppRefreshRestricted { gates.append(.backgroundAppRefreshRestricted) }
        if !settings.backgroundAppRefresh { gates.append(.backgroundAppRefreshOffForDevice) }
        if settings.lowPowerMode { gates.append(.lowPowerMode) }
        if !records[s].backgroundAppRefresh { gates.append(.backgroundAppRefreshOffForApp) }
        return gates
    }

    /// The battery gate: ``BackgroundGate/criticallyLowBattery`` while the battery is critically low,
    /// else `nil`. Apple lists a critically low battery first among the factors that stop background
    /// activity, next to Low Power Mode [S59]; it does not change the Background App Refresh status,
    /// so `submit` still accepts refresh requests, which wait.
    func batteryGate() -> BackgroundGate? {
        settings.criticallyLowBattery ? .criticallyLowBattery : nil
    }

    /// The gates in front of a discretionary launch or wake (a fetch, a task request, a silent push):
    /// ``backgroundAppRefreshGates(slot:)``, then ``batteryGate()``.
    /// - Parameter s: The app's slot.
    func discretionaryGates(slot s: Int) -> [BackgroundGate] {
        backgroundAppRefreshGates(slot: s) + (batteryGate().map { [$0] } ?? [])
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
    func userKillGate(slot s: Int, for purpose: WakePurpose) -> BackgroundGate? {
        guard records[s].killedByUser else { return nil }
        switch purpose {
        case .content: return .killedByUser
        case .location: return policy.relaunchesLocationAppsAfterUserKill ? nil : .killedByUser
        case .accessory: return !records[s].isRunning ? .killedByUser : nil
        }
    }

    /// Whether the app exits on suspend: it sets `UIApplicationExitsOnSuspend` and the policy honours
    /// the flag (``BudgetPolicy/honoursExitsOnSuspend``; iOS 13 and later ignore it [S67][S70]). The
    /// one place every exits-on-suspend rule reads the flag.
    /// - Parameter s: The app's slot.
    func exitsOnSuspend(slot s: Int) -> Bool {
        policy.honoursExitsOnSuspend && records[s].manifest.exitsOnSuspend
    }

    /// The exits-on-suspend gate: ``BackgroundGate/exitsOnSuspend`` when the app exits on suspend
    /// (``exitsOnSuspend(slot:)``: it sets `UIApplicationExitsOnSuspend` and the policy honours it),
    /// else `nil`.
    /// - Parameters:
    ///   - s: The app's slot.
    ///   - exceptOnScreen: Whether work that can also run in the foreground (task requests) passes
    ///     while the app is on screen.
    func exitsOnSuspendGate(slot s: Int, exceptOnScreen: Bool = false) -> BackgroundGate? {
        guard exitsOnSuspend(slot: s) else { return nil }
        return exceptOnScreen && records[s].state.isForeground ? nil : .exitsOnSuspend
    }
}
