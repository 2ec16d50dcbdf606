import BudgetClock

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
    package mutating func changeRefreshSettings(at now: BudgetInstant, _ change: (inout DeviceCore) -> Void) -> [Effect] {
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
package struct DeviceSettings: Sendable, Hashable {
    /// Settings › General › Background App Refresh.
    package var backgroundAppRefresh = true
    /// The device forbids Background App Refresh (for example parental controls).
    package var backgroundAppRefreshRestricted = false
    /// Low Power Mode, which turns Background App Refresh off [S60][S66].
    package var lowPowerMode = false
}
