/// Finite background tasks: the allowance, expiration handlers, expiry and the assertion cap.
///
/// Rules (IOS-FACTS Part 1 and §3): the allowance is per app and shared by all its tasks [S17]; it runs
/// while the app is in the background and, by default, starts afresh on each return to the foreground;
/// expiration handlers are called ``BudgetPolicy/expirationWarningLead`` before it runs out, each once
/// [S14][S21]; tasks still open when it runs out terminate the app [S17][S22]; one assertion more than
/// ``BudgetPolicy/maxOpenBackgroundTasks`` terminates it too [S17].
extension DeviceCore {
    /// The outcome of `beginBackgroundTask`.
    enum BeginOutcome {
        case granted(BackgroundTaskIdentifier)
        case denied(BackgroundTaskDenial)
    }

    /// Time left in the current allowance; `nil` while the app is in the foreground (unbounded).
    func allowanceRemaining(_ app: AppID, at now: BudgetInstant) -> Duration? {
        guard let record = apps[app] else { return .zero }
        switch record.state {
        case .inactive, .active: return nil
        case .notRunning, .suspended: return .zero
        case .background:
            let used = record.spentBefore + (record.backgroundSince.map { now - $0 } ?? .zero)
            return max(.zero, policy.backgroundTaskAllowance - used)
        }
    }

    mutating func beginBackgroundTask(
        _ app: AppID, name: String?, expirationHandler: (@Sendable () -> Void)?, at now: BudgetInstant
    ) -> (BeginOutcome, [Effect]) {
        guard let record = apps[app] else { return (.denied(.notRunning), []) }
        func deny(_ denial: BackgroundTaskDenial) -> (BeginOutcome, [Effect]) {
            self.record(.backgroundTaskDenied(name: name, denial), app, now)
            return (.denied(denial), [])
        }
        if record.pendingExit != nil { return deny(.terminating) }
        switch record.state {
        case .notRunning: return deny(.notRunning)
        case .suspended: return deny(.suspended)
        case .inactive, .active, .background: break
        }
        if record.manifest.exitsOnSuspend { return deny(.exitsOnSuspend) }
        if record.state == .background, allowanceRemaining(app, at: now) == .zero { return deny(.allowanceSpent) }
        if record.tasks.count >= policy.maxOpenBackgroundTasks {
            self.record(.backgroundTaskDenied(name: name, .tooManyTasks), app, now)
            return (.denied(.tooManyTasks), (try? apply(.kill(.tooManyBackgroundTasks), to: app, at: now)) ?? [])
        }
        let number = record.nextTaskNumber
        apps[app]?.nextTaskNumber += 1
        apps[app]?.tasks[number] = OpenTask(name: name, begunAt: now, expirationHandler: expirationHandler)
        let id = BackgroundTaskIdentifier(rawValue: number)
        self.record(.backgroundTaskBegan(id, name: name), app, now)
        return (.granted(id), rearmTimers(app, at: now))
    }

    mutating func endBackgroundTask(_ app: AppID, _ id: BackgroundTaskIdentifier, at now: BudgetInstant) -> [Effect] {
        guard let record = apps[app] else { return [] }
        guard id != .invalid else {
            self.record(.backgroundTaskEndIgnored(id, .invalidIdentifier), app, now)
            return []
        }
        guard apps[app]?.tasks.removeValue(forKey: id.rawValue) != nil else {
            self.record(.backgroundTaskEndIgnored(id, id.rawValue < record.nextTaskNumber ? .alreadyEnded : .unknownTask), app, now)
            return []
        }
        self.record(.backgroundTaskEnded(id), app, now)
        if record.state == .background { apps[app]?.usedTasksThisPeriod = true }
        return rearmTimers(app, at: now) + suspendIfIdle(app, at: now)
    }

    /// Arms exactly the timers the app's state and tasks call for, and announces the allowance.
    mutating func rearmTimers(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        guard let record = apps[app] else { return [] }
        var wanted: [AppTimer: BudgetInstant] = [:]
        if record.state == .background, !record.tasks.isEmpty, let since = record.backgroundSince {
            let expiry = since + (policy.backgroundTaskAllowance - record.spentBefore)
            if !record.allowanceAnnounced {
                apps[app]?.allowanceAnnounced = true
                apps[app]?.usedTasksThisPeriod = true
                self.record(.allowanceStarted(expiresAt: expiry), app, now)
            }
            wanted[.allowanceExpiry] = expiry
            if record.tasks.values.contains(where: { !$0.handlerCalled }) {
                wanted[.expirationWarning] = max(now, expiry - policy.expirationWarningLead)
            }
        } else if record.state.isForeground,
                  let oldest = record.tasks.values.filter({ !$0.overrunReported }).map(\.begunAt).min() {
            wanted[.foregroundOverrun] = max(now, oldest + policy.backgroundTaskAllowance)
        }
        var effects: [Effect] = []
        for timer in [AppTimer.expirationWarning, .allowanceExpiry, .foregroundOverrun] where record.armed[timer] != wanted[timer] {
            if let instant = wanted[timer] {
                effects.append(.arm(app, timer, at: instant, incarnation: record.incarnation))
            } else {
                effects.append(.disarm(app, timer))
            }
        }
        apps[app]?.armed = wanted
        return effects
    }

    /// Calls every open task's expiration handler that has not been called yet, in begin order.
    mutating func callExpirationHandlers(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        apps[app]?.armed[.expirationWarning] = nil
        guard let record = apps[app], record.state == .background else { return rearmTimers(app, at: now) }
        var due: [(BackgroundTaskIdentifier, (@Sendable () -> Void)?)] = []
        for number in record.tasks.keys.sorted() where record.tasks[number]?.handlerCalled == false {
            apps[app]?.tasks[number]?.handlerCalled = true
            let id = BackgroundTaskIdentifier(rawValue: number)
            self.record(.expirationHandlerCalled(id), app, now)
            due.append((id, record.tasks[number]?.expirationHandler))
        }
        var effects = rearmTimers(app, at: now)
        if !due.isEmpty {
            apps[app]?.inFlight += 1
            effects.append(.expirationHandlers(app, incarnation: record.incarnation, due))
        }
        return effects
    }

    /// Reports tasks begun in the foreground that have been open longer than the allowance.
    mutating func reportForegroundOverruns(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        apps[app]?.armed[.foregroundOverrun] = nil
        guard let record = apps[app], record.state.isForeground else { return rearmTimers(app, at: now) }
        for number in record.tasks.keys.sorted() {
            guard let task = record.tasks[number], !task.overrunReported,
                  now - task.begunAt >= policy.backgroundTaskAllowance else { continue }
            apps[app]?.tasks[number]?.overrunReported = true
            self.record(.backgroundTaskOpenTooLong(BackgroundTaskIdentifier(rawValue: number)), app, now)
        }
        return rearmTimers(app, at: now)
    }
}
