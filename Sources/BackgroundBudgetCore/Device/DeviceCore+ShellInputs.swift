import BudgetTime

/// Inputs from the shell that change device-wide facts or record what the shell did: the shell never
/// writes the core's state or its trace itself.
extension DeviceCore {
    /// The app's queues dropped `count` work items as its process ended: recorded when there were any.
    package mutating func workDropped(count: Int, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        if count > 0 { record(.workDropped(count: count), app, now) }
        return []
    }

    /// Whether the system is under load: while it is, no continued-processing task starts [S55].
    /// A change is recorded on the device; queued requests start, if there is room, after the decision.
    package mutating func setSystemUnderLoad(_ underLoad: Bool, at now: BudgetInstant) -> Decision<Void> {
        if continued.systemUnderLoad != underLoad { recordDevice(.systemUnderLoad(underLoad), now) }
        continued.systemUnderLoad = underLoad
        return []
    }

    /// Whether the device supports background GPU use for continued-processing tasks [S47][S53].
    /// A change is recorded on the device.
    package mutating func setSupportsBackgroundGPU(_ supported: Bool, at now: BudgetInstant) -> Decision<Void> {
        if continued.supportsBackgroundGPU != supported { recordDevice(.backgroundGPU(supported), now) }
        continued.supportsBackgroundGPU = supported
        return []
    }

    /// A copy of the state with an empty trace, for tools that compare states between runs.
    package var withoutTrace: DeviceCore {
        var copy = self
        copy.trace = Trace()
        return copy
    }

    /// Counts the events recorded so far as discarded and lets go of them, as a retention that keeps
    /// none would have: for tools that have read them and copy the state often (a copy's next
    /// recording would copy them all). The core never reads its trace back.
    package mutating func discardRecordedEvents() {
        trace.discardedCount += trace.events.count
        trace.events = []
    }
}

/// Device settings and conditions, each a core input of its own: the core changes its state and
/// returns its decision; the shell passes the value only.
extension DeviceCore {
    /// Background App Refresh for the whole device [S62][S65].
    package mutating func setBackgroundAppRefresh(_ enabled: Bool, at now: BudgetInstant) -> Decision<Void> {
        Decision(changeRefreshSettings(at: now) { $0.settings.backgroundAppRefresh = enabled })
    }

    /// Background App Refresh for one app.
    package mutating func setBackgroundAppRefresh(_ enabled: Bool, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        Decision(changeRefreshSettings(at: now) { $0.records[$0.slot(app)].backgroundAppRefresh = enabled })
    }

    /// Low Power Mode [S60][S66].
    package mutating func setLowPowerMode(_ enabled: Bool, at now: BudgetInstant) -> Decision<Void> {
        Decision(changeRefreshSettings(at: now) { $0.settings.lowPowerMode = enabled })
    }

    /// A critically low battery [S59].
    package mutating func setCriticallyLowBattery(_ critical: Bool, at now: BudgetInstant) -> Decision<Void> {
        Decision(changeRefreshSettings(at: now) { $0.settings.criticallyLowBattery = critical })
    }

    /// Background App Refresh restricted on the device.
    package mutating func setBackgroundAppRefreshRestricted(_ restricted: Bool, at now: BudgetInstant) -> Decision<Void> {
        Decision(changeRefreshSettings(at: now) { $0.settings.backgroundAppRefreshRestricted = restricted })
    }

    /// Whether the device has a network connection.
    package mutating func setNetworkAvailable(_ available: Bool, at now: BudgetInstant) -> Decision<Void> {
        Decision(changeConditions(at: now) { $0.networkAvailable = available })
    }

    /// Whether the device is on external power.
    package mutating func setExternalPower(_ connected: Bool, at now: BudgetInstant) -> Decision<Void> {
        Decision(changeConditions(at: now) { $0.externalPower = connected })
    }

    /// Whether the device is idle.
    package mutating func setDeviceIdle(_ idle: Bool, at now: BudgetInstant) -> Decision<Void> {
        Decision(changeConditions(at: now) { $0.deviceIdle = idle })
    }
}
