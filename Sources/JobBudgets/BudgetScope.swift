import BudgetClock

/// A group of budgets on a ``BudgetScheduler`` with its own ``shutdown(grace:)``: one job processor,
/// or one run of it, among several sharing a scheduler and its clock.
///
/// The model:
/// - A scheduler has any number of scopes (``BudgetScheduler/makeScope(named:)``); a budget belongs to
///   at most one, the one it was requested in (a child without one inherits its parent's).
/// - ``shutdown(grace:)`` warns and stops the scope's budgets only, exactly as
///   ``BudgetScheduler/shutdown(grace:)`` does the scheduler's; budgets requested in the scope after it
///   are warned at once and stopped no later than its hard stop. Other scopes carry on.
/// - A scope's shutdown is final for that scope. To start again (a processor restarted after a
///   graceful stop), make a new scope: it costs a dictionary entry, and the scheduler, its clock and
///   its timer are shared. The scheduler's own ``BudgetScheduler/shutdown(grace:)`` applies to every
///   scope, and is final (the process is going away).
/// - Releasing the scope object forgets its bookkeeping; its live budgets carry on with the deadlines
///   they have, and new requests in it throw ``BudgetError/Problem/scopeEnded``.
///
/// ```swift
/// let scope = scheduler.makeScope(named: "emails")
/// let outcome = try await withBackgroundTask(named: "send", allowance: .seconds(30), scope: scope) { task in … }
/// // on shutdown of this processor only:
/// intake.stop()
/// scope.shutdown(grace: .seconds(10))
/// try await scope.waitForNoLiveBudgets()
/// ```
public final class BudgetScope: Sendable {
    /// The scheduler that keeps the scope's budgets.
    public let scheduler: BudgetScheduler
    /// A name for logs.
    public let name: String
    /// The scope's number in the scheduler's state.
    let id: UInt32
    /// The `withBackgroundTask` calls under way in the scope (see `BudgetScope+Drain.swift`).
    let calls = ScopeCalls()

    init(scheduler: BudgetScheduler, name: String, id: UInt32) {
        self.scheduler = scheduler
        self.name = name
        self.id = id
    }

    deinit {
        _ = scheduler.state.withLock { $0.scopes.removeValue(forKey: id) }
    }

    /// Grants a budget in this scope: see
    /// ``BudgetScheduler/requestBudget(named:allowance:warningLead:grace:maximumAllowance:parent:onWarning:onStop:)``.
    /// - Throws: ``BudgetError`` as that does.
    public func requestBudget(
        named name: String,
        allowance: Duration,
        warningLead: Duration = .zero,
        grace: Duration = .zero,
        maximumAllowance: Duration? = nil,
        parent: Budget? = nil,
        onWarning: BudgetWarningHandler? = nil,
        onStop: BudgetStopHandler? = nil
    ) throws(BudgetError) -> Budget {
        try scheduler.request(named: name, allowance: allowance, warningLead: warningLead, grace: grace,
                              maximumAllowance: maximumAllowance, parent: parent, scope: id,
                              onWarning: onWarning, onStop: onStop)
    }

    /// Brings the hard stop of every live budget of the scope forward to at most `grace` from now, and
    /// its warning to now, as ``BudgetScheduler/shutdown(grace:)`` does for the whole scheduler (the
    /// call runs no handler; the clock delivers the warnings). Calling it again can only bring the
    /// instant earlier.
    /// - Parameter grace: How long the scope's jobs have to wrap up; negative counts as zero.
    /// - Returns: How many live budgets were re-armed.
    /// - Complexity: O(m log m) in the number m of the scope's live budgets: it touches no other.
    @discardableResult
    public func shutdown(grace: Duration) -> Int {
        scheduler.shutDown(grace: grace, scope: id)
    }

    /// Whether the scope, or its whole scheduler, is shutting down.
    public var isShuttingDown: Bool {
        scheduler.state.withLock { $0.shutdownAt(in: id) != nil }
    }

    /// The number of live budgets in the scope.
    public var liveCount: Int { scheduler.state.withLock { $0.liveCount(in: id) } }

    /// Suspends until exactly `count` budgets of the scope are live; returns at once if they are.
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    public func waitForLiveBudgets(exactly count: Int) async throws {
        try await scheduler.waitForExactCount(count, scope: id)
    }

    /// Suspends until no budget of the scope is live.
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    public func waitForNoLiveBudgets() async throws {
        try await scheduler.waitForExactCount(0, scope: id)
    }

    /// Suspends until the scope (or its scheduler) has begun to shut down; returns at once if it has.
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    public func waitForShutdown() async throws {
        let id = id
        try await waitForCount(1, in: scheduler.state, current: { $0.shutdownAt(in: id) == nil ? 0 : 1 },
                               waiters: \.scopes[id]!.shutdownWaiters)
    }
}

extension BudgetScheduler {
    /// Makes a new scope: a group of budgets with its own ``BudgetScope/shutdown(grace:)``.
    /// - Parameter name: A name for logs.
    /// - Returns: The scope; it lives as long as the returned object.
    public func makeScope(named name: String = "") -> BudgetScope {
        let id = state.withLock { state -> UInt32 in
            state.lastScope += 1
            state.scopes[state.lastScope] = ScopeState()
            return state.lastScope
        }
        return BudgetScope(scheduler: self, name: name, id: id)
    }
}
