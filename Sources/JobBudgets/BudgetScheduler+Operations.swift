import BudgetTime
import BudgetClock

/// Operations on live budgets: extend one, stop one now, shut them all down within a grace period.
extension BudgetScheduler {
    /// Moves a live budget's hard stop (and its warning, if not yet delivered) later by `extra`.
    ///
    /// The new hard stop must stay within the budget's ceiling (its `maximumAllowance`, or the
    /// scheduler's), its parent's hard stop, and the hard stop of a ``shutdown(grace:)``; otherwise
    /// nothing changes. Live children keep their deadlines. A warning already delivered is not
    /// delivered again.
    ///
    /// ```swift
    /// let job = try scheduler.requestBudget(named: "export", allowance: .seconds(30),
    ///                                       maximumAllowance: .seconds(120))
    /// try scheduler.extend(job, by: .seconds(60))      // hard stop at 90 s
    /// try scheduler.extend(job, by: .seconds(60))      // throws: past the ceiling at 120 s
    /// ```
    /// - Parameters:
    ///   - budget: The budget.
    ///   - extra: How much later the hard stop comes.
    /// - Returns: The new hard stop.
    /// - Throws: ``BudgetError`` naming the budget: ``BudgetError/Problem/notLive``,
    ///   ``BudgetError/Problem/extensionNotPositive(_:)``, or the limit it would pass.
    /// - Complexity: O(log n) in the number of live budgets.
    @discardableResult
    public func extend(_ budget: Budget, by extra: Duration) throws(BudgetError) -> BudgetInstant {
        guard extra > .zero else { throw BudgetError(name: budget.name, problem: .extensionNotPositive(extra)) }
        let extraNanos = extra.nanosecondsSaturating
        let stopAt = try state.withLock { (state) throws(BudgetError) -> Int64 in
            guard let slot = state.slot(of: budget) else { throw BudgetError(name: budget.name, problem: .notLive) }
            let stopAt = state.records[slot].stopAt.addingSaturating(extraNanos)
            let ceiling = state.ceiling(of: slot)
            if stopAt > ceiling {
                throw BudgetError(name: budget.name, problem: .extensionBeyondCeiling(extra, ceiling: BudgetInstant(nanoseconds: ceiling)))
            }
            let parent = state.parent(of: slot)
            if parent != 0, stopAt > state.records[Int(parent - 1)].stopAt {
                throw BudgetError(name: budget.name, problem: .extensionBeyondParent(extra, parent: state.budget(at: Int(parent - 1))))
            }
            if let shutdownAt = state.shutdownAt(in: state.scope(of: slot)), stopAt > shutdownAt {
                throw BudgetError(name: budget.name, problem: .extensionBeyondShutdown(extra, deadline: BudgetInstant(nanoseconds: shutdownAt)))
            }
            state.records[slot].stopAt = stopAt
            if state.warnAt(of: slot) != .max {
                state.withExtras(of: slot) { $0.warnAt = min(Self.neverDue, $0.warnAt.addingSaturating(extraNanos)) }
            }
            state.schedule(slot)
            armIfEarlier(&state)
            return stopAt
        }
        return BudgetInstant(nanoseconds: stopAt)
    }

    /// Stops a live budget now, as its hard stop would: its live children stop first with
    /// ``BudgetStopReason/parentStopped``, then its stop handler is called with `reason`, on the
    /// calling thread, after the lock is released. A warning not yet delivered is not delivered.
    ///
    /// When `stop` returns, the warning handlers of the budget and of every budget under it are not
    /// running and never will be, as for ``end(_:)`` (with the same one exception).
    /// - Parameters:
    ///   - budget: The budget.
    ///   - reason: The reason its stop handler is given.
    /// - Returns: `true` if the budget was live; `false` if it had already ended or stopped.
    @discardableResult
    public func stop(_ budget: Budget, reason: BudgetStopReason = .stopRequested) -> Bool {
        finish(budget, stopping: reason)
    }

