import BudgetTime
import BudgetLock
import BudgetClock


/// Time budgets for any work, in the image of iOS's background tasks: a job asks for an allowance, gets
/// a soft warning shortly before it runs out, and a hard stop with a typed reason if it is not ended in
/// time. No app, no lifecycle: this is for job runners.
///
/// ```swift
/// let scheduler = BudgetScheduler(clock: DispatchClock())       // or a VirtualClock in tests
/// let job = try scheduler.requestBudget(
///     named: "thumbnail", allowance: .seconds(30), warningLead: .seconds(5), grace: .seconds(2),
///     onWarning: { _ in cancelSoon() },                          // at 25 s
///     onStop: { _, reason in abandon(reason) })                  // at 32 s unless ended
/// defer { scheduler.end(job) }
/// ```
///
/// Budgets nest: a child's hard stop is never later than its parent's, and when a parent stops or is
/// ended, its live children stop first (``BudgetStopReason/parentStopped`` or
/// ``BudgetStopReason/parentEnded``). A budget that stops at the same instant as an ancestor reports
/// ``BudgetStopReason/parentStopped``, like its siblings; only the outermost one reports
/// ``BudgetStopReason/expired``. Handlers run on the clock's thread (the thread advancing a
/// ``/BudgetClock/VirtualClock``), after the scheduler's lock is released, children before parents; warnings that
/// fell due come before stops.
///
/// A warning handler is called at most once, and only if no ``end(_:)`` of its budget (or of an
/// ancestor) began before the handler's delivery did; once `end` has returned, the handler is neither
/// running nor ever called (`end` waits for a delivery running on another thread). A stop handler
/// never runs while its own budget's warning handler runs, on any path: a thread about to call stop
/// handlers first delivers the due warnings of those budgets that no other thread has begun, and
/// waits for those another thread is running. A hard stop that falls due inside the warning handler
/// (a slow checkpoint, a shutdown with a short grace) is delivered after the handler returns, on its
/// thread, never inside it: an ``end(_:)`` called from the handler then returns `false`. One exception, where waiting would deadlock: a thread
/// does not wait for a handler whose thread is itself blocked waiting, directly or through other such
/// waits, for the calling thread (two handlers running at once on two threads advancing a
/// ``/BudgetClock/VirtualClock``, each ending the other's budget). That `end` returns while the other
/// handler is still running, blocked in its own `end` until the caller's handler returns; it is never
/// called again.
///
/// ## Why `end` waits
///
/// `DispatchSource.cancel()` promises less: no handler *starts* after it returns, but one already
/// running may still be running. `end` keeps the stronger promise (none is running either) because a
/// job runner frees what the handlers touch right after `end`: the job's state, its connection, the
/// `BackgroundTask` signals. With the weaker contract every handler would need its own guard against
/// running on freed state. The wait costs nothing unless a warning is being delivered at that moment.
///
/// ## Scopes and shutdown
///
/// ``shutdown(grace:)`` is scheduler-wide and final: it is what a process does on `SIGTERM`. To shut
/// down one part of a program (one job processor of several, one run of a processor that starts
/// again), request its budgets in a ``BudgetScope`` (``makeScope(named:)``): its
/// ``BudgetScope/shutdown(grace:)`` warns and stops only its own budgets, and a new scope starts again
/// on the same scheduler and clock.
///
/// The scheduler keeps its own deadline heap and arms one clock timer for its earliest deadline, so a
/// live budget costs a heap entry and a record, and thousands of threads may request and end budgets
/// concurrently. Ending budgets never cancels that timer, even when none is left: it fires at its
/// instant, finds nothing due and arms nothing more (or the earliest deadline left). So a clock
/// shows one pending item after the last budget ended early, until that instant; in exchange,
/// requesting and ending budgets on an idle scheduler does not touch the clock at all.
///
/// A budget whose next deadline is no earlier than the instant the timer is armed for (the usual
/// case: most jobs ask for about the same allowance) is not sorted in at once: it waits in an unsorted
/// list until that timer fires, so requesting it and ending it before then are O(1).
///
/// - Complexity: Requesting and ending a budget are O(log n) in the number of live budgets, O(1)
///   when its deadline is no earlier than the armed timer's.
public final class BudgetScheduler: Sendable {
    /// The clock deadlines run on.
    public let clock: any BudgetClock
    /// The longest allowance ``extend(_:by:)`` may take a budget to, unless its request sets its own.
    public let maximumAllowance: Duration?
    let state = LockedValue(State())

