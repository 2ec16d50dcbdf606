import BudgetTime
import BudgetClock

/// Running deadlines: warnings, then stops, with handlers called after the lock is released.
extension BudgetScheduler {
    /// Runs every deadline due by now: warnings, then stops (children first), handlers after unlocking.
    ///
    /// A budget whose hard stop is at the same instant as an ancestor's stops because that ancestor
    /// stops: the outermost such ancestor reports ``BudgetStopReason/expired`` and every budget under
    /// it ``BudgetStopReason/parentStopped``, whatever order their deadlines are found in. Warnings that
    /// fell due by then are delivered first, each only if no `end` has claimed its budget before its
    /// delivery begins.
    func fire() {
        let now = clock.now.nanoseconds
        var warnings: [(Budget, BudgetWarningHandler)] = []
        var stopped: [Stop] = []
        var groups = StopGroups()
        let released = state.withLock { state -> ReleasedHandlers in
            state.timer = nil
            state.timerAt = nil
            while let (_, slot) = state.deadlines.popFirst(ifDueBy: now) {
                let warnAt = state.warnAt(of: slot), stopAt = state.records[slot].stopAt
                if warnAt <= now {
                    queueWarning(of: slot, in: &state, into: &warnings)
                    if warnAt < stopAt {
                        state.schedule(slot)
                        continue
                    }
                }
                var top = slot
                while case let parent = state.parent(of: top), parent != 0, state.records[Int(parent - 1)].stopAt == stopAt {
                    top = Int(parent - 1)
                }
                stopChildren(of: top, reason: .parentStopped, in: &state, into: &stopped, warningsDueBy: now, warnings: &warnings)
                queueWarning(of: top, dueBy: now, in: &state, into: &warnings)
                stopped.append((state.budget(at: top), state.records[top].stopsForShutdown ? .shutdown : .expired, state.records[top].onStop))
                groups.add(stopAt: state.records[top].stopAt, age: state.age(of: top), end: stopped.count)
                remove(top, in: &state)
            }
            armIfEarlier(&state)
            state.stopsInFlight += stopped.count
            return .take(from: &state.released)
        }
        deliver(warnings)
        let due = settleWarnings(of: groups.ordered(stopped))
        for (budget, reason, handler) in due { handler?(budget, reason) }
        released.resumeWaiters()   // the handlers are dropped on return, outside the lock
        stopHandlersReturned(due.count)
    }

    /// Counts `count` stop handlers as returned, and resumes the exact-count waiters that now hold.
    func stopHandlersReturned(_ count: Int) {
        guard count > 0 else { return }
        let woken = state.withLock { state in
            state.stopsInFlight -= count
            return state.takeExactSatisfied()
        }
        for waiter in woken { waiter.resume() }
    }

    /// Before stop handlers run: delivers the due warnings of the stopping budgets that another thread
    /// queued but has not begun, and waits for those another thread is running (unless it waits for
    /// this one: see ``BudgetScheduler``). So a stop handler never overlaps its own warning handler,
    /// and a warning that fell due comes before its stop. Returns the stops to call now: those whose
    /// warning handler is running on this thread (the stop fell due inside it, a nested advance of a
    /// virtual clock) or on a thread waiting for this one are handed to that delivery instead, whose
    /// thread calls them once the handler has returned.
    func settleWarnings(of stopped: [Stop]) -> [Stop] {
        let me = currentThreadIdentity()
        var due = stopped
        let (claimed, waits) = state.withLock { state -> ([(Budget, BudgetWarningHandler)], [OneShotSignal]) in
            guard !state.deliveries.isEmpty else { return ([], []) }
            var claimed: [(Budget, BudgetWarningHandler)] = [], waits: [OneShotSignal] = []
            due.removeAll { stop in
                let budget = stop.0
                guard let delivery = state.deliveries[budget.id] else { return false }
                guard let thread = delivery.thread else {
                    state.deliveries[budget.id]?.thread = me
                    claimed.append((budget, delivery.handler))
                    return false
                }
                guard thread != me, !state.waits(from: thread, for: me) else {
                    state.deliveries[budget.id]?.deferredStops.append(stop)
                    return true
                }
                let signal = OneShotSignal()
                state.deliveries[budget.id]?.waiters.append(signal)
                state.waiting[me, default: []].append(budget.id)
                waits.append(signal)
                return false
            }
            return (claimed, waits)
        }
        for (budget, handler) in claimed { run(handler, for: budget) }
        guard !waits.isEmpty else { return due }
        for signal in waits { signal.wait() }
        state.withLock { _ = $0.waiting.removeValue(forKey: me) }
        return due
    }

