import BudgetTime

/// The device's lifecycle rules: events applied to an app, the transitions they make,
/// the bookkeeping of entering a state (foreground, allowance period, memory), process exit, settling
/// the app's queue and suspending an idle background app.
extension DeviceCore {
    /// Applies an event to one app. An event that brings the app to the foreground first sends the
    /// current foreground app away (only one app is in the foreground at a time).
    /// Nothing changes when it throws.
    package mutating func apply(_ event: LifecycleEvent, to app: AppID, at now: BudgetInstant) throws(LifecycleError) -> Decision<Void> {
        let s = slot(app)
        if records[s].isTerminating, !Self.isKill(event) {
            throw LifecycleError(event: event, state: records[s].state, problem: .terminating, app: app)
        }
        if case .suspend = event, !records[s].heldFileLocks.isEmpty {
            // Suspended while it holds a file lock, the process is killed instead [S22].
            return try apply(.kill(.fileLockHeldAtSuspension), to: app, at: now)
        }
        let transition: Lifecycle.Transition
        if let refused = refusedLaunch(event, slot: s) {
            transition = refused
        } else if records[s].manifest.usesScenes {
            // Moved out and back, so that a change to one scene copies none of the others.
            var scenes = SceneSet()
            swap(&scenes, &records[s].scenes)
            defer { swap(&scenes, &records[s].scenes) }
            transition = try sceneTransition(for: event, slot: s, scenes: &scenes)
        } else {
            do {
                transition = try Lifecycle.transition(from: records[s].state, on: event, exitsOnSuspend: exitsOnSuspend(slot: s))
            } catch {
                var error = error
                error.app = app
                throw error
            }
        }
        var effects: [Effect] = []
        if transition.to.isForeground, let current = foreground, current != app {
            effects += applyValid(.switchAway, to: current, at: now,
                                  invariant: "the foreground app (never terminating) can always be switched away from")
        }
        effects += commit(transition, of: app, cause: event, at: now)
        if event == .launch || event == .enterForeground {
            // The user opened an app: the device is not idle, and the app is no longer user-killed, so
            // its own requests may now run.
            effects += changeConditions(at: now) { $0.deviceIdle = false }
            effects += runDueTaskRequests(slot: slot(app), at: now)
        }
        return Decision(effects)
    }

    /// Applies an event the caller has established is valid: its failure would be a broken invariant of
    /// the core, so it traps (naming the invariant) instead of being swallowed.
    mutating func applyValid(_ event: LifecycleEvent, to app: AppID, at now: BudgetInstant, invariant: StaticString) -> [Effect] {
        do {
            return try apply(event, to: app, at: now).effects
        } catch {
            preconditionFailure("DeviceCore invariant broken (\(invariant)): \(error)")
        }
    }

    private static func isKill(_ event: LifecycleEvent) -> Bool {
        if case .kill = event { return true }
        return false
    }

    /// Applies a device-wide event to the foreground app.
    package mutating func applyToForeground(_ event: LifecycleEvent, at now: BudgetInstant) throws(LifecycleError) -> Decision<Void> {
        guard let app = foreground else {
            throw LifecycleError(event: event, state: .notRunning, problem: .noForegroundApp)
        }
        return try apply(event, to: app, at: now)
    }