    /// Brings every live budget's hard stop forward to at most `grace` from now, and its warning to
    /// now: what a worker does on `SIGTERM` so that every job is warned first and stopped before the
    /// orchestrator's kill.
    ///
    /// The call returns at once, whatever the handlers do: it runs none. The warnings fall due now and
    /// the clock delivers them on its thread, as for any due warning (a ``/BudgetClock/VirtualClock``:
    /// on its next advance, even by zero), before any stop. Hard stops later than now + `grace` move to
    /// that instant and report ``BudgetStopReason/shutdown``; earlier ones stay. Later requests are
    /// still granted, warned at once and stopped no later than that instant; extensions cannot pass it.
    /// Calling it again can only bring the instant earlier. Budgets with an
    /// `Duration.unlimited` allowance are warned and stopped like the others. The budgets are warned,
    /// and those that stop at that instant stopped, oldest first: in the order they were requested,
    /// whatever slots they hold (children before their parent).
    ///
    /// This shutdown is final, for the whole scheduler (a process that is going away). To shut down
    /// one part and start it again, use a ``BudgetScope``.
    ///
    /// Stop taking new jobs *before* calling it: work that finishes during the grace would otherwise
    /// hand its slot to a queued job, which then runs only to be warned at once and stopped.
    ///
    /// ```swift
    /// intake.stop()                             // no new jobs first
    /// scheduler.shutdown(grace: .seconds(25))   // Kubernetes sends SIGKILL 30 s after SIGTERM
    /// ```
    /// - Parameter grace: How long the jobs have to wrap up; negative counts as zero.
    /// - Returns: How many live budgets were re-armed.
    /// - Complexity: O(n log n) in the number of live budgets, plus one pass over the budget slots.
    ///   A scope's shutdown touches only the scope's budgets: O(m log m) in their number.
    @discardableResult
    public func shutdown(grace: Duration) -> Int {
        shutDown(grace: grace, scope: 0)
    }

    /// The shutdown of the whole scheduler (scope zero) or of one scope.
    func shutDown(grace: Duration, scope: UInt32) -> Int {
        let now = clock.now.nanoseconds
        let deadline = now.addingSaturating(max(grace, .zero).nanosecondsSaturating)
        let (rearmed, woken) = state.withLock { state -> (Int, [UnsafeContinuation<Void, any Error>]) in
            var woken: [UnsafeContinuation<Void, any Error>]
            let shutdownAt: Int64
            if scope == 0 {
                shutdownAt = min(deadline, state.shutdownAt ?? .max)
                state.shutdownAt = shutdownAt
                woken = state.shutdownWaiters.takeSatisfied(by: 1)
                for id in state.scopes.keys { woken += state.scopes[id]!.shutdownWaiters.takeSatisfied(by: 1) }
            } else {
                guard state.scopes[scope] != nil else { return (0, []) }
                shutdownAt = min(deadline, state.scopes[scope]!.shutdownAt ?? .max)
                state.scopes[scope]!.shutdownAt = shutdownAt
                woken = state.scopes[scope]!.shutdownWaiters.takeSatisfied(by: 1)
            }
            // The deadlines are set again in request order, so that those that now fall due together
            // (a tie in the heap goes to the deadline set first) are warned and stopped oldest-first,
            // whatever slots they sit in. A scope's shutdown finds its budgets in its own lists.
            let slots = (scope == 0 ? state.records.indices.filter { state.records[$0].isLive } : state.members(of: scope))
                .map { (slot: $0, age: state.age(of: $0)) }
                .sorted { $0.age > $1.age }
                .map(\.slot)
            if scope == 0 { state.deadlines.removeAll() }      // every entry goes: drop the heap at once
            var rearmed = 0
            for slot in slots {
                if state.records[slot].stopAt > shutdownAt {
                    state.records[slot].stopAt = shutdownAt
                    state.records[slot].stopsForShutdown = true
                }
                if state.warnAt(of: slot) != .max { state.withExtras(of: slot) { $0.warnAt = min($0.warnAt, now) } }
                state.schedule(slot)
                rearmed += 1
            }
            armIfEarlier(&state)
            return (rearmed, woken)
        }
        for waiter in woken { waiter.resume() }
        return rearmed
    }

    /// Whether ``shutdown(grace:)`` has been called (the scheduler's own, not a scope's).
    public var isShuttingDown: Bool {
        state.withLock { $0.shutdownAt != nil }
    }

    /// The budget's hard stop, or `nil` if it is not live.
    public func deadline(of budget: Budget) -> BudgetInstant? {
        state.withLock { state in state.slot(of: budget).map { BudgetInstant(nanoseconds: state.records[$0].stopAt) } }
    }
}
