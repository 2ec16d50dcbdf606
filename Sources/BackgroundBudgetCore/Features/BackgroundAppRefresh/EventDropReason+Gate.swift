import BudgetTime

extension EventDropReason {
    /// The trace's drop reason for a gate: every Background App Refresh switch is
    /// ``EventDropReason/backgroundAppRefreshOff``.
    package init(_ gate: BackgroundGate) {
        switch gate {
        case .backgroundAppRefreshRestricted, .backgroundAppRefreshOffForDevice, .lowPowerMode, .backgroundAppRefreshOffForApp:
            self = .backgroundAppRefreshOff
        case .criticallyLowBattery: self = .criticallyLowBattery
        case .killedByUser: self = .killedByUser
        case .exitsOnSuspend: self = .exitsOnSuspend
        }
    }
}
