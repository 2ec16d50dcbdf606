import BudgetTime

/// Running `BGTaskScheduler` tasks: starting them, their deadlines, expiry and
/// completion, and the device conditions processing tasks depend on. The rules of when requests run
/// are in DeviceCore+TaskRequests.swift.
extension DeviceCore {
    /// Launches or wakes the app and hands the task to its queue.
    mutating func startTask(_ request: TaskRequest, slot s: Int, at now: BudgetInstant) -> [Effect] {
        let app = records[s].manifest.id
        var effects: [Effect] = []
        switch records[s].state {
        case .notRunning:
            effects += applyValid(.launchInBackground(.backgroundTask), to: app, at: now,
                                  invariant: "requests run in the background only for apps that do not exit on suspend")
        case .suspended:
            effects += applyValid(.wake(.backgroundTask), to: app, at: now, invariant: "a suspended app can be woken")
        case .background, .inactive, .active: break
        }
        guard records[s].isRunning, records[s].state != .suspended else { return effects }
        lastScheduledTaskNumber += 1
        let task = ScheduledTaskRef(number: lastScheduledTaskNumber, identifier: request.identifier, kind: request.kind)
        if request.kind.isContinuedProcessing { continued.started(app, lastScheduledTaskNumber) }
        let number = lastScheduledTaskNumber
        records[s].process.modify {
            $0.taskRequests.running[number] = RunningScheduledTask(request, started: now)
            $0.taskRequests.taskStarted(request.kind, at: now)
        }
        let incarnation = records[s].handOff()
        record(.taskStarted(request.identifier), app, now)
        effects.append(.runScheduledTask(app, incarnation: incarnation, task))
        return effects + rearmTaskDeadline(s)
    }

    /// No launch handler was registered for a task that was started: a refresh or processing task
    /// crashes the app under ``BudgetPolicy/crashesWithoutLaunchHandler`` (`BGTaskScheduler`'s
    /// NSInternalInconsistencyException [S107]); otherwise, and for continued processing (a model
    /// assumption), it is dropped.
    package mutating func scheduledTaskUnhandled(app: AppID, task number: UInt64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard let running = records[s].process.modify({ $0.taskRequests.running.removeValue(forKey: number) }) ?? nil else { return [] }
        forgetContinued(app, number)
        if policy.crashesWithoutLaunchHandler, !running.kind.isContinuedProcessing, records[s].isRunning, !records[s].isTerminating {
            record(.launchHandlerMissing(running.identifier), app, now)
            return Decision([.releaseScheduledTask(app, task: number)]
                + applyValid(.kill(.uncaughtException), to: app, at: now, invariant: "an app running a task can be killed"))
        }
        record(.taskDropped(running.identifier), app, now)
        return Decision([.releaseScheduledTask(app, task: number)] + rearmTaskDeadline(s))
    }

    // MARK: Running tasks

    /// Arms the deadline timer for the earliest deadline of the app's running tasks, or disarms it.
    mutating func rearmTaskDeadline(_ s: Int) -> [Effect] {
        let app = records[s].manifest.id
        guard let next = records[s].running?.taskRequests.nextDeadline(policy) else {
            return records[s].timerTokens[.taskDeadline] == nil ? [] : [disarm(.taskDeadline, for: app)]
        }
        return [arm(.taskDeadline, for: app, at: next)]
    }

    /// The deadline timer fired: warn, expire, mark failed, or terminate, for every task that is due.
    /// A refresh whose runtime ends while the user has its app on screen does not terminate the app:
    /// it is marked completed unsuccessfully (model assumption; the sources say nothing of it).
    mutating func taskDeadlineFired(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        var effects: [Effect] = []
        for number in records[s].running?.taskRequests.running.keys.sorted() ?? [] {
            guard let running = records[s].running?.taskRequests.running[number],
                  let due = running.deadline(policy, allotmentStart: records[s].running?.taskRequests.allotmentStart), due <= now,
                  let action = running.actionAtDeadline else { continue }
            switch action {
            case .expire(let reason):
                effects += expire(number, slot: s, reason: reason, at: now).effects
            case .killApp where records[s].state.isForeground:
                // The user opened the app meanwhile: an app on screen is never terminated for a task;
                // the refresh is marked completed unsuccessfully instead (model assumption).
                effects += finish(number, slot: s, .expiredUnfinished, at: now)
            case .killApp:
                return effects + applyValid(.kill(.backgroundFetchNotCompleted), to: app, at: now,
                                            invariant: "an app running a task can be killed")
            case .finishUnfinished:
                effects += finish(number, slot: s, .expiredUnfinished, at: now)
            }
        }
        return effects + rearmTaskDeadline(s)
    }

