import BudgetTime

/// Continued-processing tasks (`BGContinuedProcessingTask`, iOS 26; [S46][S47][S53][S54][S55]).
///
/// Rules of the model:
/// - the identifier must match a wildcard entry of `BGTaskSchedulerPermittedIdentifiers` that starts
///   with the app's bundle identifier (`com.example.photos.export.*`); no background mode is needed;
///   the launch handler may be registered at any time, for the identifier or for the wildcard entry;
/// - the request is submitted from the foreground (else `notPermitted`); its earliest begin date is
///   ignored; a request for the GPU is refused on a device without background GPU support;
/// - it starts at once when fewer than ``BudgetPolicy/continuedProcessingTaskLimit`` such tasks run
///   on the device and the system is not under load; otherwise the `fail` strategy throws
///   `immediateRunIneligible` and the `queue` strategy puts it at the back of one device-wide queue,
///   started first in first out as room frees up (checked after every decision of the system);
/// - the running task holds the app in the background with no time limit; it expires (expiration
///   handler) when the user cancels it or the system reclaims resources — the task with the least
///   reported progress first — and is marked completed unsuccessfully
///   ``BudgetPolicy/expirationWarningLead`` later if the app has not completed it;
/// - removing the app from the app switcher cancels its queued requests; its running tasks end with
///   the process, without an expiration handler. Background App Refresh does not gate these tasks:
///   the user started them.
extension DeviceCore {
    /// Whether a continued-processing task may start now.
    private var canStartContinuedTask: Bool {
        continued.canStart(limit: policy.continuedProcessingTaskLimit)
    }

    /// Submits a continued-processing request: starts it, queues it, or refuses it.
    mutating func submitContinuedProcessing(
        _ request: TaskRequest, _ options: ContinuedProcessingOptions, app: AppID, at now: BudgetInstant
    ) -> Decision<TaskSchedulerError?> {
        let s = slot(app)
        let cause: TaskSchedulerError.Cause? =
            if records[s].manifest.continuedProcessingPattern(matching: request.identifier) == nil { .identifierNotPermitted }
            else if !records[s].state.isForeground { .notInForeground }
            else if options.requiresGPU, !continued.supportsBackgroundGPU { .resourceUnavailable }
            else if !canStartContinuedTask, options.strategy == .fail { .cannotStartNow }
            else { nil }
        if let cause {
            record(.taskSubmitRejected(request.identifier, cause.code), app, now)
            return Decision(TaskSchedulerError(cause, identifier: request.identifier), effects: [])
        }
        // The system ignores the earliest begin date of these requests [S47].
        var request = request
        request.earliestBeginDate = nil
        continued.removeQueued(of: app, request.identifier)
        record(.taskSubmitted(request.identifier), app, now)
        guard canStartContinuedTask else {
            continued.enqueue(QueuedContinuedRequest(app: app, pending: PendingTaskRequest(request: request, submittedAt: now)))
            record(.taskQueued(request.identifier), app, now)
            return Decision(nil, effects: [])
        }
        return Decision(nil, effects: startTask(request, slot: s, at: now))
    }

    /// Starts queued requests, first in first out, while there is room. The shell calls it after every
    /// decision; it costs nothing while the queue is empty.
    package mutating func startQueuedContinuedTasks(at now: BudgetInstant) -> Decision<Void> {
        guard !continued.queue.isEmpty, !continued.systemUnderLoad else { return [] }
        var effects: [Effect] = []
        var index = 0
        while index < continued.queue.count, canStartContinuedTask {
            let queued = continued.queue[index]
            let s = slot(queued.app)
            // An app that is terminating, or that exits on suspend and is not on screen, cannot take it now.
            if records[s].isTerminating || exitsOnSuspendGate(slot: s, exceptOnScreen: true) != nil {
                index += 1
                continue
            }
            continued.queue.remove(at: index)
            let before = lastScheduledTaskNumber
            effects += startTask(queued.pending.request, slot: s, at: now)
            if lastScheduledTaskNumber == before {
                // The app could not take it (its launch was undone at once, by memory pressure say):
                // the request stays where it was, for the next decision.
                continued.queue.insert(queued, at: min(index, continued.queue.count))
                index += 1
            }
        }
        return Decision(effects)
    }

    /// Cancels an app's queued requests (all, or those with an identifier).
    mutating func cancelQueuedContinuedRequests(of app: AppID, identifier: String? = nil, at now: BudgetInstant) {
        guard !continued.queue.isEmpty else { return }
        for queued in continued.removeQueued(of: app, identifier) {
            record(.taskRequestCancelled(queued.pending.request.identifier), app, now)
        }
    }

    /// A task ended: it no longer counts against the limit.
    mutating func forgetContinued(_ app: AppID, _ number: UInt64) {
        continued.forget(app, number)
    }

