import BudgetTime

/// `BGTaskScheduler`: launch handlers registered during launch, pending requests
/// (1 refresh + 10 processing), and running tasks that hold the app in the background.
///
/// A request submitted while a task with its identifier runs waits (``TaskRequestBlocker/alreadyRunning``)
/// and is checked again the moment the running task ends.
///
/// Refresh and processing tasks start only from the background: the system takes the app from
/// suspended or not running to running in the background for them [S87] (``startBlocker(slot:)``).
/// A request that comes due while its app is in the foreground, or running in the background for
/// other work, waits, and is checked again the moment the app is suspended or its process ends
/// (``requestsAfterLeavingRun(slot:from:at:)``). A task that comes due while the app runs a task of
/// the same launch joins it and shares its allotment [S58]. Continued-processing tasks are the
/// exception: the user starts them from the foreground (DeviceCore+ContinuedProcessing.swift).
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
    // MARK: Registration and submission

    /// Registers a launch handler for an identifier. When it returns `true` the shell keeps the handler
    /// by identifier until the process ends (``Effect/dropQueue(_:)``); when it returns `false` the
    /// shell keeps nothing. A permitted identifier registered after the app finished launching
    /// (`finishingLaunch` false; continued-processing identifiers excepted), or registered twice,
    /// crashes the app: the effects end its process.
    package mutating func registerTask(
        _ identifier: String, finishingLaunch: Bool, app: AppID, at now: BudgetInstant
    ) -> Decision<Bool> {
        let s = slot(app)
        func reject(_ why: TaskRegistrationRejection) {
            record(.taskRegistrationRejected(identifier, why), app, now)
        }
        guard records[s].isRunning, !records[s].isTerminating else {
            reject(.notLaunching)
            return Decision(false, effects: [])
        }
        let manifest = records[s].manifest
        let continued = manifest.continuedProcessingPattern(matching: identifier) != nil
            || manifest.continuedProcessingPatterns.contains(identifier)
        guard continued || manifest.permittedTaskIdentifiers.contains(identifier) else {
            reject(.notPermitted)
            return Decision(false, effects: [])
        }
        // Continued-processing handlers may be registered at any time ([S46]); any other after launch
        // is an uncaught NSInternalInconsistencyException: the app crashes ([S51][S98]).
        guard finishingLaunch || continued else {
            reject(.afterLaunch)
            return Decision(false, effects: applyValid(.kill(.uncaughtException), to: app, at: now,
                                      invariant: "a running app that is not terminating can be killed"))
        }
        guard records[s].process.modify({ $0.taskRequests.register(identifier) }) == true else {
            reject(.alreadyRegistered)
            return Decision(false, effects: applyValid(.kill(.taskRegisteredTwice), to: app, at: now,
                                      invariant: "a running app that is not terminating can be killed"))
        }
        record(.taskRegistered(identifier), app, now)
        return Decision(true, effects: [])
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
        let limit = request.kind.isProcessing ? policy.pendingProcessingTaskRequestLimit : policy.pendingRefreshTaskRequestLimit
        if records[s].taskRequests.pendingCount(alongside: request) >= limit { return .pendingLimitReached(limit) }
        return nil
    }

    /// Submits a request (`BGTaskScheduler.submit`): refused with the error Apple's method throws, or
    /// pending (and run at once if its conditions hold).
    package mutating func submitTask(_ request: TaskRequest, app: AppID, at now: BudgetInstant) -> Decision<TaskSchedulerError?> {
        if case .continuedProcessing(let options) = request.kind {
            return submitContinuedProcessing(request, options, app: app, at: now)
        }
        let s = slot(app)
        if let cause = submitProblem(request, slot: s) {
            record(.taskSubmitRejected(request.identifier, cause.code), app, now)
            return Decision(TaskSchedulerError(cause, identifier: request.identifier), effects: [])
        }
        // A running process with no handler for the identifier: `BGTaskScheduler` raises
        // NSInternalInconsistencyException inside `submit` and the app crashes [S105][S106]. Checked after
        // the errors `submit` returns (a model assumption: the order is not documented).
        if policy.crashesWithoutLaunchHandler, records[s].isRunning, !records[s].isTerminating,
           registeredHandlerKey(request.identifier, slot: s) == nil {
            record(.launchHandlerMissing(request.identifier), app, now)
            return Decision(nil, effects: applyValid(.kill(.uncaughtException), to: app, at: now,
                                                     invariant: "a running app that is not terminating can be killed"))
        }
        records[s].taskRequests.submit(request, at: now)
        record(.taskSubmitted(request.identifier), app, now)
        return Decision(nil, effects: runDueTaskRequests(at: now))
    }

    /// Cancels the app's pending requests with an identifier (all when `nil`), queued
    /// continued-processing requests included.
    package mutating func cancelTaskRequests(_ identifier: String?, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        for pending in records[s].taskRequests.cancel(identifier) { record(.taskRequestCancelled(pending.request.identifier), app, now) }
        cancelQueuedContinuedRequests(of: app, identifier: identifier, at: now)
        return Decision(planTaskRequests(s, at: now))
    }

    // MARK: Deciding when requests run

    /// Every condition that keeps a pending request from running now, in a fixed order.
    func blockers(_ pending: PendingTaskRequest, slot s: Int, at now: BudgetInstant) -> [TaskRequestBlocker] {
        var blockers: [TaskRequestBlocker] = []
        blockers += discretionaryGates(slot: s).map(TaskRequestBlocker.init)
        let start = pending.notBefore(policy)
        if start > now { blockers.append(.notBefore(start)) }
        if let gate = userKillGate(slot: s, for: .content) { blockers.append(TaskRequestBlocker(gate)) }
        // An app that exits on suspend is never woken in the background, and on screen no task starts.
        if let gate = exitsOnSuspendGate(slot: s) { blockers.append(TaskRequestBlocker(gate)) }
        if let blocker = startBlocker(slot: s) { blockers.append(blocker) }
        if case .processing(let network, let power) = pending.request.kind {
            if !conditions.deviceIdle { blockers.append(.deviceNotIdle) }
            if power, !conditions.externalPower { blockers.append(.noExternalPower) }
            if network, !conditions.networkAvailable { blockers.append(.noNetwork) }
        }
        if records[s].running?.taskRequests.isRunning(pending.request.identifier) == true {
            blockers.append(.alreadyRunning)
        }
        return blockers
    }

    /// What keeps the app from being handed a refresh or processing task now: the foreground, or a
    /// background run that is not a launch for tasks; `nil` when the app is suspended or not running
    /// (the system wakes or launches it [S87]), or runs tasks of this background run, which a due
    /// task joins [S58].
    func startBlocker(slot s: Int) -> TaskRequestBlocker? {
        switch records[s].state {
        case .inactive, .active: .appInForeground
        case .background: records[s].running?.taskRequests.allotmentStart == nil ? .appRunningInBackground : nil
        case .suspended, .notRunning: nil
        }
    }

    /// The app has just been suspended or its process has ended (`from` is the state it left): its
    /// requests that waited for that run now, waking or launching it [S87]. Nothing for any other move.
    mutating func requestsAfterLeavingRun(slot s: Int, from previous: ApplicationState, at now: BudgetInstant) -> [Effect] {
        let state = records[s].state
        guard state == .suspended || state == .notRunning, previous != state, previous != .notRunning,
              records[s].taskRequests.pending.isEmpty == false else { return [] }
        return runDueTaskRequests(slot: s, at: now)
    }

    /// Runs every pending request whose conditions hold now, then arms each app's next check.
    mutating func runDueTaskRequests(at now: BudgetInstant) -> [Effect] {
        records.indices.flatMap { runDueTaskRequests(slot: $0, at: now) }
    }

    /// Runs one app's pending requests whose conditions all hold, and plans its next check.
    mutating func runDueTaskRequests(slot s: Int, at now: BudgetInstant) -> [Effect] {
        var effects: [Effect] = []
        var index = 0
        while index < records[s].taskRequests.pending.count {
            let pending = records[s].taskRequests.pending[index]
            guard blockers(pending, slot: s, at: now).isEmpty, !records[s].isTerminating else {
                index += 1
                continue
            }
            records[s].taskRequests.pending.remove(at: index)
            effects += startTask(pending.request, slot: s, at: now)
        }
        return effects + planTaskRequests(s, at: now)
    }

    /// Arms the app's request timer for the next instant a pending request's date passes.
    private mutating func planTaskRequests(_ s: Int, at now: BudgetInstant) -> [Effect] {
        let next = records[s].taskRequests.nextDate(after: now, policy)
        guard records[s].taskRequests.moveTimer(to: next) else { return [] }
        let app = records[s].manifest.id
        return [next.map { arm(.taskRequestDue, for: app, at: $0) } ?? disarm(.taskRequestDue, for: app)]
    }

    /// The request timer fired.
    mutating func taskRequestTimerFired(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        records[slot(app)].taskRequests.timerAt = nil
        return runDueTaskRequests(at: now)
    }

    /// The identifier under which the shell keeps the launch handler for a task the queue is about to
    /// run, if the process is the same and the task still runs; `nil` when none is registered.
    package func launchHandlerKey(app: AppID, task number: UInt64, incarnation: UInt64) -> String? {
        let s = slot(app)
        guard records[s].incarnation == incarnation, let running = records[s].running?.taskRequests.running[number] else { return nil }
        return registeredHandlerKey(running.identifier, slot: s)
    }

    /// The identifier a handler is registered for that runs `identifier`: the identifier itself, or the
    /// wildcard entry a continued-processing identifier matches.
    func registeredHandlerKey(_ identifier: String, slot s: Int) -> String? {
        records[s].running?.taskRequests.handlerKey(for: identifier, manifest: records[s].manifest)
    }

    /// Why a pending request has not run, or `nil` if the app has none with the identifier.
    package func explainTaskRequest(_ identifier: String, app: AppID, at now: BudgetInstant) -> TaskRequestExplanation? {
        let s = slot(app)
        if let explanation = explainQueuedContinuedRequest(identifier, app: app) { return explanation }
        guard let pending = records[s].taskRequests.pending.first(where: { $0.request.identifier == identifier }) else {
            return nil
        }
        var list = blockers(pending, slot: s, at: now)
        if records[s].isRunning, registeredHandlerKey(identifier, slot: s) == nil { list.append(.notRegistered) }
        return TaskRequestExplanation(app: app, request: pending.request, submittedAt: pending.submittedAt, blockers: list)
    }
}