    /// Expires a running task: its expiration handler is called on the app's queue. A task whose app
    /// set no expiration handler is marked completed unsuccessfully at the same instant, with no
    /// grace [S49].
    package mutating func expire(_ number: UInt64, slot s: Int, reason: TaskExpiryReason, at now: BudgetInstant) -> Decision<Void> {
        let hasHandler = records[s].running?.taskRequests.running[number]?.hasExpirationHandler ?? false
        guard let identifier = records[s].process.modify({ $0.taskRequests.expire(number, at: now) }) ?? nil else { return [] }
        let app = records[s].manifest.id
        guard hasHandler else {
            record(.taskExpired(identifier, reason), app, now)
            return Decision(finish(number, slot: s, .expiredUnfinished, at: now))
        }
        let incarnation = records[s].handOff()
        record(.taskExpired(identifier, reason), app, now)
        return [.scheduledTaskExpiration(app, incarnation: incarnation, task: number)]
    }

    /// The app set (`set == true`) or cleared the expiration handler of the running task with this
    /// number (`ScheduledTask.expirationHandler`); nothing happens once the task has ended.
    package mutating func scheduledTaskHandlerSet(app: AppID, task number: UInt64, set: Bool) -> Decision<Void> {
        records[slot(app)].process.modify { $0.taskRequests.running[number]?.hasExpirationHandler = set }
        return []
    }

    /// Ends a running task and suspends the app if nothing else holds it.
    private mutating func finish(_ number: UInt64, slot s: Int, _ completion: TaskCompletion, at now: BudgetInstant) -> [Effect] {
        guard let running = records[s].process.modify({ $0.taskRequests.running.removeValue(forKey: number) }) ?? nil else { return [] }
        let app = records[s].manifest.id
        record(.taskCompleted(running.identifier, completion), app, now)
        records[s].finishedWork = .scheduledTaskCompleted
        // A request resubmitted while this task ran may run now.
        // The handler usually captures the task: the shell drops both, breaking the cycle (outside the lock).
        var effects = [Effect.releaseScheduledTask(app, task: number)] + rearmTaskDeadline(s) + runDueTaskRequests(slot: s, at: now)
        if running.kind.isContinuedProcessing {
            // Room freed up: a queued request starts now, before the app is considered for suspension,
            // so that one of its own does not see it suspended and woken at the same instant.
            forgetContinued(app, number)
            effects += startQueuedContinuedTasks(at: now).effects
        }
        return effects + suspendIfIdle(app, at: now, reason: .scheduledTaskCompleted)
    }

    /// The app called `setTaskCompleted(success:)` on the task with this number and identifier.
    package mutating func scheduledTaskCompleted(app: AppID, task number: UInt64, identifier: String, success: Bool, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].running?.taskRequests.running[number] != nil else {
            record(.taskCompletionIgnored(identifier), app, now)
            return []
        }
        return Decision(finish(number, slot: s, success ? .success : .failure, at: now))
    }

    /// Expires every running processing task whose conditions no longer hold.
    private mutating func expireProcessingTasks(at now: BudgetInstant) -> [Effect] {
        var effects: [Effect] = []
        for s in records.indices {
            for number in records[s].running?.taskRequests.running.keys.sorted() ?? [] {
                if let reason = records[s].running?.taskRequests.running[number]?.lostConditions(conditions) {
                    effects += expire(number, slot: s, reason: reason, at: now).effects
                }
            }
            if records[s].running?.taskRequests.running.isEmpty == false { effects += rearmTaskDeadline(s) }
        }
        return effects
    }

    /// Changes the device's conditions: running processing tasks that lose theirs expire at once, and
    /// requests whose conditions now hold run.
    mutating func changeConditions(at now: BudgetInstant, _ change: (inout DeviceConditions) -> Void) -> [Effect] {
        let before = conditions
        change(&conditions)
        // Nothing changed (opening an app while the device is already in use): no app to look at.
        guard conditions != before else { return [] }
        if conditions.networkAvailable != before.networkAvailable { recordDevice(.network(conditions.networkAvailable), now) }
        if conditions.externalPower != before.externalPower { recordDevice(.externalPower(conditions.externalPower), now) }
        if conditions.deviceIdle != before.deviceIdle { recordDevice(.idle(conditions.deviceIdle), now) }
        return expireProcessingTasks(at: now) + runDueTaskRequests(at: now)
    }
}
