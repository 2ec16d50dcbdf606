import BudgetTime

extension FetchSkipReason {
    /// The trace's skip reason for a blocker found at a fetch opportunity: every Background App Refresh
    /// switch is ``FetchSkipReason/backgroundAppRefreshOff``; `nil` for a blocker that does not skip an
    /// opportunity (it stops fetches being planned, or only describes the plan).
    package init?(_ blocker: FetchBlocker) {
        switch blocker {
        case .backgroundAppRefreshOff, .backgroundAppRefreshOffForDevice, .lowPowerMode, .backgroundAppRefreshRestricted:
            self = .backgroundAppRefreshOff
        case .criticallyLowBattery: self = .criticallyLowBattery
        case .killedByUser: self = .killedByUser
        case .inForeground: self = .inForeground
        case .fetchInProgress: self = .fetchInProgress
        case .fetchModeMissing, .usesTaskScheduler, .exitsOnSuspend, .intervalNever, .notBefore, .throttled: return nil
        }
    }
}
