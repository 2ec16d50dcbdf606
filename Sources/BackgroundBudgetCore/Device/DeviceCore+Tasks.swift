import BudgetClock

/// Finite background tasks: the allowance, expiration handlers, expiry and the assertion cap.
///
/// Rules (IOS-FACTS Part 1 and §3): the allowance is per app and shared by all its tasks [S17]; it runs
/// while the app is in the background and, by default, starts afresh on each return to the foreground;
/// expiration handlers are called ``BudgetPolicy/expirationWarningLead`` before it runs out, each once
/// [S14][S21]; tasks still open when it runs out terminate the app [S17][S22]; one assertion more than
/// ``BudgetPolicy/maxOpenBackgroundTasks`` terminates it too [S17].
extension DeviceCore {
    /// The outcome of `beginBackgroundTask`.
    package enum BeginOutcome {
        case granted(BackgroundTaskIdentifier)
        case denied(BackgroundTaskDenial)
    }

    /// Time left in the current allowance; `nil` while the app is in the foreground (unbounded).
    package func allowanceRemaining(_ app: AppID, at now: BudgetInstant) -> Duration? {
        let record = records[slot(app)]
        switch record.state {
        case .inactive, .active: return nil
        case .notRunning, .suspended: return .zero
        case .background:
            let used = record.spentBefore + (record.backgroundSince.map { now - $0 } ?? .zero)
            return max(.zero, policy.backgroundTaskAllowance - used)
        }
    }

    /// Begins a finite task. The shell keeps the app's expiration handler (if any) under the granted
    /// identifier until ``Effect/releaseExpirationHandler(_:_:)`` or ``Effect/dropQueue(_:)``.
    package mutating func beginBackgroundTask(_ app: AppID, name: String?, at now: BudgetInstant) -> (BeginOutcome, [Effect]) {
        // Read scalars only: holding a copy of the record would make the task insertion below copy
        // the whole task table (copy-on-write).
        let s = slot(app)
        let (state, terminating, exitsOnSuspend, openCount, number) = (records[s].state, records[s].pendingExit != nil,
            records[s].manifest.exitsOnSuspend, records[s].tasks.count, records[s].nextTaskNumber)
        func deny(_ denial: BackgroundTaskDenial) -> (BeginOutcome, [Effect]) {
            self.record(.backgroundTaskDenied(name: name, denial), app, now)
            return (.denied(denial), [])
        }
        if terminating { return deny(.terminating) }
        switch state {
        case .notRunning: return deny(.notRunning)
        case .suspended: return deny(.suspended)
        case .inactive, .active, .background: break
        }
        if exitsOnSuspend { return deny(.exitsOnSuspend) }
        if state == .background, allowanceRemaining(app, at: now) == .zero { return deny(.allowanceSpent) }
        if openCount >= policy.maxOpenBackgroundTasks {
            self.record(.backgroundTaskDenied(name: name, .tooManyTasks), app, now)
            return (.denied(.tooManyTasks), applyValid(.kill(.tooManyBackgroundTasks), to: app, at: now,
                                                        invariant: "a running app that is not terminating can be killed"))
        }
        records[s].nextTaskNumber += 1
        records[s].tasks[number] = OpenTask(name: name, begunAt: now)
        records[s].unwarnedTasks += 1
        let id = BackgroundTaskIdentifier(rawValue: number)
        self.record(.backgroundTaskBegan(id, name: name), app, now)
        return (.granted(id), rearmTimers(app, at: now))
    }

    package mutating func endBackgroundTask(_ app: AppID, _ id: BackgroundTaskIdentifier, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard id != .invalid else {
            self.record(.backgroundTaskEndIgnored(id, .invalidIdentifier), app, now)
            return []
        }
        guard let task = records[s].tasks.removeValue(forKey: id.rawValue) else {
            let issued = id.rawValue < records[s].nextTaskNumber
            self.record(.backgroundTaskEndIgnored(id, issued ? .alreadyEnded : .unknownTask), app, now)
            return []
        }
        if !task.handlerCalled { records[s].unwarnedTasks -= 1 }
        self.record(.backgroundTaskEnded(id), app, now)
        if records[s].state == .background { records[s].usedTasksThisPeriod = true }
        return [.releaseExpirationHandler(app, id)] + rearmTimers(app, at: now) + suspendIfIdle(app, at: now)
    }

