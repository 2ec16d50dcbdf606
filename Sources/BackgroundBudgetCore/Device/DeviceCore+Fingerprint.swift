import BudgetTime

/// A hand-written fingerprint of the core's state, for the explorer's seen-set: every field the core
/// decides with, instants relative to `now`; the policy, the manifests, the retention and the trace
/// left out (the same in every state of a run, or history), as is the purge order (derived from the
/// records). Two states with equal fingerprints decide alike from then on, barring a 64-bit collision.
///
/// A field added to the core's state must be added here too: the explorer's tests check this
/// fingerprint against a reflection of the whole state over many explored states.
extension DeviceCore {
    /// The fingerprint of the state at `now`.
    /// - Parameter now: The instant instants are taken relative to.
    /// - Returns: 64 bits; equal for states that differ only by when they happen.
    package func fingerprint(relativeTo now: BudgetInstant) -> UInt64 {
        var h = StateHasher(now: now)
        for record in records { record.mix(into: &h) }
        h.mix(foreground?.rawValue ?? "")
        h.mix(memory.capacity ?? -1)
        h.mix(memory.inUse)
        h.mix(memory.pendingWarnings)
        h.mix(memory.warnedThisEpisode)
        h.mix(memory.recheckDue)
        h.mix(settings.backgroundAppRefresh)
        h.mix(settings.backgroundAppRefreshRestricted)
        h.mix(settings.lowPowerMode)
        h.mix(settings.criticallyLowBattery)
        h.mix(conditions.networkAvailable)
        h.mix(conditions.externalPower)
        h.mix(conditions.deviceIdle)
        h.mix(continued.queue.count)
        for queued in continued.queue {
            h.mix(queued.app.rawValue)
            queued.pending.mix(into: &h)
        }
        h.mix(continued.running.count)
        for running in continued.running {
            h.mix(running.app.rawValue)
            h.mix(running.number)
        }
        h.mix(continued.systemUnderLoad)
        h.mix(continued.supportsBackgroundGPU)
        h.mix(lastScheduledTaskNumber)
        h.mix(lastFetchNumber)
        h.mix(lastTimerToken)
        h.mix(held?.count ?? -1)
        h.mixUnordered(holdsBehind) { $0.mix($1.rawValue) }
        return h.value
    }
}

extension DeviceCore.AppRecord {
    /// Mixes the record's state in.
    func mix(into h: inout StateHasher) {
        h.mix(raw: state)
        h.mix(incarnation)
        h.mix(heldSteps.count)
        for steps in heldSteps {
            h.mix(describing: steps.callback)
            for entry in steps.entries { h.mix(describing: entry.kind) }
        }
        h.mix(lastSuspension?.time)
        h.mix(lastSuspension?.reason.rawValue ?? "")
        h.mix(killedByUser)
        h.mix(inAppSwitcher)
        h.mixUnordered(timerTokens) { h, entry in
            h.mix(AppTimer.allCases.firstIndex(of: entry.key) ?? -1)
            h.mix(entry.value)
        }
        h.mix(backgroundAppRefresh)
        h.mix(finishedWork?.rawValue ?? "")
        process.running.mix(into: &h)
        finiteTasks.mix(into: &h, tasks: running?.finiteTasks ?? FiniteTaskState.Running())
        modes.mix(into: &h, running: running?.modes ?? ModeState.Running())
        switch fetch.interval {
        case .never: h.mix(1 as UInt64)
        case .minimum: h.mix(2 as UInt64)
        case .atLeast(let interval): h.mix(interval)
        }
        h.mix(fetch.model.factor)
        h.mix(fetch.model.randomState)
        h.mix(running?.fetch?.number ?? 0)
        h.mix(running?.fetch?.started)
        h.mix(fetch.lastEnd)
        h.mix(fetch.nextAt)
        h.mixUnordered(running?.taskRequests.registered ?? []) { $0.mix($1) }
        h.mix(taskRequests.pending.count)
        for pending in taskRequests.pending { pending.mix(into: &h) }
        h.mix(taskRequests.timerAt)
        h.mixUnordered(running?.taskRequests.running ?? [:]) { h, entry in
            h.mix(entry.key)
            entry.value.mix(into: &h)
        }
        h.mix(running?.taskRequests.allotmentStart)
        h.mix(memory.footprint)
        h.mix(memory.lastUsed)
        h.mix(running?.memory.warningInFlight ?? false)
        let queued = running?.notifications.queued ?? []
        h.mix(queued.count)
        for notification in queued { h.mix(describing: notification) }
        h.mix(notifications.silentPushTimes.count)
        for time in notifications.silentPushTimes { h.mix(time) }
        h.mix(running?.notifications.pushAwaitingCompletion ?? false)
        h.mix(scenes.connected.count)
        for scene in scenes.connected {
            h.mix(scene.id.rawValue)
            h.mix(raw: scene.state)
        }
        h.mix(scenes.disconnected.count)
        for scene in scenes.disconnected { h.mix(scene.rawValue) }
        h.mix(scenes.created)
    }
}

