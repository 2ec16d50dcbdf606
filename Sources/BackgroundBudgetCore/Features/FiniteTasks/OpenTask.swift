import BudgetTime

/// A finite background task the app has begun and not ended: values only (the shell keeps its
/// expiration handler under the task's identifier).
package struct OpenTask: Sendable, Hashable {
    /// The name the app gave `beginBackgroundTask(withName:)`, if any.
    package private(set) var name: String?
    /// When the task began (a task begun in the foreground overruns one allowance later).
    var begunAt: BudgetInstant
    /// Whether its expiration handler has been called.
    var handlerCalled = false
    /// Whether it has been reported as open too long in the foreground.
    var overrunReported = false

    /// A task begun at `begunAt`, its handler not called and no overrun reported.
    package init(name: String?, begunAt: BudgetInstant, handlerCalled: Bool = false, overrunReported: Bool = false) {
        self.name = name
        self.begunAt = begunAt
        self.handlerCalled = handlerCalled
        self.overrunReported = overrunReported
    }
}
