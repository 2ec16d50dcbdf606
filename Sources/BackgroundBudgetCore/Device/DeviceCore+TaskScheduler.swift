import BudgetClock

/// `BGTaskScheduler` (IOS-FACTS §5, Part 1): launch handlers registered during launch, pending requests
/// (1 refresh + 10 processing), and running tasks that hold the app in the background.
///
/// A request submitted while a task with its identifier runs waits (``TaskRequestBlocker/alreadyRunning``)
/// and is checked again the moment the running task ends.
///
/// A request that comes due while its app is in the foreground runs there: its handler is called at
/// once, and the task holds the app when it leaves the foreground.
///
/// Rules of the model:
/// - a refresh request runs at the first instant ≥ max(earliest begin date, submit time +
///   ``BudgetPolicy/minimumFetchInterval``) at which Background App Refresh is available and the user
///   has not killed the app; it gets ``BudgetPolicy/fetchRuntime``: the expiration handler is called
///   ``BudgetPolicy/expirationWarningLead`` before the end, and not completed by the end terminates the
///   app (`0x2182bad4`);
/// - a processing request runs once its earliest begin date has passed, while the device is idle, its
///   constraints hold, Background App Refresh is available and the user has not killed the app; it
///   expires when one of those stops holding or at ``BudgetPolicy/processingTaskRuntimeCap``, and is
///   marked completed unsuccessfully ``BudgetPolicy/expirationWarningLead`` after expiring.
extension DeviceCore {
    /// A submitted request not yet run.
    package struct PendingTaskRequest: Sendable {
        package var request: TaskRequest
        package var submittedAt: BudgetInstant
    }

    /// A task handed to (or about to be handed to) the app's launch handler. The shell keeps the
    /// ``ScheduledTask`` object the app sees, by the task's number.
    package struct RunningScheduledTask: Sendable {
        /// The request's identifier.
        package var identifier: String
        /// The kind of request that started it.
        package var kind: TaskRequest.Kind
        package var started: BudgetInstant
        /// Refresh: the expiration handler was called. Processing and continued processing: when the
        /// task expired.
        package var expiredAt: BudgetInstant?
        /// Progress as last reported (``ScheduledTask/updateProgress(completedUnitCount:totalUnitCount:)``).
        package var completed: Int64 = 0
        package var total: Int64 = 0
        /// What the system shows for a continued-processing task.
        package var title = ""
        package var subtitle = ""
    }

    // MARK: Registration and submission

    /// Registers a launch handler for an identifier. When it returns `true` the shell keeps the handler
    /// by identifier until the process ends (``Effect/dropQueue(_:)``); when it returns `false` the
    /// shell keeps nothing.
    package mutating func registerTask(
        _ identifier: String, finishingLaunch: Bool, app: AppID, at now: BudgetInstant
    ) -> (Bool, [Effect]) {
        let s = slot(app)
        func reject(_ why: TaskRegistrationRejection) {
            record(.taskRegistrationRejected(identifier, why), app, now)
        }
        guard records[s].state != .notRunning, records[s].pendingExit == nil else {
            reject(.notLaunching)
            return (false, [])
        }
        let manifest = records[s].manifest
        let continued = manifest.continuedProcessingPattern(matching: identifier) != nil
            || manifest.continuedProcessingPatterns.contains(identifier)
        guard continued || manifest.permittedTaskIdentifiers.contains(identifier) else {
            reject(.notPermitted)
            return (false, [])
        }
        // Continued-processing handlers may be registered at any time (IOS-FACTS §5 [S46]).
        guard finishingLaunch || continued else {
            reject(.notLaunching)
            return (false, [])
        }
        guard !records[s].registeredTaskIdentifiers.contains(identifier) else {
            reject(.alreadyRegistered)
            return (false, applyValid(.kill(.taskRegisteredTwice), to: app, at: now,
                                      invariant: "a running app that is not terminating can be killed"))
        }
        records[s].registeredTaskIdentifiers.insert(identifier)
        record(.taskRegistered(identifier), app, now)
        return (true, [])
    }

    /// The check `submit` makes, in Apple's order: permission, availability, pending limits.
    private func submitProblem(_ request: TaskRequest, slot s: Int) -> TaskSchedulerError.Cause? {
        let manifest = records[s].manifest
        let mode: BackgroundModes = request.kind.isProcessing ? .processing : .fetch
        guard manifest.permittedTaskIdentifiers.contains(request.identifier) else { return .identifierNotPermitted }
        guard manifest.backgroundModes.contains(mode) else { return .backgroundModeMissing(mode) }
        if !request.kind.isProcessing, !backgroundAppRefreshGates(slot: s).isEmpty {
            return .backgroundAppRefreshUnavailable
        }
        let others = records[s].pendingTaskRequests.filter {
            $0.request.identifier != request.identifier && $0.request.kind.isProcessing == request.kind.isProcessing
        }
        let limit = request.kind.isProcessing ? policy.pendingProcessingTaskRequestLimit : policy.pendingRefreshTaskRequestLimit
        if others.count >= limit { return .pendingLimitReached(limit) }
        return nil
    }

