import BudgetTime

/// A timer the core asks its shell to run for one app.
package enum AppTimer: Hashable, Sendable, CaseIterable {
    /// The expiration handlers are due (allowance − lead).
    case expirationWarning
    /// The allowance runs out.
    case allowanceExpiry
    /// A callback with a time limit has been running too long.
    case watchdog
    /// The oldest task begun in the foreground is about to outlive the allowance.
    case foregroundOverrun
    /// The short run time granted for a background event ends.
    case eventWindow
    /// The legacy VoIP keep-alive handler is due.
    case voipKeepAlive
    /// A background fetch opportunity.
    case fetchOpportunity
    /// A running fetch must have completed.
    case fetchDeadline
    /// A pending `BGTaskScheduler` request's earliest instant passed (system-scoped, like the fetch plan).
    case taskRequestDue
    /// A running `BGTaskScheduler` task's next deadline (warning, expiry, end).
    case taskDeadline
}
