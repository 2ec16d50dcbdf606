import BudgetTime

/// Finite background tasks: the allowance, expiration handlers, expiry and the assertion cap.
///
/// Rules: the allowance is per app and shared by all its tasks [S17]; it runs
/// while the app is in the background and, by default, starts afresh on each return to the foreground;
/// expiration handlers are called ``BudgetPolicy/expirationWarningLead`` before it runs out, each once
/// [S14][S21]; tasks still open when it runs out terminate the app [S17][S22]; one assertion more than
/// ``BudgetPolicy/maxOpenBackgroundTasks`` terminates it too [S17]. The assertion is granted
/// asynchronously, and when the system cannot grant it, it calls the task's expiration handler
/// [S14][S6]: a begin refused because the allowance is spent returns `.invalid` at once, and its
/// handler runs later on the app's queue, after the code that asked has returned.
extension DeviceCore {
    /// The outcome of `beginBackgroundTask`.
    package enum BeginOutcome {
        /// The task began under this identifier.
        case granted(BackgroundTaskIdentifier)
        /// No task began, for this reason.
        case denied(BackgroundTaskDenial)
    }

    /// Time left in the current allowance; `nil` while the app is in the foreground (unbounded).
    package func allowanceRemaining(_ app: AppID, at now: BudgetInstant) -> Duration? {
        let s = slot(app)
        switch records[s].state {
        case .inactive, .active: return nil
        case .notRunning, .suspended: return .zero
        case .background: return records[s].finiteTasks.remaining(of: policy.backgroundTaskAllowance, at: now)
        }
    }

    /// Begins a finite task. The shell keeps the app's expiration handler (if any) under the granted
    /// identifier until ``Effect/releaseExpirationHandler(_:_:)`` or ``Effect/dropQueue(_:)``. A begin
    /// refused because the allowance is spent, when the app gave a handler (`hasExpirationHandler`),
    /// yields ``Effect/refusedTaskHandler(_:incarnation:)``: the shell keeps that handler and calls it
    /// on the app's queue [S14][S6]. Other refusals call nothing: background running is not possible
    /// at all (not running, suspended, terminating, exits on suspend), or the app is killed.
    package mutating func beginBackgroundTask(
        _ app: AppID, name: String?, hasExpirationHandler: Bool = false, at now: BudgetInstant
    ) -> Decision<BeginOutcome> {
        // Read scalars only: holding a copy of the record would make the task insertion below copy
        // the whole task table (copy-on-write).
        let s = slot(app)
        let (state, terminating, exitsOnSuspend, openCount) = (records[s].state, records[s].isTerminating,
            exitsOnSuspend(slot: s), records[s].running?.finiteTasks.open.count ?? 0)
        func deny(_ denial: BackgroundTaskDenial) -> Decision<BeginOutcome> {
            self.record(.backgroundTaskDenied(name: name, denial), app, now)
            return Decision(.denied(denial), effects: [])
        }
        if terminating { return deny(.terminating) }
        switch state {
        case .notRunning: return deny(.notRunning)
        case .suspended: return deny(.suspended)
        case .inactive, .active, .background: break
        }
        if exitsOnSuspend { return deny(.exitsOnSuspend) }
        if state == .background, allowanceRemaining(app, at: now) == .zero {
            let refused = deny(.allowanceSpent)
            guard hasExpirationHandler else { return refused }
            return Decision(refused.value, effects: [.refusedTaskHandler(app, incarnation: records[s].handOff())])
        }
        if openCount >= policy.maxOpenBackgroundTasks {
            self.record(.backgroundTaskDenied(name: name, .tooManyTasks), app, now)
            return Decision(.denied(.tooManyTasks), effects: applyValid(.kill(.tooManyBackgroundTasks), to: app, at: now,
                                                        invariant: "a running app that is not terminating can be killed"))
        }
        let number = records[s].finiteTasks.takeNumber()
        records[s].process.modify { $0.finiteTasks.begin(number, name: name, at: now) }
        let id = BackgroundTaskIdentifier(rawValue: number)
        self.record(.backgroundTaskBegan(id, name: name), app, now)
        return Decision(.granted(id), effects: rearmTimers(app, at: now))
    }

    /// Ends a finite task: the shell releases its expiration handler; the app may then be suspended.
    package mutating func endBackgroundTask(_ app: AppID, _ id: BackgroundTaskIdentifier, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard id != .invalid else {
            self.record(.backgroundTaskEndIgnored(id, .invalidIdentifier), app, now)
            return []
        }
        let nextNumber = records[s].finiteTasks.nextNumber
        if let problem = records[s].process.modify({ $0.finiteTasks.end(id.rawValue, nextNumber: nextNumber) })
            ?? (id.rawValue < nextNumber ? .alreadyEnded : .unknownTask) {
            self.record(.backgroundTaskEndIgnored(id, problem), app, now)
            return []
        }
        self.record(.backgroundTaskEnded(id), app, now)
        if records[s].state == .background { records[s].finiteTasks.usedThisPeriod = true }
        return Decision([.releaseExpirationHandler(app, id)] + rearmTimers(app, at: now) + suspendIfIdle(app, at: now))
    }

