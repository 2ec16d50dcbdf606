/// Whether the system may launch or wake an app in the background for content updates
/// (`UIBackgroundRefreshStatus`) [S60][S61].
public enum BackgroundRefreshStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Background App Refresh is on for the app.
    case available
    /// The user turned it off, for the device or for this app, or Low Power Mode is on [S60][S66].
    case denied
    /// The device forbids it (for example parental controls); the user cannot turn it on [S61].
    case restricted

    /// The status's name.
    public var description: String { rawValue }
}

extension DeviceCore {
    // The status itself is computed from the gates in DeviceCore+Gates.swift.

    /// Changes a setting and tells every app in memory whose status changed
    /// (`backgroundRefreshStatusDidChangeNotification`: delivered now, or queued while suspended).
    mutating func changeRefreshSettings(at now: BudgetInstant, _ change: (inout DeviceCore) -> Void) -> [Effect] {
        let before = records.map { backgroundRefreshStatus(of: $0.manifest.id) }
        let (settingsBefore, switchesBefore) = (settings, records.map(\.backgroundAppRefresh))
        change(&self)
        if settings.backgroundAppRefresh != settingsBefore.backgroundAppRefresh {
            recordDevice(.backgroundAppRefresh(settings.backgroundAppRefresh), now)
        }
        if settings.backgroundAppRefreshRestricted != settingsBefore.backgroundAppRefreshRestricted {
            recordDevice(.backgroundAppRefreshRestricted(settings.backgroundAppRefreshRestricted), now)
        }
        if settings.lowPowerMode != settingsBefore.lowPowerMode { recordDevice(.lowPowerMode(settings.lowPowerMode), now) }
        for s in records.indices where records[s].backgroundAppRefresh != switchesBefore[s] {
            record(.deviceChanged(.backgroundAppRefresh(records[s].backgroundAppRefresh)), records[s].manifest.id, now)
        }
        var effects: [Effect] = []
        for s in records.indices {
            let status = backgroundRefreshStatus(of: records[s].manifest.id)
            if status != before[s] { effects += post(.backgroundRefreshStatus(status), toSlot: s, at: now) }
        }
        return effects + runDueTaskRequests(at: now)
    }
}

/// Device-wide settings the system consults.
struct DeviceSettings: Sendable, Hashable {
    /// Settings › General › Background App Refresh.
    var backgroundAppRefresh = true
    /// The device forbids Background App Refresh (for example parental controls).
    var backgroundAppRefreshRestricted = false
    /// Low Power Mode, which turns Background App Refresh off [S60][S66].
    var lowPowerMode = false
}

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
        decide { core, now in core.changeRefreshSettings(at: now) { $0.settings.backgroundAppRefresh = enabled } }
    }

    /// Turns Background App Refresh on or off for one app.
    /// - Precondition: `app` was installed on this system.
    public func setBackgroundAppRefresh(enabled: Bool, for app: Application) {
        requireInstalled(app)
        decide { core, now in
            core.changeRefreshSettings(at: now) { $0.records[$0.slot(app.id)].backgroundAppRefresh = enabled }
        }
    }

    /// Turns Low Power Mode on or off; on, it turns Background App Refresh off for every app [S60][S66].
    public func setLowPowerMode(_ enabled: Bool) {
        decide { core, now in core.changeRefreshSettings(at: now) { $0.settings.lowPowerMode = enabled } }
    }

    /// Whether the device forbids Background App Refresh (status `restricted` for every app).
    public func setBackgroundAppRefreshRestricted(_ restricted: Bool) {
        decide { core, now in core.changeRefreshSettings(at: now) { $0.settings.backgroundAppRefreshRestricted = restricted } }
    }
}

extension Application {
    /// Sets how often the app asks for background fetches (`setMinimumBackgroundFetchInterval(_:)`).
    /// Fetches need the `fetch` mode, Background App Refresh on, and no
    /// `BGTaskSchedulerPermittedIdentifiers` (which turn legacy fetch off [S44]); the system decides
    /// when, by the ``FetchModel``, and never sooner than the interval.
    /// - Parameter interval: ``BackgroundFetchInterval/never`` (the default) turns fetches off.
    public func setMinimumBackgroundFetchInterval(_ interval: BackgroundFetchInterval) {
        system?.decide { core, now in core.setFetchInterval(interval, app: id, at: now) }
    }
}