    package mutating func submitTask(_ request: TaskRequest, app: AppID, at now: BudgetInstant) -> (TaskSchedulerError?, [Effect]) {
        if case .continuedProcessing(let options) = request.kind {
            return submitContinuedProcessing(request, options, app: app, at: now)
        }
        let s = slot(app)
        if let cause = submitProblem(request, slot: s) {
            record(.taskSubmitRejected(request.identifier, cause.code), app, now)
            return (TaskSchedulerError(cause, identifier: request.identifier), [])
        }
        records[s].pendingTaskRequests.removeAll { $0.request.identifier == request.identifier }
        records[s].pendingTaskRequests.append(PendingTaskRequest(request: request, submittedAt: now))
        record(.taskSubmitted(request.identifier), app, now)
        return (nil, runDueTaskRequests(at: now))
    }

    package mutating func cancelTaskRequests(_ identifier: String?, app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        let cancelled = records[s].pendingTaskRequests.filter { identifier == nil || $0.request.identifier == identifier }
        records[s].pendingTaskRequests.removeAll { identifier == nil || $0.request.identifier == identifier }
        for pending in cancelled { record(.taskRequestCancelled(pending.request.identifier), app, now) }
        cancelQueuedContinuedRequests(of: app, identifier: identifier, at: now)
        return planTaskRequests(s, at: now)
    }

    // MARK: Deciding when requests run

    /// The instant before which a request may not run.
    private func notBefore(_ pending: PendingTaskRequest) -> BudgetInstant {
        let earliest = pending.request.earliestBeginDate ?? pending.submittedAt
        switch pending.request.kind {
        case .appRefresh: return max(earliest, pending.submittedAt + policy.minimumFetchInterval)
        case .processing: return earliest
        case .continuedProcessing: return pending.submittedAt   // the earliest begin date is ignored [S47]
        }
    }

    /// Every condition that keeps a pending request from running now, in a fixed order.
    package func blockers(_ pending: PendingTaskRequest, slot s: Int, at now: BudgetInstant) -> [TaskRequestBlocker] {
        var blockers: [TaskRequestBlocker] = []
        let record = records[s]
        blockers += backgroundAppRefreshGates(slot: s).map(TaskRequestBlocker.init)
        let start = notBefore(pending)
        if start > now { blockers.append(.notBefore(start)) }
        if let gate = userKillGate(slot: s, for: .content) { blockers.append(TaskRequestBlocker(gate)) }
        // An app that exits on suspend is never woken in the background; on screen it takes its tasks.
        if let gate = exitsOnSuspendGate(slot: s, exceptOnScreen: true) { blockers.append(TaskRequestBlocker(gate)) }
        if case .processing(let network, let power) = pending.request.kind {
            if !conditions.deviceIdle { blockers.append(.deviceNotIdle) }
            if power, !conditions.externalPower { blockers.append(.noExternalPower) }
            if network, !conditions.networkAvailable { blockers.append(.noNetwork) }
        }
        if record.runningTasks.values.contains(where: { $0.identifier == pending.request.identifier }) {
            blockers.append(.alreadyRunning)
        }
        return blockers
    }

    /// Runs every pending request whose conditions hold now, then arms each app's next check.
    package mutating func runDueTaskRequests(at now: BudgetInstant) -> [Effect] {
        records.indices.flatMap { runDueTaskRequests(slot: $0, at: now) }
    }

    /// Runs one app's pending requests whose conditions all hold, and plans its next check.
    package mutating func runDueTaskRequests(slot s: Int, at now: BudgetInstant) -> [Effect] {
        var effects: [Effect] = []
        var index = 0
        while index < records[s].pendingTaskRequests.count {
            let pending = records[s].pendingTaskRequests[index]
            guard blockers(pending, slot: s, at: now).isEmpty, records[s].pendingExit == nil else {
                index += 1
                continue
            }
            records[s].pendingTaskRequests.remove(at: index)
            effects += startTask(pending.request, slot: s, at: now)
        }
        return effects + planTaskRequests(s, at: now)
    }