    /// Arms exactly the timers the app's state and tasks call for, and announces the allowance.
    ///
    /// The foreground overrun timer is lazy: once armed it stays until it fires (it may then find that
    /// its task has ended and re-arm for the next oldest), so beginning and ending tasks in the
    /// foreground does not churn the clock.
    mutating func rearmTimers(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        let state = records[s].state
        let tasks = records[s].running?.finiteTasks ?? FiniteTaskState.Running()
        if let expiry = records[s].finiteTasks.allowanceExpiry(in: state, tasks: tasks, allowance: policy.backgroundTaskAllowance),
           records[s].finiteTasks.announceAllowance() {
            self.record(.allowanceStarted(expiresAt: expiry), app, now)
        }
        let wanted = records[s].finiteTasks.wantedTimers(in: state, tasks: tasks, allowance: policy.backgroundTaskAllowance,
                                                         warningLead: policy.expirationWarningLead, at: now)
        let armed = tasks.armed
        guard wanted != armed else { return [] }
        var effects: [Effect] = []
        let changes: [(AppTimer, BudgetInstant?, BudgetInstant?)] = [
            (.expirationWarning, armed.warning, wanted.warning), (.allowanceExpiry, armed.expiry, wanted.expiry),
            (.foregroundOverrun, armed.overrun, wanted.overrun),
        ]
        for (timer, old, new) in changes where old != new {
            effects.append(new.map { arm(timer, for: app, at: $0) } ?? disarm(timer, for: app))
        }
        records[s].process.modify { $0.finiteTasks.armed = wanted }
        return effects
    }

    /// Calls every open task's expiration handler that has not been called yet, in begin order.
    mutating func callExpirationHandlers(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        records[s].process.modify { $0.finiteTasks.armed.warning = nil }
        guard records[s].state == .background else { return rearmTimers(app, at: now) }
        var due: [BackgroundTaskIdentifier] = []
        for number in records[s].process.modify({ $0.finiteTasks.takeUncalledHandlers() }) ?? [] {
            let id = BackgroundTaskIdentifier(rawValue: number)
            self.record(.expirationHandlerCalled(id), app, now)
            due.append(id)
        }
        var effects = rearmTimers(app, at: now)
        if !due.isEmpty {
            effects.append(.expirationHandlers(app, incarnation: records[s].handOff(), due))
        }
        return effects
    }

    /// A batch of expiration handlers started on the app's queue: together they must return within
    /// ``BudgetPolicy/expirationHandlerLimit``, measured by the watchdog as a callback's time is, or
    /// the app is killed with ``BudgetPolicy/backgroundTaskExpiryCode`` [S17].
    package mutating func expirationHandlersStarted(_ app: AppID, incarnation: UInt64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].incarnation == incarnation, records[s].isRunning else { return [] }
        let deadline = now + policy.expirationHandlerLimit
        records[s].process.modify { $0.finiteTasks.handlersDeadline = deadline }
        return [arm(.watchdog, for: app, at: now + policy.expirationHandlerLimit)]
    }

    /// The expiration handler of a refused begin started on the app's queue: the trace records it
    /// (`expirationHandler` with task 0, the `.invalid` identifier the begin returned), and it is timed
    /// as a batch of expiration handlers is.
    package mutating func refusedTaskHandlerStarted(_ app: AppID, incarnation: UInt64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].incarnation == incarnation, records[s].isRunning else { return [] }
        self.record(.expirationHandlerCalled(.invalid), app, now)
        return expirationHandlersStarted(app, incarnation: incarnation, at: now)
    }

    /// The batch of expiration handlers returned: the watchdog is disarmed and the app settles.
    package mutating func expirationHandlersReturned(_ app: AppID, incarnation: UInt64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].incarnation == incarnation, records[s].running?.finiteTasks.handlersDeadline != nil else {
            return settle(app, incarnation: incarnation, at: now)
        }
        records[s].process.modify { $0.finiteTasks.handlersDeadline = nil }
        return Decision([disarm(.watchdog, for: app)] + settle(app, incarnation: incarnation, at: now).effects)
    }

    /// Reports tasks begun in the foreground that have been open longer than the allowance.
    mutating func reportForegroundOverruns(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        records[s].process.modify { $0.finiteTasks.armed.overrun = nil }
        guard records[s].state.isForeground else { return rearmTimers(app, at: now) }
        let allowance = policy.backgroundTaskAllowance
        for number in records[s].process.modify({ $0.finiteTasks.takeOverruns(allowance: allowance, at: now) }) ?? [] {
            self.record(.backgroundTaskOpenTooLong(BackgroundTaskIdentifier(rawValue: number)), app, now)
        }
        return rearmTimers(app, at: now)
    }
}