    /// Records a transition and updates the app's state, timers and allowance. Steps after
    /// `applicationWillTerminate` wait until it returns (see ``settle(_:incarnation:at:)``).
    private mutating func commit(_ transition: Lifecycle.Transition, of app: AppID, cause: LifecycleEvent, at now: BudgetInstant) -> [Effect] {
        var steps = transition.steps
        var deferredExit: TerminationReason?
        if let index = steps.firstIndex(of: .callback(.willTerminate)), case .exit(let reason) = steps[index + 1] {
            deferredExit = reason
            steps.removeSubrange((index + 1)...)
        }
        var effects: [Effect] = []
        // The queue is resumed (or dropped, on exit) before the steps are queued on it: kept apart
        // from the start, so that nothing is reordered afterwards.
        var queueControl: [Effect] = []
        let wasSuspended = state(of: app) == .suspended
        // Whether the first step is the resume itself (a suspended app enters the background): it is
        // traced at once, before anything the app runs, and the shell shows it to the app as it
        // resumes the queue (`Effect.resumeQueue`), so work held while suspended, which runs first,
        // sees a running app ("The system resumes the app", then calls it [S3]).
        var resumes = false
        // A suspended app that dies is not resumed first: its queue is dropped (which bumps the epoch,
        // then resumes), so held work can never start on a real dispatch queue in between.
        if wasSuspended, transition.to != .notRunning, steps.contains(where: { if case .enter = $0 { true } else { false } }) {
            queueControl.append(.resumeQueue(app))
            resumes = steps.first == .enter(.background)
            // Notifications queued while suspended come first, right after the app resumes.
            if steps.first == .enter(.background), records[slot(app)].running?.notifications.queued.isEmpty == false {
                let queued = records[slot(app)].process.modify { $0.notifications.takeQueued() } ?? []
                steps.insert(contentsOf: queued.map(LifecycleStep.notification), at: 1)
            }
        }
        var state = self.state(of: app)
        // A delivery with callbacks is traced as the app's queue runs it (see `HeldSteps`).
        let holds = steps.contains { CallbackKey($0) != nil }
            && !steps.contains { if case .exit = $0 { true } else { false } }
        var held: [HeldSteps] = []
        var entries: [TraceEvent] = []
        for (index, step) in steps.enumerated() {
            let (stepEffects, stepEntries) = holdingEntries { core -> [Effect] in
                switch step {
                case .enter(let next):
                    core.record(.stateChange(next, cause: cause), app, now)
                    defer { state = next }
                    return core.enter(next, from: state, app: app, at: now)
                case .callback(let callback):
                    core.record(.callback(callback), app, now)
                case .exit(let reason):
                    queueControl.append(.dropQueue(app))
                    return core.exit(app, reason: reason, at: now)
                case .notification(let notification):
                    core.record(.notificationDelivered(notification), app, now)
                case .sceneCallback(let callback, let scene):
                    core.record(.sceneCallback(callback, scene: scene), app, now)
                case .sceneState:
                    break
                }
                return []
            }
            effects += stepEffects
            guard holds, !(resumes && index == 0) else {
                for entry in stepEntries { trace.append(entry, retention: retention) }
                continue
            }
            entries += stepEntries
            if let callback = CallbackKey(step) {
                held.append(HeldSteps(entries: entries, callback: callback))
                entries = []
            }
        }
        let s = slot(app)
        if !held.isEmpty { records[s].process.modify { $0.heldSteps += held } }
        if holds { holdsBehind.insert(app) }
        if let deferredExit { records[s].process.modify { $0.pendingExit = deferredExit } }
        let hasCallbacks = steps.contains {
            switch $0 {
            case .callback, .notification, .sceneCallback: true
            case .enter, .exit, .sceneState: false
            }
        }
        if cause == .launch || cause == .enterForeground {
            records[s].killedByUser = false
            records[s].modes.userOpened()
            records[s].inAppSwitcher = true
        }
        if cause == .killFromAppSwitcher {
            // Even an app that is no longer running is removed and marked.
            records[s].inAppSwitcher = false
            records[s].killedByUser = true
            cancelQueuedContinuedRequests(of: app, at: now)
        }
        guard !steps.isEmpty else { return queueControl + effects }
        if hasCallbacks { records[s].process.modify { $0.inFlight += 1 } }
        // Suspension alone is immediate: the shell suspends the queue rather than queueing a delivery.
        let delivery: Effect = steps == [.enter(.suspended)] ? .suspendQueue(app)
            : .deliver(Delivery(app: app, incarnation: records[s].incarnation, event: cause, steps: steps, settles: hasCallbacks))
        let launched = transition.from == .notRunning && records[s].isRunning
        let recheck = launched || memory.recheckDue
        memory.recheckDue = false
        // Events queued for the app are delivered after the steps: traced once the last callback returns.
        let (eventEffects, eventEntries) = holdingEntries { $0.deliverQueuedEvents(app, at: now) }
        if holds { entries += eventEntries } else { for entry in eventEntries { trace.append(entry, retention: retention) } }
        if !entries.isEmpty { records[s].process.modify { $0.heldSteps.append(HeldSteps(entries: entries, callback: nil)) } }
        let relief = recheck ? relieveMemoryPressure(at: now) : []
        // Suspended or ended: requests that waited for the app to leave its run start now.
        return queueControl + [delivery] + effects + eventEffects + relief
            + requestsAfterLeavingRun(slot: s, from: transition.from, at: now)
    }

