import BudgetTime

/// The allowance and overrun timers an app has armed.
package struct ArmedTimers: Equatable, Sendable {
    /// When the expiration handlers are called (``BudgetPolicy/expirationWarningLead`` before expiry).
    package internal(set) var warning: BudgetInstant?
    /// When the allowance runs out.
    package internal(set) var expiry: BudgetInstant?
    /// When the oldest task begun in the foreground has been open a whole allowance.
    var overrun: BudgetInstant?

    /// Timers armed at the given instants (none by default).
    package init(warning: BudgetInstant? = nil, expiry: BudgetInstant? = nil, overrun: BudgetInstant? = nil) {
        self.warning = warning
        self.expiry = expiry
        self.overrun = overrun
    }
}