    /// Creates a scheduler with no budgets.
    /// - Parameters:
    ///   - clock: A ``/BudgetClock/VirtualClock`` for tests, a real-time clock for real work.
    ///   - maximumAllowance: The ceiling of every budget's allowance, extensions included (a request's
    ///     own `maximumAllowance` can only lower it); `nil` for none.
    public init(clock: any BudgetClock, maximumAllowance: Duration? = nil) {
        self.clock = clock
        self.maximumAllowance = maximumAllowance
        state.withLock { $0.fireWork = { [weak self] in self?.fire() } }
    }

    /// The number of live budgets.
    public var liveCount: Int { state.withLock { $0.liveCount } }

    /// Grants a budget.
    ///
    /// - Parameters:
    ///   - name: A name for errors and debugging.
    ///   - allowance: How long the work may take before its hard stop (plus `grace`). Zero is granted:
    ///     the warning and, with no grace, the hard stop are due at the instant of the request, and run
    ///     as soon as the clock runs (a ``/BudgetClock/VirtualClock``: its next advance, even by zero).
    ///     `Duration.unlimited` (or any allowance past the clock's range, about 292 years) never
    ///     runs out: no warning and no hard stop until ``stop(_:reason:)``, ``shutdown(grace:)`` or the
    ///     end of a parent or scope.
    ///   - warningLead: How long before the allowance runs out `onWarning` is called; zero for a
    ///     warning at the end of the allowance. A lead longer than the allowance warns at once (at the
    ///     instant of the request).
    ///   - grace: Extra time after the allowance before the hard stop.
    ///   - maximumAllowance: How long the allowance may grow to with ``extend(_:by:)``, measured from
    ///     now; `nil` for the scheduler's ``maximumAllowance``, never above it.
    ///   - parent: A live budget this one belongs to; it ends no later than its parent.
    ///   - onWarning: Called at most once, when the warning is due (also when it falls due at the
    ///     same instant as the hard stop), unless ``end(_:)`` was called for the budget or an ancestor
    ///     before the call began; ``end(_:)`` does not return while it runs, unless waiting would
    ///     deadlock (see ``end(_:)``).
    ///   - onStop: Called once if the budget stops before it is ended, with the reason.
    /// - Returns: The budget.
    /// - Throws: ``BudgetError`` for a negative allowance, a negative warning lead, a negative grace, a maximum allowance below the allowance, or a parent that is not live.
    ///   Nothing is scheduled then.
    ///
    /// After ``shutdown(grace:)`` a request is still granted (a job wrapping up may need a budget for
    /// its clean-up), but its hard stop is no later than the shutdown's and its warning is due at once.
    /// - Complexity: O(log n) in the number of live budgets.
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
        try request(named: name, allowance: allowance, warningLead: warningLead, grace: grace,
                    maximumAllowance: maximumAllowance, parent: parent, scope: 0, onWarning: onWarning, onStop: onStop)
    }

    /// ``requestBudget(named:allowance:warningLead:grace:maximumAllowance:parent:onWarning:onStop:)`` in a
    /// scope (zero: none, or the parent's).
    func request(
        named name: String, allowance: Duration, warningLead: Duration, grace: Duration,
        maximumAllowance: Duration?, parent: Budget?, scope requestedScope: UInt32,
        onWarning: BudgetWarningHandler?, onStop: BudgetStopHandler?
    ) throws(BudgetError) -> Budget {
        guard allowance >= .zero else { throw BudgetError(name: name, problem: .allowanceNegative(allowance)) }
        guard warningLead >= .zero else {
            throw BudgetError(name: name, problem: .warningLeadNegative(warningLead))
        }
        guard grace >= .zero else { throw BudgetError(name: name, problem: .graceNegative(grace)) }
        let ceilingAllowance = switch (maximumAllowance, self.maximumAllowance) {
        case let (own?, shared?): min(own, shared)
        case let (own, shared): own ?? shared
        }
        if let ceilingAllowance, ceilingAllowance < allowance {
            throw BudgetError(name: name, problem: .maximumAllowanceBelowAllowance(ceilingAllowance, allowance: allowance))
        }
        let now = clock.now.nanoseconds
        let graceNanos = grace == .zero ? 0 : grace.nanosecondsSaturating
        let (budget, satisfied) = try state.withLock { (state) throws(BudgetError) -> (Budget, ReleasedHandlers?) in
            let allowanceNanos = state.allowanceMemo.nanoseconds(of: allowance)
            let leadNanos = warningLead == .zero ? 0 : state.leadMemo.nanoseconds(of: warningLead)
            let end = now.addingSaturating(allowanceNanos)
            var stopAt = end.addingSaturating(graceNanos)
            // An allowance past the clock's range never runs out: its warning waits for a shutdown.
            var warnAt = end == .max ? Self.neverDue : max(now, end.addingSaturating(-leadNanos))
            var stopsForShutdown = false
            var scope = requestedScope
            if requestedScope != 0, state.scopes[requestedScope] == nil { throw BudgetError(name: name, problem: .scopeEnded) }
            var parentSlot: Int?
            if let parent {
                guard let slot = state.slot(of: parent) else {
                    throw BudgetError(name: name, problem: .parentNotLive(parent))
                }
                parentSlot = slot
                if scope == 0, case let parentScope = state.scope(of: slot), state.scopes[parentScope] != nil { scope = parentScope }
            }
            if let shutdownAt = state.shutdownAt(in: scope) {
                warnAt = now
                if shutdownAt < stopAt { (stopAt, stopsForShutdown) = (shutdownAt, true) }
            }
            if let parentSlot, state.records[parentSlot].stopAt < stopAt {
                stopAt = state.records[parentSlot].stopAt
                warnAt = min(warnAt, max(now, stopAt.addingSaturating(-leadNanos)))
                stopsForShutdown = false
            }
            let slot: Int
            if state.freeHead != 0 {
                slot = Int(state.freeHead - 1)
                state.freeHead = UInt32(truncatingIfNeeded: state.records[slot].stopAt)
            } else {
                slot = state.records.count
                precondition(slot < Int(UInt32.max), "BudgetScheduler supports at most 2^32 - 1 budget slots")
                state.records.append(Record(name: "", stopAt: 0, onStop: nil, generation: 0))
            }
            state.requests &+= 1
            let ceiling = ceilingAllowance.map { now.addingSaturating($0.nanosecondsSaturating).addingSaturating(graceNanos) } ?? .max
            var record = Record(name: name, stopAt: stopAt, onStop: onStop, generation: state.requests)
            record.isLive = true
            record.stopsForShutdown = stopsForShutdown
            var extras = Extras(warnAt: onWarning == nil ? .max : warnAt, ceiling: ceiling, scope: scope)
            // A child is linked under its parent; a scope's budget without one, in its scope's list.
            if let parentSlot {
                extras.parent = UInt32(parentSlot + 1)
                extras.nextSibling = state.firstChild(of: parentSlot)
            } else if scope != 0 {
                extras.nextSibling = state.scopes[scope]!.firstMember
            }
            record.extras = state.store(extras, onWarning: onWarning)
            state.records[slot] = record
            if extras.nextSibling != 0 {
                state.withExtras(of: Int(extras.nextSibling - 1)) { $0.previousSibling = UInt32(slot + 1) }
            }
            if let parentSlot {
                state.withExtras(of: parentSlot) { $0.firstChild = UInt32(slot + 1) }
                if scope != 0, state.scope(of: parentSlot) != scope { state.scopes[scope]!.foreignMembers.append(UInt32(slot)) }
            } else if scope != 0 {
                state.scopes[scope]!.firstMember = UInt32(slot + 1)
            }
            state.schedule(slot)
            state.countLive(1, scope: scope)
            armIfEarlier(&state)
            guard !state.liveWaiters.isEmpty || !state.exactWaiters.isEmpty else { return (state.budget(at: slot), nil) }
            state.released.resumes += state.liveWaiters.takeSatisfied(by: state.liveCount)
            state.released.resumes += state.takeExactSatisfied()
            return (state.budget(at: slot), .take(from: &state.released))
        }
        satisfied?.resumeWaiters()
        return budget
    }

    /// Ends a budget: its work is done. Its live children stop with ``BudgetStopReason/parentEnded``.
    ///
    /// When `end` returns, the warning handlers of the budget and of every budget under it (the
    /// children it stops, and any that had already stopped, even in the same instant) are not running
    /// and will never be called: a warning that fell due but whose delivery has not begun is
    /// cancelled, and `end` waits for a delivery already running on another thread to finish. Called
    /// from inside that warning handler, on its thread, `end` does not wait for itself. So do not call
    /// `end` while holding a lock the warning handler takes. Nor does it wait for a handler whose thread
    /// is blocked in an `end` waiting, directly or through other such waits, for the calling thread:
    /// that wait would never end. Then `end` returns while that handler is still running (blocked in
    /// its own `end` until the caller's handler returns). The stop handlers of the children it
    /// stops run after those waits, on the calling thread, outside the lock: never while their own
    /// warning handlers run. A stop handler whose warning handler is still running (the calling
    /// thread's own, or the one it does not wait for) is called by that handler's thread right after
    /// it returns: `end` called from a warning handler whose hard stop has come returns `false`
    /// without calling the stop handler inside it.
    /// - Parameter budget: The budget.
    ///
    /// A budget whose hard stop is already due when `end` is called (the clock has not run it yet:
    /// it is late, or busy) is stopped instead, with the reason its hard stop would give: its stop
    /// handler runs on the calling thread, and `end` returns `false`. Its warning, if due and not yet
    /// begun, is cancelled as for any `end`.
    /// - Returns: `true` if the budget was live and ended in time; `false` if it had already ended or
    ///   stopped, or its hard stop was due (nothing else happens then, except that a warning still due
    ///   is cancelled or waited for as above).
    @discardableResult
    public func end(_ budget: Budget) -> Bool {
        finish(budget, stopping: nil)
    }

    /// Ends a budget (`reason` `nil`) or stops it now with `reason`: see ``end(_:)`` and
    /// ``stop(_:reason:)``.
    ///
    /// An `end` that finds the budget's hard stop already due (the clock is late to run it) stops the
    /// budget instead, with the reason the clock would give, and returns `false`: work never counts as
    /// finished in time after its own or an ancestor's hard stop.
    func finish(_ budget: Budget, stopping requested: BudgetStopReason?) -> Bool {
        let me = currentThreadIdentity()
        let now = requested == nil ? clock.now.nanoseconds : .max
        let (wasLive, stopped, released, waits) = state.withLock {
            state -> (Bool, [Stop], ReleasedHandlers, [OneShotSignal]) in
            var stopped: [Stop] = []
            let slot = state.slot(of: budget)
            var reason = requested
            if let slot, reason == nil, state.records[slot].stopAt <= now {
                let record = state.records[slot], parent = state.parent(of: slot)
                reason = record.stopsForShutdown ? .shutdown
                    : parent != 0 && state.records[Int(parent - 1)].stopAt == record.stopAt ? .parentStopped : .expired
            }
            if let slot {
                if state.firstChild(of: slot) != 0 {
                    stopChildren(of: slot, reason: reason == nil ? .parentEnded : .parentStopped, in: &state, into: &stopped)
                }
                if let reason { stopped.append((state.budget(at: slot), reason, state.records[slot].onStop)) }
                remove(slot, in: &state)
            }
            state.stopsInFlight += stopped.count   // with those handed to a running warning's thread below
            var waits: [OneShotSignal] = []
            if !state.deliveries.isEmpty {
                // The budget's own delivery and those of every budget that had it as an ancestor
                // when queued: the children stopped just now, and any that stopped earlier.
                var claimed = state.deliveries[budget.id] == nil ? [] : [budget.id]
                if state.ancestorCounts[budget.id] != nil {
                    claimed += state.deliveries.compactMap { id, delivery in delivery.ancestors.contains(budget.id) ? id : nil }
                }
                for id in claimed {
                    guard let thread = state.deliveries[id]?.thread else {
                        _ = state.removeDelivery(id)   // queued: cancelled
                        continue
                    }
                    // Never wait for itself, nor for a thread that waits (in its own `end`) for this one.
                    // A budget stopped here whose warning handler runs there (its hard stop fell due
                    // inside it) is stopped by that thread, once the handler has returned.
                    guard !state.waits(from: thread, for: me) else {
                        if let index = stopped.firstIndex(where: { $0.0.id == id }) {
                            state.deliveries[id]?.deferredStops.append(stopped.remove(at: index))
                        }
                        continue
                    }
                    let signal = OneShotSignal()
                    state.deliveries[id]?.waiters.append(signal)
                    state.waiting[me, default: []].append(id)
                    waits.append(signal)
                }
            }
            if !state.exactWaiters.isEmpty { state.released.resumes += state.takeExactSatisfied() }
            // `end` reports a budget whose hard stop was due as not ended in time; `stop`, as live.
            return (slot != nil && (requested != nil || reason == nil), stopped, .take(from: &state.released), waits)
        }
        // Running warnings first: a stopped child's stop handler never overlaps its warning handler.
        if !waits.isEmpty {
            for signal in waits { signal.wait() }
            state.withLock { _ = $0.waiting.removeValue(forKey: me) }
        }
        for (child, reason, handler) in stopped { handler?(child, reason) }
        released.resumeWaiters()
        stopHandlersReturned(stopped.count)
        return wasLive
    }

    /// Whether a budget is still live (neither ended nor stopped).
    public func isLive(_ budget: Budget) -> Bool {
        state.withLock { $0.slot(of: budget) != nil }
    }

    /// Time left before the budget's hard stop, or `nil` if it is not live.
    public func timeRemaining(_ budget: Budget) -> Duration? {
        let now = clock.now
        return state.withLock { state in
            state.slot(of: budget).map { max(.zero, BudgetInstant(nanoseconds: state.records[$0].stopAt) - now) }
        }
    }
}