extension DeviceCore.RunningProcess? {
    /// Mixes the running process in (or that there is none).
    func mix(into h: inout StateHasher) {
        guard let process = self else { return h.mix(false) }
        h.mix(true)
        h.mix(process.inFlight)
        h.mix(process.runningCallback?.rawValue ?? "")
        if case .scene(let callback, let scene) = process.runningSceneCallback { h.mix(callback.rawValue); h.mix(scene.rawValue) }
        h.mix(process.pendingExit?.rawValue ?? "")
        h.mix(process.launchDeadline)
        h.mix(process.resumeDeadline)
        h.mixUnordered(process.heldFileLocks) { $0.mix($1) }
    }
}

extension FiniteTaskState {
    /// Mixes the tasks (the process's, empty without one) and the allowance in.
    func mix(into h: inout StateHasher, tasks: FiniteTaskState.Running) {
        h.mixUnordered(tasks.open) { h, entry in
            h.mix(entry.key)
            h.mix(entry.value.name ?? "\u{0}")
            h.mix(entry.value.begunAt)
            h.mix(entry.value.handlerCalled)
            h.mix(entry.value.overrunReported)
        }
        h.mix(nextNumber)
        h.mix(backgroundSince)
        h.mix(spentBefore)
        h.mix(allowanceAnnounced)
        h.mix(usedThisPeriod)
        h.mix(tasks.unwarned)
        h.mix(tasks.armed.warning)
        h.mix(tasks.armed.expiry)
        h.mix(tasks.armed.overrun)
        h.mix(tasks.handlersDeadline)
    }
}

extension ModeState {
    /// Mixes the modes in: what the system keeps, and what the process (none: empty) has at work.
    func mix(into h: inout StateHasher, running: ModeState.Running) {
        h.mixUnordered(running.activities) { $0.mix(raw: $1) }
        h.mix(running.windowUntil)
        h.mix(monitorsSignificantChanges)
        h.mixUnordered(monitoredRegions) { $0.mix($1) }
        h.mix(running.keepAliveInterval)
        h.mix(running.keepAliveHandlersRunning)
        h.mix(running.keepAliveWindowUntil)
        h.mix(queuedEvents.count)
        for event in queuedEvents { h.mix(describing: event) }
        h.mix(running.voipPushesInFlight)
        h.mix(running.callsReported)
        h.mix(voipUnreportedPushes)
    }
}

extension PendingTaskRequest {
    /// Mixes the request in.
    func mix(into h: inout StateHasher) {
        h.mix(describing: request.kind)
        h.mix(request.identifier)
        h.mix(request.earliestBeginDate)
        h.mix(submittedAt)
    }
}

extension RunningScheduledTask {
    /// Mixes the running task in.
    func mix(into h: inout StateHasher) {
        h.mix(identifier)
        h.mix(describing: kind)
        h.mix(started)
        h.mix(expiredAt)
        h.mix(completed)
        h.mix(total)
        h.mix(title)
        h.mix(subtitle)
        h.mix(hasExpirationHandler)
    }
}