    /// Marks a budget's warning as delivered-or-due and queues it for delivery, if it has a handler
    /// and the warning is due by `dueBy` and not queued before.
    func queueWarning(of slot: Int, dueBy: Int64 = .max, in state: inout State,
                              into warnings: inout [(Budget, BudgetWarningHandler)]) {
        let warnAt = state.warnAt(of: slot)
        guard warnAt != .max, warnAt <= dueBy else { return }
        state.withExtras(of: slot) { $0.warnAt = .max }
        guard let handler = state.onWarning(of: slot) else { return }
        let budget = state.budget(at: slot)
        var ancestors: [UInt64] = []
        var parent = state.parent(of: slot)
        while parent != 0 {
            ancestors.append(state.budget(at: Int(parent - 1)).id)
            parent = state.parent(of: Int(parent - 1))
        }
        state.queue(Delivery(ancestors: ancestors, handler: handler), for: budget.id)
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
            run(handler, for: budget)
        }
    }

    /// Runs a warning handler whose delivery this thread has claimed, then drops the delivery and wakes
    /// whoever waited for it.
    ///
    /// A stop handed to the delivery while the handler ran (its hard stop fell due inside it) is called
    /// here, after the handler has returned and before the `end` calls waiting for the delivery are
    /// woken; the delivery stays registered meanwhile, so that waits for it still see this thread.
    private func run(_ handler: BudgetWarningHandler, for budget: Budget) {
        handler(budget)
        let (deferred, first) = state.withLock { state -> ([Stop], [OneShotSignal]) in
            if let deferred = state.deliveries[budget.id]?.deferredStops, !deferred.isEmpty {
                state.deliveries[budget.id]?.deferredStops = []
                return (deferred, [])
            }
            return ([], state.removeDelivery(budget.id)?.waiters ?? [])
        }
        var waiters = first
        if !deferred.isEmpty {
            for (stopped, reason, stopHandler) in deferred { stopHandler?(stopped, reason) }
            stopHandlersReturned(deferred.count)
            waiters = state.withLock { state in state.removeDelivery(budget.id)?.waiters ?? [] }
        }
        for waiter in waiters { waiter.signal() }
    }

    /// Removes every live descendant of a budget, deepest first and siblings oldest first, recording
    /// each with `reason`; with `warningsDueBy`, first queues each one's warning that fell due by then.
    func stopChildren(of slot: Int, reason: BudgetStopReason, in state: inout State,
                              into stopped: inout [Stop],
                              warningsDueBy: Int64? = nil, warnings: inout [(Budget, BudgetWarningHandler)]) {
        guard state.firstChild(of: slot) != 0 else { return }
        for childSlot in state.childrenOldestFirst(of: slot) {
            stopChildren(of: childSlot, reason: .parentStopped, in: &state, into: &stopped,
                         warningsDueBy: warningsDueBy, warnings: &warnings)
            if let warningsDueBy { queueWarning(of: childSlot, dueBy: warningsDueBy, in: &state, into: &warnings) }
            stopped.append((state.budget(at: childSlot), reason, state.records[childSlot].onStop))
            remove(childSlot, in: &state)
        }
    }

    /// Removes every live descendant of a budget, deepest first, recording each with `reason`.
    func stopChildren(of slot: Int, reason: BudgetStopReason, in state: inout State,
                              into stopped: inout [Stop]) {
        var none: [(Budget, BudgetWarningHandler)] = []
        stopChildren(of: slot, reason: reason, in: &state, into: &stopped, warnings: &none)
    }

    /// Unlinks a budget from its parent and siblings, drops its deadline and frees its slot.
    func remove(_ slot: Int, in state: inout State) {
        state.deadlines.remove(slot)
        let extras = state.takeHandlersAndExtras(of: slot)
        if extras.previousSibling != 0 {
            state.withExtras(of: Int(extras.previousSibling - 1)) { $0.nextSibling = extras.nextSibling }
        } else if extras.parent != 0 {
            state.withExtras(of: Int(extras.parent - 1)) { $0.firstChild = extras.nextSibling }
        } else if extras.scope != 0 {
            state.scopes[extras.scope]?.firstMember = extras.nextSibling
        }
        if extras.scope != 0, extras.parent != 0, state.scope(of: Int(extras.parent - 1)) != extras.scope {
            state.dropForeignMember(slot, of: extras.scope)
        }
        if extras.nextSibling != 0 {
            state.withExtras(of: Int(extras.nextSibling - 1)) { $0.previousSibling = extras.previousSibling }
        }
        state.records[slot] = Record(name: "", stopAt: Int64(state.freeHead), onStop: nil, generation: state.records[slot].generation)
        state.freeHead = UInt32(slot + 1)
        state.countLive(-1, scope: extras.scope)
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