    /// The app reported progress.
    package mutating func scheduledTaskProgress(app: AppID, task number: UInt64, completed: Int64, total: Int64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard let identifier = records[s].process.modify({ $0.taskRequests.updateProgress(number, completed: completed, total: total) }) ?? nil else { return [] }
        record(.taskProgress(identifier, completed: completed, total: total), app, now)
        return []
    }

    /// The app changed the title and subtitle the system shows.
    package mutating func scheduledTaskTitle(app: AppID, task number: UInt64, title: String, subtitle: String) -> Decision<Void> {
        records[slot(app)].process.modify { $0.taskRequests.retitle(number, title: title, subtitle: subtitle) }
        return []
    }

    /// The user cancels a continued-processing task in the system's interface: a running task
    /// expires, a queued request is cancelled.
    package mutating func userCancelContinuedTask(_ identifier: String, app: AppID, at now: BudgetInstant) -> Decision<TaskLookupError?> {
        let s = slot(app)
        let running = records[s].running?.taskRequests.continuedTasks(identifier) ?? []
        if let number = running.first(where: { records[s].running?.taskRequests.running[$0]?.expiredAt == nil }) {
            return Decision(nil, effects: expire(number, slot: s, reason: .cancelledByUser, at: now).effects + rearmTaskDeadline(s))
        }
        if !running.isEmpty { return Decision(nil, effects: []) }   // already expiring: nothing more to do
        if continued.position(of: app, identifier) != nil {
            cancelQueuedContinuedRequests(of: app, identifier: identifier, at: now)
            return Decision(nil, effects: [])
        }
        let known = continuedActivities().filter { $0.app == app }.map(\.identifier)
        return Decision(TaskLookupError(app: app, identifier: identifier, known: known), effects: [])
    }

    /// The system reclaims resources: the running continued-processing task with the least progress
    /// (the latest started among equals) expires.
    package mutating func reclaimContinuedProcessing(at now: BudgetInstant) -> Decision<ContinuedProcessingActivity?> {
        var chosen: (app: AppID, number: UInt64, fraction: Double)?
        for (app, number) in continued.running {
            guard let running = records[slot(app)].running?.taskRequests.running[number], running.expiredAt == nil else { continue }
            let fraction = running.fractionCompleted
            if chosen.map({ fraction <= $0.fraction }) ?? true { chosen = (app, number, fraction) }
        }
        guard let chosen else { return Decision(nil, effects: []) }
        let s = slot(chosen.app)
        // Taken before expiring: a task without an expiration handler ends at once [S49].
        var reclaimed = records[s].running?.taskRequests.running[chosen.number]
        reclaimed?.expiredAt = now
        let effects = expire(chosen.number, slot: s, reason: .resourcesReclaimed, at: now).effects + rearmTaskDeadline(s)
        return Decision(reclaimed.map { $0.activity(app: chosen.app) }, effects: effects)
    }

    /// What the user sees: running tasks in start order, then queued requests in queue order.
    package func continuedActivities() -> [ContinuedProcessingActivity] {
        var activities: [ContinuedProcessingActivity] = []
        for (app, number) in continued.running {
            if let running = records[slot(app)].running?.taskRequests.running[number] { activities.append(running.activity(app: app)) }
        }
        for (position, queued) in continued.queue.enumerated() {
            guard case .continuedProcessing(let options) = queued.pending.request.kind else { continue }
            activities.append(ContinuedProcessingActivity(
                app: queued.app, identifier: queued.pending.request.identifier, title: options.title, subtitle: options.subtitle,
                phase: .queued(position: position), completedUnitCount: 0, totalUnitCount: 0))
        }
        return activities
    }

    /// The app's queued requests, in queue order.
    package func queuedContinuedRequests(of app: AppID) -> [TaskRequest] {
        continued.queue.filter { $0.app == app }.map(\.pending.request)
    }

    /// Why a queued continued-processing request has not started, or `nil` if none has the identifier.
    func explainQueuedContinuedRequest(_ identifier: String, app: AppID) -> TaskRequestExplanation? {
        guard let position = continued.position(of: app, identifier) else {
            return nil
        }
        let queued = continued.queue[position]
        var blockers: [TaskRequestBlocker] = []
        if continued.systemUnderLoad { blockers.append(.systemUnderLoad) }
        if continued.running.count >= policy.continuedProcessingTaskLimit {
            blockers.append(.continuedProcessingLimit(policy.continuedProcessingTaskLimit))
        }
        if position > 0 { blockers.append(.queuedBehind(position)) }
        let s = slot(app)
        if let gate = exitsOnSuspendGate(slot: s, exceptOnScreen: true) { blockers.append(TaskRequestBlocker(gate)) }
        if records[s].isTerminating { blockers.append(.appTerminating) }
        if records[s].isRunning, registeredHandlerKey(identifier, slot: s) == nil { blockers.append(.notRegistered) }
        return TaskRequestExplanation(app: app, request: queued.pending.request, submittedAt: queued.pending.submittedAt, blockers: blockers)
    }
}
