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
/// running nor ever called (`end` waits for a delivery running on another thread). One exception, where
/// waiting would deadlock: `end` does not wait for a handler whose thread is itself blocked in an `end`
/// that waits, directly or through other such waits, for the thread calling it (two handlers running
/// at once on two threads advancing a ``/BudgetClock/VirtualClock``, each ending the other's budget). That `end`
/// returns while the other handler is still running, blocked in its own `end` until the caller's
/// handler returns; it is never called again.
///
/// The scheduler keeps its own deadline heap and arms one clock timer for its earliest deadline, so a
/// live budget costs a heap entry and a record, and thousands of threads may request and end budgets
/// concurrently. Ending budgets never cancels that timer, even when none is left: it fires at its
/// instant, finds nothing due and arms nothing more (or the earliest deadline left). So a clock
/// shows one pending item after the last budget ended early, until that instant; in exchange,
/// requesting and ending budgets on an idle scheduler does not touch the clock at all.
///
/// - Complexity: Requesting and ending a budget are O(log n) in the number of live budgets.
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
    ///   - allowance: How long the work may take before its hard stop (plus `grace`).
    ///   - warningLead: How long before the allowance runs out `onWarning` is called; zero for a
    ///     warning at the end of the allowance.
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
    /// - Throws: ``BudgetError`` for a non-positive allowance, a warning lead outside the allowance, a
    ///   negative grace, a maximum allowance below the allowance, or a parent that is not live.
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
        guard allowance > .zero else { throw BudgetError(name: name, problem: .allowanceNotPositive(allowance)) }
        guard warningLead >= .zero, warningLead <= allowance else {
            throw BudgetError(name: name, problem: .warningLeadOutOfRange(warningLead, allowance: allowance))
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
        let allowanceNanos = allowance.nanosecondsSaturating
        let leadNanos = warningLead.nanosecondsSaturating
        let graceNanos = grace.nanosecondsSaturating
        let (budget, satisfied) = try state.withLock { (state) throws(BudgetError) -> (Budget, [UnsafeContinuation<Void, any Error>]) in
            var stopAt = now.addingSaturating(allowanceNanos).addingSaturating(graceNanos)
            var warnAt = now.addingSaturating(allowanceNanos - leadNanos)
            var stopsForShutdown = false
            if let shutdownAt = state.shutdownAt {
                warnAt = now
                if shutdownAt < stopAt { (stopAt, stopsForShutdown) = (shutdownAt, true) }
            }
            var parentSlot: Int?
            if let parent {
                guard let slot = state.slot(of: parent) else {
                    throw BudgetError(name: name, problem: .parentNotLive(parent))
                }
                parentSlot = slot
                if state.records[slot].stopAt < stopAt {
                    stopAt = state.records[slot].stopAt
                    warnAt = min(warnAt, stopAt - leadNanos)
                    stopsForShutdown = false
                }
            }
            let slot: Int
            if state.freeHead != 0 {
                slot = Int(state.freeHead - 1)
                state.freeHead = state.records[slot].parent
                state.records[slot].generation &+= 1
            } else {
                slot = state.records.count
                precondition(slot < Int(UInt32.max), "BudgetScheduler supports at most 2^32 - 1 budget slots")
                state.records.append(Record(name: "", warnAt: 0, stopAt: 0, generation: 0))
            }
            let entry = state.deadlines.insert(deadline: min(warnAt, stopAt), payload: UInt32(slot))
            let generation = state.records[slot].generation
            let ceiling = ceilingAllowance.map { now.addingSaturating($0.nanosecondsSaturating).addingSaturating(graceNanos) } ?? .max
            var record = Record(name: name, warnAt: warnAt, stopAt: stopAt, generation: generation,
                                extras: state.store(Extras(onWarning: onWarning, onStop: onStop, ceiling: ceiling)),
                                entry: entry, isLive: true, stopsForShutdown: stopsForShutdown)
            if let parentSlot {
                record.parent = UInt32(parentSlot + 1)
                record.nextSibling = state.records[parentSlot].firstChild
                if record.nextSibling != 0 { state.records[Int(record.nextSibling - 1)].previousSibling = UInt32(slot + 1) }
                state.records[parentSlot].firstChild = UInt32(slot + 1)
            }
            state.records[slot] = record
            state.liveCount += 1
            armIfEarlier(&state)
            return (state.budget(at: slot), state.liveWaiters.takeSatisfied(by: state.liveCount))
        }
        for waiter in satisfied { waiter.resume() }
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
    /// warning handlers run.
    /// - Parameter budget: The budget.
    /// - Returns: `true` if the budget was live; `false` if it had already ended or stopped (nothing
    ///   else happens then, except that a warning still due is cancelled or waited for as above).
    @discardableResult
    public func end(_ budget: Budget) -> Bool {
        finish(budget, stopping: nil)
    }

    /// Ends a budget (`reason` `nil`) or stops it now with `reason`: see ``end(_:)`` and
    /// ``stop(_:reason:)``.
    func finish(_ budget: Budget, stopping reason: BudgetStopReason?) -> Bool {
        let me = currentThreadIdentity()
        let (wasLive, stopped, released, waits) = state.withLock {
            state -> (Bool, [(Budget, BudgetStopReason, BudgetStopHandler?)], ReleasedHandlers, [OneShotSignal]) in
            var stopped: [(Budget, BudgetStopReason, BudgetStopHandler?)] = []
            let slot = state.slot(of: budget)
            if let slot {
                stopChildren(of: slot, reason: reason == nil ? .parentEnded : .parentStopped, in: &state, into: &stopped)
                if let reason { stopped.append((state.budget(at: slot), reason, state.onStop(of: slot))) }
                remove(slot, in: &state)
            }
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
                    guard !state.waits(from: thread, for: me) else { continue }
                    let signal = OneShotSignal()
                    state.deliveries[id]?.waiters.append(signal)
                    state.waiting[me, default: []].append(id)
                    waits.append(signal)
                }
            }
            defer { state.released = ReleasedHandlers() }
            return (slot != nil, stopped, state.released, waits)
        }
        withExtendedLifetime(released) {}   // dropped here, outside the lock
        // Running warnings first: a stopped child's stop handler never overlaps its warning handler.
        if !waits.isEmpty {
            for signal in waits { signal.wait() }
            state.withLock { _ = $0.waiting.removeValue(forKey: me) }
        }
        for (child, reason, handler) in stopped { handler?(child, reason) }
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

    // MARK: Deadlines

    /// Runs every deadline due by now: warnings, then stops (children first), handlers after unlocking.
    ///
    /// A budget whose hard stop is at the same instant as an ancestor's stops because that ancestor
    /// stops: the outermost such ancestor reports ``BudgetStopReason/expired`` and every budget under
    /// it ``BudgetStopReason/parentStopped``, whatever order their deadlines are found in. Warnings that
    /// fell due by then are delivered first, each only if no `end` has claimed its budget before its
    /// delivery begins.
    private func fire() {
        let now = clock.now.nanoseconds
        var warnings: [(Budget, BudgetWarningHandler)] = []
        var stopped: [(Budget, BudgetStopReason, BudgetStopHandler?)] = []
        let released = state.withLock { state -> ReleasedHandlers in
            state.timer = nil
            state.timerAt = nil
            while let (_, payload) = state.deadlines.popFirst(ifDueBy: now) {
                let slot = Int(payload)
                state.records[slot].entry = nil
                let record = state.records[slot]
                if record.warnAt <= now {
                    queueWarning(of: slot, in: &state, into: &warnings)
                    if record.warnAt < record.stopAt {
                        state.records[slot].entry = state.deadlines.insert(deadline: record.stopAt, payload: payload)
                        continue
                    }
                }
                var top = slot
                while case let parent = state.records[top].parent, parent != 0, state.records[Int(parent - 1)].stopAt == record.stopAt {
                    top = Int(parent - 1)
                }
                stopChildren(of: top, reason: .parentStopped, in: &state, into: &stopped, warningsDueBy: now, warnings: &warnings)
                queueWarning(of: top, dueBy: now, in: &state, into: &warnings)
                stopped.append((state.budget(at: top), state.records[top].stopsForShutdown ? .shutdown : .expired, state.onStop(of: top)))
                remove(top, in: &state)
            }
            armIfEarlier(&state)
            defer { state.released = ReleasedHandlers() }
            return state.released
        }
        withExtendedLifetime(released) {}   // dropped here, outside the lock
        deliver(warnings)
        for (budget, reason, handler) in stopped { handler?(budget, reason) }
    }

    /// Marks a budget's warning as delivered-or-due and queues it for delivery, if it has a handler
    /// and the warning is due by `dueBy` and not queued before.
    func queueWarning(of slot: Int, dueBy: Int64 = .max, in state: inout State,
                              into warnings: inout [(Budget, BudgetWarningHandler)]) {
        let record = state.records[slot]
        guard record.warnAt != .max, record.warnAt <= dueBy else { return }
        state.records[slot].warnAt = .max
        guard let handler = state.onWarning(of: slot) else { return }
        let budget = state.budget(at: slot)
        var ancestors: [UInt64] = []
        var parent = record.parent
        while parent != 0 {
            ancestors.append(state.budget(at: Int(parent - 1)).id)
            parent = state.records[Int(parent - 1)].parent
        }
        state.queue(Delivery(ancestors: ancestors), for: budget.id)
        warnings.append((budget, handler))
    }

    /// Calls each queued warning handler whose delivery no `end` has cancelled, one at a time, and
    /// wakes the `end` calls that waited for it.
    func deliver(_ warnings: [(Budget, BudgetWarningHandler)]) {
        guard !warnings.isEmpty else { return }
        let me = currentThreadIdentity()
        for (budget, handler) in warnings {
            let claimed = state.withLock { state -> Bool in
                guard let delivery = state.deliveries[budget.id], delivery.thread == nil else { return false }
                state.deliveries[budget.id]?.thread = me
                return true
            }
            guard claimed else { continue }
            handler(budget)
            let waiters = state.withLock { state -> [OneShotSignal] in
                state.removeDelivery(budget.id)?.waiters ?? []
            }
            for waiter in waiters { waiter.signal() }
        }
    }

    /// Removes every live descendant of a budget, deepest first, recording each with `reason`; with
    /// `warningsDueBy`, first queues each one's warning that fell due by then.
    private func stopChildren(of slot: Int, reason: BudgetStopReason, in state: inout State,
                              into stopped: inout [(Budget, BudgetStopReason, BudgetStopHandler?)],
                              warningsDueBy: Int64? = nil, warnings: inout [(Budget, BudgetWarningHandler)]) {
        while case let child = state.records[slot].firstChild, child != 0 {
            let childSlot = Int(child - 1)
            stopChildren(of: childSlot, reason: .parentStopped, in: &state, into: &stopped,
                         warningsDueBy: warningsDueBy, warnings: &warnings)
            if let warningsDueBy { queueWarning(of: childSlot, dueBy: warningsDueBy, in: &state, into: &warnings) }
            stopped.append((state.budget(at: childSlot), reason, state.onStop(of: childSlot)))
            remove(childSlot, in: &state)
        }
    }

    /// Removes every live descendant of a budget, deepest first, recording each with `reason`.
    private func stopChildren(of slot: Int, reason: BudgetStopReason, in state: inout State,
                              into stopped: inout [(Budget, BudgetStopReason, BudgetStopHandler?)]) {
        var none: [(Budget, BudgetWarningHandler)] = []
        stopChildren(of: slot, reason: reason, in: &state, into: &stopped, warnings: &none)
    }

    /// Unlinks a budget from its parent and siblings, drops its deadline and frees its slot.
    private func remove(_ slot: Int, in state: inout State) {
        let record = state.records[slot]
        if let entry = record.entry { state.deadlines.remove(entry) }
        if let extras = state.takeExtras(of: slot), extras.onWarning != nil || extras.onStop != nil {
            state.released.append(extras)
        }
        if record.previousSibling != 0 {
            state.records[Int(record.previousSibling - 1)].nextSibling = record.nextSibling
        } else if record.parent != 0 {
            state.records[Int(record.parent - 1)].firstChild = record.nextSibling
        }
        if record.nextSibling != 0 { state.records[Int(record.nextSibling - 1)].previousSibling = record.previousSibling }
        state.records[slot] = Record(name: "", warnAt: 0, stopAt: 0, generation: record.generation, parent: state.freeHead)
        state.freeHead = UInt32(slot + 1)
        state.liveCount -= 1
        // The clock timer stays armed, even when no budget is left: it fires at its instant, finds
        // nothing due and arms nothing (or the next deadline). Cancelling it here would cost a
        // cancel and a new schedule for every request+end pair on an otherwise idle scheduler.
    }

    /// Keeps one clock timer armed no later than the earliest deadline. Moving it earlier re-arms it;
    /// a timer left earlier than needed (after budgets ended, even the last one) fires, finds nothing
    /// due and arms again for the earliest deadline, if there is one.
    func armIfEarlier(_ state: inout State) {
        guard let earliest = state.deadlines.peekDeadline else { return }
        if let armed = state.timerAt, armed <= earliest { return }
        if let timer = state.timer { clock.cancel(timer) }
        state.timerAt = earliest
        state.timer = clock.schedule(at: BudgetInstant(nanoseconds: earliest), state.fireWork!)
    }
}
