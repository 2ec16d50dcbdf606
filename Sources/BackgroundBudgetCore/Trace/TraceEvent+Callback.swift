import BudgetClock

extension TraceEvent {
    /// The callback, when this entry is one.
    public var callback: AppCallback? {
        if case .callback(let callback) = kind { return callback }
        return nil
    }
}
