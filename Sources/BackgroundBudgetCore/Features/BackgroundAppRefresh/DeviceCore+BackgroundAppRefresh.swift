import BudgetTime

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
        if settings.criticallyLowBattery != settingsBefore.criticallyLowBattery {
            recordDevice(.criticallyLowBattery(settings.criticallyLowBattery), now)
        }
        for s in records.indices where records[s].backgroundAppRefresh != switchesBefore[s] {
            record(.deviceChanged(.backgroundAppRefresh(records[s].backgroundAppRefresh)), records[s].manifest.id, now)
        }
        var effects: [Effect] = []
        for s in records.indices {
            let status = backgroundRefreshStatus(of: records[s].manifest.id)
            if status != before[s] { effects += post(.backgroundRefreshStatus(status), toSlot: s, at: now).effects }
        }
        return effects + runDueTaskRequests(at: now)
    }
}