    /// Arms the app's request timer for the next instant a pending request's date passes.
    private mutating func planTaskRequests(_ s: Int, at now: BudgetInstant) -> [Effect] {
        // A loop, not `map(notBefore)`: a method passed as a function value captures a copy of the core.
        var next: BudgetInstant?
        for pending in records[s].pendingTaskRequests {
            let start = notBefore(pending)
            if start > now, next.map({ start < $0 }) ?? true { next = start }
        }
        guard next != records[s].taskRequestTimerAt else { return [] }
        records[s].taskRequestTimerAt = next
        let app = records[s].manifest.id
        return [next.map { arm(.taskRequestDue, for: app, at: $0) } ?? disarm(.taskRequestDue, for: app)]
    }

    /// The request timer fired.
    package mutating func taskRequestTimerFired(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        records[slot(app)].taskRequestTimerAt = nil
        return runDueTaskRequests(at: now)
    }

    /// Launches or wakes the app and hands the task to its queue.
    package mutating func startTask(_ request: TaskRequest, slot s: Int, at now: BudgetInstant) -> [Effect] {
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
        guard records[s].state != .notRunning, records[s].state != .suspended else { return effects }
        lastScheduledTaskNumber += 1
        let task = ScheduledTaskRef(number: lastScheduledTaskNumber, identifier: request.identifier, kind: request.kind)
        var running = RunningScheduledTask(identifier: request.identifier, kind: request.kind, started: now)
        if case .continuedProcessing(let options) = request.kind {
            (running.title, running.subtitle) = (options.title, options.subtitle)
            continuedRunning.append((app, lastScheduledTaskNumber))
        }
        records[s].runningTasks[lastScheduledTaskNumber] = running
        records[s].inFlight += 1
        record(.taskStarted(request.identifier), app, now)
        effects.append(.runScheduledTask(app, incarnation: records[s].incarnation, task))
        return effects + rearmTaskDeadline(s)
    }

    /// The identifier under which the shell keeps the launch handler for a task the queue is about to
    /// run, if the process is the same and the task still runs; `nil` when none is registered.
    package func launchHandlerKey(app: AppID, task number: UInt64, incarnation: UInt64) -> String? {
        let s = slot(app)
        guard records[s].incarnation == incarnation, let running = records[s].runningTasks[number] else { return nil }
        return registeredHandlerKey(running.identifier, slot: s)
    }

    /// The identifier a handler is registered for that runs `identifier`: the identifier itself, or the
    /// wildcard entry a continued-processing identifier matches.
    package func registeredHandlerKey(_ identifier: String, slot s: Int) -> String? {
        if records[s].registeredTaskIdentifiers.contains(identifier) { return identifier }
        return records[s].manifest.continuedProcessingPattern(matching: identifier).flatMap {
            records[s].registeredTaskIdentifiers.contains($0) ? $0 : nil
        }
    }

    /// No launch handler was registered for a task that was started: it is dropped.
    package mutating func scheduledTaskUnhandled(app: AppID, task number: UInt64, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard let running = records[s].runningTasks.removeValue(forKey: number) else { return [] }
        forgetContinued(app, number)
        record(.taskDropped(running.identifier), app, now)
        return [.releaseScheduledTask(app, task: number)] + rearmTaskDeadline(s)
    }

    // MARK: Running tasks

    /// The next deadline of a running task; `nil` for a continued-processing task that has not expired
    /// (it has no time limit).
    private func deadline(_ running: RunningScheduledTask) -> BudgetInstant? {
        switch running.kind {
        case .appRefresh:
            return running.started + policy.fetchRuntime - (running.expiredAt == nil ? policy.expirationWarningLead : .zero)
        case .processing:
            if let expired = running.expiredAt { return expired + policy.expirationWarningLead }
            return running.started + policy.processingTaskRuntimeCap
        case .continuedProcessing:
            return running.expiredAt.map { $0 + policy.expirationWarningLead }
        }
    }

    package mutating func rearmTaskDeadline(_ s: Int) -> [Effect] {
        let app = records[s].manifest.id
        var next: BudgetInstant?
        for running in records[s].runningTasks.values {
            if let due = deadline(running), next.map({ due < $0 }) ?? true { next = due }
        }
        guard let next else {
            return records[s].timerTokens[.taskDeadline] == nil ? [] : [disarm(.taskDeadline, for: app)]
        }
        return [arm(.taskDeadline, for: app, at: next)]
    }

    /// The deadline timer fired: warn, expire, mark failed, or terminate, for every task that is due.
    package mutating func taskDeadlineFired(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        var effects: [Effect] = []
        for number in records[s].runningTasks.keys.sorted() {
            guard let running = records[s].runningTasks[number], let due = deadline(running), due <= now else { continue }
            switch (running.kind, running.expiredAt) {
            case (.appRefresh, nil):
                effects += expire(number, slot: s, reason: .runtimeEnding, at: now)
            case (.appRefresh, _?):
                return effects + applyValid(.kill(.backgroundFetchNotCompleted), to: app, at: now,
                                            invariant: "an app running a task can be killed")
            case (.processing, nil):
                effects += expire(number, slot: s, reason: .runtimeCap, at: now)
            case (.processing, _?), (.continuedProcessing, _?):
                effects += finish(number, slot: s, .expiredUnfinished, at: now)
            case (.continuedProcessing, nil):
                break   // no deadline
            }
        }
        return effects + rearmTaskDeadline(s)
    }