    /// Bookkeeping for entering a state: foreground, allowance period, timers.
    private mutating func enter(_ next: ApplicationState, from previous: ApplicationState, app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        var record = records[s]
        var effects: [Effect] = []
        if previous == .notRunning {
            record.incarnation += 1
            record.process = .running(RunningProcess(state: next))
            record.finiteTasks.processLaunched()
            record.memory.footprint = Self.clampedFootprint(record.manifest.memoryFootprint)
            memory.inUse += record.memory.footprint
        }
        if next == .notRunning, previous != .notRunning { memory.inUse -= record.memory.footprint }
        if next.isForeground != previous.isForeground { record.memory.lastUsed = now }
        if next.isForeground || next == .notRunning { record.finishedWork = nil }
        if next == .notRunning {
            record.process = .notRunning   // ended by the exit step before it
        } else {
            record.process.modify { $0.state = next }
        }
        // Leaving the background (to the foreground, suspension or exit) ends the tasks' shared allotment [S58].
        if next != .background { record.process.modify { $0.taskRequests.allotmentStart = nil } }
        if next.isForeground {
            foreground = app
        } else if foreground == app {
            foreground = nil
        }
        switch next {
        case .background where previous != .background:
            record.finiteTasks.backgroundPeriodBegan(at: now)
        case .inactive, .active:
            record.finiteTasks.returnedToForeground(at: now, resetsAllowance: policy.allowanceResetsOnForeground)
        case .suspended, .notRunning:
            record.finiteTasks.backgroundPeriodEnded(at: now)
        case .background:
            break
        }
        records[s] = record
        purgeOrderChanged(s)
        effects += rearmTimers(app, at: now)
        return effects
    }

    /// The app's process ends: its tasks end with it, its timers stop, its queue is dropped.
    private mutating func exit(_ app: AppID, reason: TerminationReason, at now: BudgetInstant) -> [Effect] {
        let code = reason == .backgroundTaskExpired ? policy.backgroundTaskExpiryCode : reason.defaultCode
        let s = slot(app)
        // Steps its queue never reached never appear (they go with the process, below); the exit is
        // traced at once.
        holdsBehind.remove(app)
        record(.exit(reason, code: code), app, now)
        // Said once: the callback that was running never finishes, and nothing it does later counts.
        if let callback = records[s].process.running?.runningCallback {
            record(.killedMidCallback(callback), app, now)
        }
        // Likewise for a scene delegate's callback, which the watchdog times as the app delegate's.
        if case .scene(let callback, let scene) = records[s].process.running?.runningSceneCallback {
            record(.killedMidSceneCallback(callback, scene: scene), app, now)
        }
        // The shell drops the process's closures and task objects when it performs `dropQueue`.
        let ended = records[s].processEnded(at: now)
        continued.forgetAll(of: app)
        // The last warning of an episode was this app's: evaluate pressure again once it is gone.
        if ended.memoryWarningDropped, memory.warningSettled() { memory.recheckDue = true }
        records[s].scenes.processEnded(discardingSessions: reason == .userKill)
        if reason == .userKill {
            records[s].killedByUser = true
            // However the user killed it, its queued continued-processing requests go with it.
            cancelQueuedContinuedRequests(of: app, at: now)
        }
        // Everything of the process goes; the system's fetch plan for the app stays.
        let processTimers = AppTimer.allCases.filter { $0 != .fetchOpportunity && $0 != .taskRequestDue }
        for timer in processTimers { records[s].timerTokens[timer] = nil }
        // The caller queues `dropQueue` ahead of the transition's other effects.
        return processTimers.map { .disarm(app, $0) } + (ended.fetchCutShort ? planFetch(app, at: now) : [])
    }

    /// Called once the app's queue has run a delivery or handler batch that `settles`: finishes a
    /// pending termination, or suspends a background app that nothing keeps running.
    package mutating func settle(_ app: AppID, incarnation: UInt64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].incarnation == incarnation, records[s].inFlight > 0 else { return [] }
        records[s].process.modify { $0.inFlight -= 1 }
        guard records[s].inFlight == 0 else { return [] }
        if let reason = records[s].process.modify({ $0.takePendingExit() }) ?? nil {
            return Decision(commit(Lifecycle.Transition(from: records[s].state, to: .notRunning, steps: [.exit(reason), .enter(.notRunning)]),
                          of: app, cause: .terminate(reason), at: now))
        }
        return Decision(suspendIfIdle(app, at: now))
    }

    /// Suspends a background app that nothing keeps running: no open task, no activity, no event
    /// window, nothing running on its queue.
    mutating func suspendIfIdle(_ app: AppID, at now: BudgetInstant, reason: SuspensionReason? = nil) -> [Effect] {
        let s = slot(app)
        guard records[s].isIdleInBackground else {
            // Idle but for a piece of its code still running: suspended when that code returns
            // (`appCodeReturned`), for the reason found now.
            if let reason, records[s].isIdleInBackgroundButForCode { records[s].finishedWork = reason }
            return []
        }
        guard records[s].process.modify({ $0.modes.closeElapsedWindow(at: now) }) ?? true else { return [] }
        let reason = reason ?? records[s].finishedWork ?? (records[s].finiteTasks.usedThisPeriod ? .backgroundTasksEnded : .noBackgroundWork)
        records[s].finishedWork = nil
        records[s].lastSuspension = (now, reason)
        return applyValid(.suspend(reason), to: app, at: now,
                          invariant: "an idle background app that is not terminating can be suspended")
    }
}
