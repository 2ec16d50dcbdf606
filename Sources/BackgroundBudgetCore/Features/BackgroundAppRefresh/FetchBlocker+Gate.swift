import BudgetTime

extension FetchBlocker {
    /// The blocker naming a gate's exact switch.
    package init(_ gate: BackgroundGate) {
        switch gate {
        case .backgroundAppRefreshRestricted: self = .backgroundAppRefreshRestricted
        case .backgroundAppRefreshOffForDevice: self = .backgroundAppRefreshOffForDevice
        case .lowPowerMode: self = .lowPowerMode
        case .backgroundAppRefreshOffForApp: self = .backgroundAppRefreshOff
        case .criticallyLowBattery: self = .criticallyLowBattery
        case .killedByUser: self = .killedByUser
        case .exitsOnSuspend: self = .exitsOnSuspend
        }
    }
}