    /// Arms exactly the timers the app's state and tasks call for, and announces the allowance.
    ///
    /// The foreground overrun timer is lazy: once armed it stays until it fires (it may then find that
    /// its task has ended and re-arm for the next oldest), so beginning and ending tasks in the
    /// foreground does not churn the clock.
    package mutating func rearmTimers(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        let record = (state: records[s].state, hasTasks: !records[s].tasks.isEmpty, since: records[s].backgroundSince,
                      spentBefore: records[s].spentBefore, announced: records[s].allowanceAnnounced,
                      unwarned: records[s].unwarnedTasks, armed: records[s].armed, incarnation: records[s].incarnation)
        var wanted = ArmedTimers()
        if record.state == .background, record.hasTasks, let since = record.since {
            let expiry = since + (policy.backgroundTaskAllowance - record.spentBefore)
            if !record.announced {
                records[s].allowanceAnnounced = true
                records[s].usedTasksThisPeriod = true
                self.record(.allowanceStarted(expiresAt: expiry), app, now)
            }
            wanted.expiry = expiry
            if record.unwarned > 0 { wanted.warning = max(now, expiry - policy.expirationWarningLead) }
        } else if record.state.isForeground, record.hasTasks {
            if let armed = record.armed.overrun {
                wanted.overrun = armed
            } else if let oldest = records[s].tasks.values.lazy.filter({ !$0.overrunReported }).map(\.begunAt).min() {
                wanted.overrun = max(now, oldest + policy.backgroundTaskAllowance)
            }
        }
        guard wanted != record.armed else { return [] }
        var effects: [Effect] = []
        let changes: [(AppTimer, BudgetInstant?, BudgetInstant?)] = [
            (.expirationWarning, record.armed.warning, wanted.warning), (.allowanceExpiry, record.armed.expiry, wanted.expiry),
            (.foregroundOverrun, record.armed.overrun, wanted.overrun),
        ]
        for (timer, old, new) in changes where old != new {
            effects.append(new.map { arm(timer, for: app, at: $0) } ?? disarm(timer, for: app))
        }
        records[s].armed = wanted
        return effects
    }

    /// Calls every open task's expiration handler that has not been called yet, in begin order.
    package mutating func callExpirationHandlers(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        records[s].armed.warning = nil
        guard records[s].state == .background else { return rearmTimers(app, at: now) }
        let incarnation = records[s].incarnation
        let numbers = records[s].tasks.compactMap { $0.value.handlerCalled ? nil : $0.key }.sorted()
        var due: [BackgroundTaskIdentifier] = []
        for number in numbers {
            records[s].tasks[number]?.handlerCalled = true
            records[s].unwarnedTasks -= 1
            let id = BackgroundTaskIdentifier(rawValue: number)
            self.record(.expirationHandlerCalled(id), app, now)
            due.append(id)
        }
        var effects = rearmTimers(app, at: now)
        if !due.isEmpty {
            records[s].inFlight += 1
            effects.append(.expirationHandlers(app, incarnation: incarnation, due))
        }
        return effects
    }

    /// Reports tasks begun in the foreground that have been open longer than the allowance.
    package mutating func reportForegroundOverruns(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        records[s].armed.overrun = nil
        guard records[s].state.isForeground else { return rearmTimers(app, at: now) }
        let allowance = policy.backgroundTaskAllowance
        let due = records[s].tasks.compactMap { entry in
            !entry.value.overrunReported && now - entry.value.begunAt >= allowance ? entry.key : nil
        }.sorted()
        for number in due {
            records[s].tasks[number]?.overrunReported = true
            self.record(.backgroundTaskOpenTooLong(BackgroundTaskIdentifier(rawValue: number)), app, now)
        }
        return rearmTimers(app, at: now)
    }
}
