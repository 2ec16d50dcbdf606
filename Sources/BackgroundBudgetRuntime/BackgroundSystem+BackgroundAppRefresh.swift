import BackgroundBudgetCore

extension Application {
    /// The app's Background App Refresh status (`backgroundRefreshStatus`).
    public var backgroundRefreshStatus: BackgroundRefreshStatus {
        guard let system else { return .denied }
        return system.state.withLock { $0.core.backgroundRefreshStatus(of: id) }
    }
}

extension BackgroundSystem {
    /// Turns Background App Refresh on or off for the whole device (Settings › General › Background App
    /// Refresh). Off, apps get no silent-push wakes (and no fetch or refresh launches); finite tasks,
    /// audio, location and VoIP are unaffected [S62][S65]. Apps whose status changes are told.
    public func setBackgroundAppRefresh(enabled: Bool) {
        decide { core, now in core.setBackgroundAppRefresh(enabled, at: now) }
    }

    /// Turns Background App Refresh on or off for one app.
    /// - Precondition: `app` was installed on this system.
    public func setBackgroundAppRefresh(enabled: Bool, for app: Application) {
        requireInstalled(app)
        decide { core, now in
            core.setBackgroundAppRefresh(enabled, app: app.id, at: now)
        }
    }

    /// Turns Low Power Mode on or off; on, it turns Background App Refresh off for every app [S60][S66].
    /// A change posts `NSProcessInfoPowerStateDidChangeNotification` to the apps that observe it.
    public func setLowPowerMode(_ enabled: Bool) {
        changingPowerState { core, now in core.setLowPowerMode(enabled, at: now) }
    }

    /// Whether the battery is critically low. Apple lists a critically low battery first among the
    /// factors that stop background activity, next to Low Power Mode [S59]: while it is, the system runs
    /// no fetch, refresh or processing task and delivers no silent push (the trace says
    /// `criticallyLowBattery`), as with Low Power Mode. It does not change
    /// ``Application/backgroundRefreshStatus``, so refresh requests are still accepted and run once the
    /// battery recovers; finite tasks, audio, location and VoIP are unaffected, and tasks already running
    /// go on (the source says nothing about them).
    public func setCriticallyLowBattery(_ critical: Bool) {
        decide { core, now in core.setCriticallyLowBattery(critical, at: now) }
    }

    /// Whether the device forbids Background App Refresh (status `restricted` for every app).
    public func setBackgroundAppRefreshRestricted(_ restricted: Bool) {
        decide { core, now in core.setBackgroundAppRefreshRestricted(restricted, at: now) }
    }
}

extension Application {
    /// Sets how often the app asks for background fetches (`setMinimumBackgroundFetchInterval(_:)`).
    /// Fetches need the `fetch` mode, Background App Refresh on, and no
    /// `BGTaskSchedulerPermittedIdentifiers` (which turn legacy fetch off [S44]); the system decides
    /// when, by its fetch model (the Background fetch article describes it), and never sooner than the interval.
    /// - Parameter interval: ``BackgroundFetchInterval/never`` (the default) turns fetches off.
    public func setMinimumBackgroundFetchInterval(_ interval: BackgroundFetchInterval) {
        system?.decide(caller: self) { core, now in core.setFetchInterval(interval, app: id, at: now) }
    }
}