    /// Expires a running task: its expiration handler is called on the app's queue.
    package mutating func expire(_ number: UInt64, slot s: Int, reason: TaskExpiryReason, at now: BudgetInstant) -> [Effect] {
        guard let identifier = records[s].runningTasks[number]?.identifier else { return [] }
        let app = records[s].manifest.id
        records[s].runningTasks[number]?.expiredAt = now
        records[s].inFlight += 1
        record(.taskExpired(identifier, reason), app, now)
        return [.scheduledTaskExpiration(app, incarnation: records[s].incarnation, task: number)]
    }

    /// Ends a running task and suspends the app if nothing else holds it.
    private mutating func finish(_ number: UInt64, slot s: Int, _ completion: TaskCompletion, at now: BudgetInstant) -> [Effect] {
        guard let running = records[s].runningTasks.removeValue(forKey: number) else { return [] }
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
            effects += startQueuedContinuedTasks(at: now)
        }
        return effects + suspendIfIdle(app, at: now, reason: .scheduledTaskCompleted)
    }

    /// The app called `setTaskCompleted(success:)` on the task with this number and identifier.
    package mutating func scheduledTaskCompleted(app: AppID, task number: UInt64, identifier: String, success: Bool, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard records[s].runningTasks[number] != nil else {
            record(.taskCompletionIgnored(identifier), app, now)
            return []
        }
        return finish(number, slot: s, success ? .success : .failure, at: now)
    }

    /// Expires every running processing task whose conditions no longer hold.
    private mutating func expireProcessingTasks(at now: BudgetInstant) -> [Effect] {
        var effects: [Effect] = []
        for s in records.indices {
            for number in records[s].runningTasks.keys.sorted() {
                guard let running = records[s].runningTasks[number], running.expiredAt == nil,
                      case .processing(let network, let power) = running.kind else { continue }
                let reason: TaskExpiryReason? = if !conditions.deviceIdle { .deviceInUse }
                    else if power && !conditions.externalPower { .externalPowerLost }
                    else if network && !conditions.networkAvailable { .networkLost }
                    else { nil }
                if let reason { effects += expire(number, slot: s, reason: reason, at: now) }
            }
            if !records[s].runningTasks.isEmpty { effects += rearmTaskDeadline(s) }
        }
        return effects
    }

    /// Changes the device's conditions: running processing tasks that lose theirs expire at once, and
    /// requests whose conditions now hold run.
    package mutating func changeConditions(at now: BudgetInstant, _ change: (inout DeviceConditions) -> Void) -> [Effect] {
        let before = conditions
        change(&conditions)
        // Nothing changed (opening an app while the device is already in use): no app to look at.
        guard conditions != before else { return [] }
        if conditions.networkAvailable != before.networkAvailable { recordDevice(.network(conditions.networkAvailable), now) }
        if conditions.externalPower != before.externalPower { recordDevice(.externalPower(conditions.externalPower), now) }
        if conditions.deviceIdle != before.deviceIdle { recordDevice(.idle(conditions.deviceIdle), now) }
        return expireProcessingTasks(at: now) + runDueTaskRequests(at: now)
    }

    /// The process ended: its handlers and running tasks go with it (the shell drops the closures and
    /// task objects it kept for them when it performs ``Effect/dropQueue(_:)``).
    package mutating func endScheduledTasksOnExit(_ s: Int) {
        records[s].registeredTaskIdentifiers.removeAll()
        records[s].runningTasks.removeAll()
        let app = records[s].manifest.id
        if !continuedRunning.isEmpty { continuedRunning.removeAll { $0.app == app } }
    }

    /// Why a pending request has not run, or `nil` if the app has none with the identifier.
    package func explainTaskRequest(_ identifier: String, app: AppID, at now: BudgetInstant) -> TaskRequestExplanation? {
        let s = slot(app)
        if let explanation = explainQueuedContinuedRequest(identifier, app: app) { return explanation }
        guard let pending = records[s].pendingTaskRequests.first(where: { $0.request.identifier == identifier }) else {
            return nil
        }
        var list = blockers(pending, slot: s, at: now)
        if records[s].state != .notRunning, registeredHandlerKey(identifier, slot: s) == nil { list.append(.notRegistered) }
        return TaskRequestExplanation(app: app, request: pending.request, submittedAt: pending.submittedAt, blockers: list)
    }
}
