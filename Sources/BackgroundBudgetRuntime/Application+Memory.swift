/// Memory footprints, memory pressure and system notifications.
import BackgroundBudgetCore

extension Application {
    /// The app's memory footprint in bytes while it is in memory; zero when it is not running.
    public var memoryFootprint: Int {
        guard let system else { return 0 }
        return system.state.withLock { state in
            let record = state.core.records[state.core.slot(id)]
            return record.isRunning ? record.memory.footprint : 0
        }
    }

    /// Sets the app's memory footprint, as allocating or releasing memory would. Lower it in
    /// `applicationDidEnterBackground` (release caches, shrink the snapshot) so that the app is purged
    /// later under pressure; raising it may put the device under pressure.
    /// - Parameter bytes: The new footprint; negative values count as zero.
    public func setMemoryFootprint(_ bytes: Int) {
        system?.decide(caller: self) { core, now in core.setFootprint(bytes, app: id, at: now) }
    }
}

extension BackgroundSystem {
    /// The memory the apps in memory may use together, in bytes; `nil` (the default) for no limit.
    ///
    /// When the apps need more, suspended apps are purged (largest first), then running apps get
    /// `applicationDidReceiveMemoryWarning`, then running background apps are killed from the lowest
    /// ``JetsamBand`` up, the foreground app last. Every purge and kill is in the trace with reason
    /// `memoryPressure`.
    public var memoryCapacity: Int? {
        state.withLock { $0.core.memory.capacity }
    }

    /// The bytes the apps in memory use together.
    public var memoryInUse: Int {
        state.withLock { $0.core.memory.inUse }
    }

    /// Sets the device's memory capacity and relieves pressure at once if the apps no longer fit.
    /// - Parameter bytes: The capacity in bytes, or `nil` for no limit.
    public func setMemoryCapacity(_ bytes: Int?) {
        decide { core, now in core.setMemoryCapacity(bytes, at: now) }
    }

    /// The jetsam band an app is in now.
    /// - Precondition: `app` was installed on this system.
    public func jetsamBand(of app: Application) -> JetsamBand {
        requireInstalled(app)
        return state.withLock { state in state.core.jetsamBand(of: state.core.records[state.core.slot(app.id)]) }
    }

    /// Posts a system notification to every app in memory: running apps receive it now; suspended apps
    /// get it when they next run, coalesced to the latest per kind and before any other callback.
    /// - Parameter notification: The notification.
    public func post(_ notification: SystemNotification) {
        decide { core, now in core.post(notification, at: now) }
    }
}
