import BudgetClock

/// The device's pure core: every app's authoritative state, its finite tasks and allowance, which app
/// is in the foreground, and the trace. No clocks, queues, locks, closures or object references: callers
/// pass `now` and perform the returned ``Effect``s in order. The app's closures (expiration, launch and
/// keep-alive handlers) and the ``ScheduledTask`` objects live in the shell, keyed by the identifiers
/// the effects name; the core keeps only what it decides with, as values.
package struct DeviceCore: Sendable {
    package let policy: BudgetPolicy
    /// Every installed app's record, in installation order; ``slot(_:)`` finds one by identifier.
    package var records: [AppRecord] = []
    private var slots: [AppID: Int] = [:]
    package private(set) var foreground: AppID?
    package var trace = Trace()

    /// How much of the trace to keep.
    package let retention: TraceRetention
    /// The memory the apps in memory may use together, in bytes; `nil` for no limit.
    package var memoryCapacity: Int?
    /// Memory warnings delivered and not yet handled in the current episode of pressure.
    package var pendingMemoryWarnings = 0
    /// Whether the current episode of pressure has sent its memory warnings.
    package var warnedThisEpisode = false
    /// The bytes the apps in memory use together (kept up to date; see `memoryInUseRecomputed`).
    package var memoryInUse = 0
    /// Device-wide settings: Background App Refresh, Low Power Mode.
    package var settings = DeviceSettings()
    /// Network, power and idleness, for processing tasks.
    package var conditions = DeviceConditions()
    /// The last `BGTaskScheduler` task number handed out.
    package var lastScheduledTaskNumber: UInt64 = 0
    /// Continued-processing requests waiting for the system to start them, first in first out.
    package var continuedQueue: [QueuedContinuedRequest] = []
    /// The running continued-processing tasks, in start order (at most the policy's limit).
    package var continuedRunning: [(app: AppID, number: UInt64)] = []
    /// While set, no continued-processing task starts.
    package var systemUnderLoad = false
    /// Whether the device supports background GPU use (`BGTaskScheduler.supportedResources`).
    package var supportsBackgroundGPU = false
    /// The last background fetch number handed out.
    package var lastFetchNumber: UInt64 = 0
    /// The last timer token handed out.
    private var lastTimerToken: UInt64 = 0
    /// Set when an exit ends an episode's last pending memory warning.
    package var memoryRecheckDue = false

    package init(policy: BudgetPolicy, retention: TraceRetention = .all) {
        self.policy = policy
        self.retention = retention
    }

    /// Adds an app in the not-running state.
    package mutating func install(_ manifest: AppManifest) throws(InstallError) {
        if let problem = manifest.id.validationProblem {
            throw InstallError(app: manifest.id, problem: .invalidBundleIdentifier(problem))
        }
        guard slots[manifest.id] == nil else { throw InstallError(app: manifest.id, problem: .alreadyInstalled) }
        slots[manifest.id] = records.count
        var record = AppRecord(manifest: manifest)
        record.fetchModel = FetchModel(seed: policy.fetchSeed &+ UInt64(records.count) &* 0x9E37_79B9_7F4A_7C15, factors: policy.fetchModelFactors)
        records.append(record)
    }

    /// Where an installed app's record is. The system only hands the core apps it installed, so an
    /// unknown identifier is a broken invariant.
    package func slot(_ app: AppID) -> Int {
        guard let slot = slots[app] else {
            preconditionFailure("BackgroundSystem handed the core an app it never installed: \(app)")
        }
        return slot
    }

    /// The authoritative state of an app.
    package func state(of app: AppID) -> ApplicationState {
        slots[app].map { records[$0].state } ?? .notRunning
    }

    package mutating func record(_ kind: TraceEvent.Kind, _ app: AppID, _ now: BudgetInstant) {
        trace.append(TraceEvent(time: now, app: app, kind: kind), retention: retention)
    }

    /// Records a device-wide change on ``AppID/device``.
    package mutating func recordDevice(_ change: DeviceChange, _ now: BudgetInstant) {
        record(.deviceChanged(change), .device, now)
    }

    // MARK: Lifecycle

    /// Applies an event to one app. An event that brings the app to the foreground first sends the
    /// current foreground app away (only one app is in the foreground at a time).
    /// Nothing changes when it throws.
    package mutating func apply(_ event: LifecycleEvent, to app: AppID, at now: BudgetInstant) throws(LifecycleError) -> [Effect] {
        let s = slot(app)
        if records[s].pendingExit != nil, !Self.isKill(event) {
            throw LifecycleError(event: event, state: records[s].state, problem: .terminating, app: app)
        }
        let transition: Lifecycle.Transition
        do {
            transition = try Lifecycle.transition(from: records[s].state, on: event, exitsOnSuspend: records[s].manifest.exitsOnSuspend)
        } catch {
            var error = error
            error.app = app
            throw error
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
        return effects
    }

    /// Applies an event the caller has established is valid: its failure would be a broken invariant of
    /// the core, so it traps (naming the invariant) instead of being swallowed.
    package mutating func applyValid(_ event: LifecycleEvent, to app: AppID, at now: BudgetInstant, invariant: StaticString) -> [Effect] {
        do {
            return try apply(event, to: app, at: now)
        } catch {
            preconditionFailure("DeviceCore invariant broken (\(invariant)): \(error)")
        }
    }

    private static func isKill(_ event: LifecycleEvent) -> Bool {
        if case .kill = event { return true }
        return false
    }

    /// Applies a device-wide event to the foreground app.
    package mutating func applyToForeground(_ event: LifecycleEvent, at now: BudgetInstant) throws(LifecycleError) -> [Effect] {
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
        let wasSuspended = state(of: app) == .suspended
        // A suspended app that dies is not resumed first: its queue is dropped (which bumps the epoch,
        // then resumes), so held work can never start on a real dispatch queue in between.
        if wasSuspended, transition.to != .notRunning, steps.contains(where: { if case .enter = $0 { true } else { false } }) {
            effects.append(.resumeQueue(app))
            // Notifications queued while suspended come first, right after the app resumes (IOS-FACTS §9).
            let queued = records[slot(app)].queuedNotifications
            if steps.first == .enter(.background), !queued.isEmpty {
                records[slot(app)].queuedNotifications.removeAll()
                steps.insert(contentsOf: queued.map(LifecycleStep.notification), at: 1)
            }
        }
        var state = self.state(of: app)
        for step in steps {
            switch step {
            case .enter(let next):
                record(.stateChange(next, cause: cause), app, now)
                effects += enter(next, from: state, app: app, at: now)
                state = next
            case .callback(let callback):
                record(.callback(callback), app, now)
            case .exit(let reason):
                effects += exit(app, reason: reason, at: now)
            case .notification(let notification):
                record(.notificationDelivered(notification), app, now)
            }
        }
        let s = slot(app)
        records[s].pendingExit = deferredExit
        let hasCallbacks = steps.contains {
            switch $0 {
            case .callback, .notification: true
            case .enter, .exit: false
            }
        }
        if cause == .launch || cause == .enterForeground {
            records[s].killedByUser = false
            records[s].inAppSwitcher = true
        }
        if cause == .killFromAppSwitcher {
            // Even an app that is no longer running is removed and marked (IOS-FACTS §1).
            records[s].inAppSwitcher = false
            records[s].killedByUser = true
            cancelQueuedContinuedRequests(of: app, at: now)
        }
        guard !steps.isEmpty else { return effects }
        if hasCallbacks { records[s].inFlight += 1 }
        // The queue is resumed (or dropped, on exit) before the steps are queued on it.
        let queueEffects = effects.filter(\.isQueueControl)
        // Suspension alone is immediate: the shell suspends the queue rather than queueing a delivery.
        let delivery: Effect = steps == [.enter(.suspended)] ? .suspendQueue(app)
            : .deliver(Delivery(app: app, incarnation: records[s].incarnation, event: cause, steps: steps, settles: hasCallbacks))
        let launched = transition.from == .notRunning && records[s].state != .notRunning
        let recheck = launched || memoryRecheckDue
        memoryRecheckDue = false
        return queueEffects + [delivery] + effects.filter { !$0.isQueueControl } + deliverQueuedEvents(app, at: now)
            + (recheck ? relieveMemoryPressure(at: now) : [])
    }

    /// Bookkeeping for entering a state: foreground, allowance period, timers.
    private mutating func enter(_ next: ApplicationState, from previous: ApplicationState, app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        var record = records[s]
        var effects: [Effect] = []
        if previous == .notRunning {
            record.incarnation += 1
            record.spentBefore = .zero
            record.footprint = Self.clampedFootprint(record.manifest.memoryFootprint)
            memoryInUse += record.footprint
        }
        if next == .notRunning, previous != .notRunning { memoryInUse -= record.footprint }
        if next.isForeground != previous.isForeground { record.lastUsed = now }
        if next.isForeground || next == .notRunning { record.finishedWork = nil }
        record.state = next
        if next.isForeground {
            foreground = app
        } else if foreground == app {
            foreground = nil
        }
        switch next {
        case .background where previous != .background:
            record.backgroundSince = now
            record.allowanceAnnounced = false
            record.usedTasksThisPeriod = false
        case .inactive, .active:
            if let since = record.backgroundSince {
                record.spentBefore = policy.allowanceResetsOnForeground ? .zero : record.spentBefore + (now - since)
                record.backgroundSince = nil
            } else if policy.allowanceResetsOnForeground {
                record.spentBefore = .zero
            }
        case .suspended, .notRunning:
            if let since = record.backgroundSince {
                record.spentBefore += now - since
                record.backgroundSince = nil
            }
        case .background:
            break
        }
        records[s] = record
        effects += rearmTimers(app, at: now)
        return effects
    }

    /// The app's process ends: its tasks end with it, its timers stop, its queue is dropped.
    private mutating func exit(_ app: AppID, reason: TerminationReason, at now: BudgetInstant) -> [Effect] {
        let code = reason == .backgroundTaskExpired ? policy.backgroundTaskExpiryCode : reason.defaultCode
        record(.exit(reason, code: code), app, now)
        let s = slot(app)
        records[s].tasks.removeAll()
        records[s].unwarnedTasks = 0
        records[s].inFlight = 0
        records[s].pendingExit = nil
        records[s].armed = ArmedTimers()
        records[s].activities.removeAll()
        records[s].windowUntil = nil
        // The shell drops the process's closures and task objects when it performs `dropQueue`.
        records[s].keepAliveInterval = nil
        records[s].voipPushesInFlight = 0
        records[s].callsReported = 0
        // A fetch cut short used up its opportunity: the plan goes on from now.
        let fetchCutShort = records[s].fetch != nil
        records[s].fetch = nil
        if fetchCutShort { records[s].lastFetchEnd = now }
        endScheduledTasksOnExit(s)
        records[s].queuedNotifications.removeAll()
        if records[s].memoryWarningInFlight {
            records[s].memoryWarningInFlight = false
            pendingMemoryWarnings -= 1
            // The last warning of an episode was this app's: evaluate pressure again once it is gone.
            if pendingMemoryWarnings == 0 { memoryRecheckDue = true }
        }
        if reason == .userKill {
            records[s].killedByUser = true
            // However the user killed it, its queued continued-processing requests go with it.
            cancelQueuedContinuedRequests(of: app, at: now)
        }
        // Everything of the process goes; the system's fetch plan for the app stays.
        let processTimers = AppTimer.allCases.filter { $0 != .fetchOpportunity && $0 != .taskRequestDue }
        for timer in processTimers { records[s].timerTokens[timer] = nil }
        return processTimers.map { .disarm(app, $0) } + [.dropQueue(app)] + (fetchCutShort ? planFetch(app, at: now) : [])
    }

    /// Called once the app's queue has run a delivery or handler batch that `settles`: finishes a
    /// pending termination, or suspends a background app that nothing keeps running.
    package mutating func settle(_ app: AppID, incarnation: UInt64, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard records[s].incarnation == incarnation, records[s].inFlight > 0 else { return [] }
        records[s].inFlight -= 1
        guard records[s].inFlight == 0 else { return [] }
        if let reason = records[s].pendingExit {
            records[s].pendingExit = nil
            return commit(Lifecycle.Transition(from: records[s].state, to: .notRunning, steps: [.exit(reason), .enter(.notRunning)]),
                          of: app, cause: .terminate(reason), at: now)
        }
        return suspendIfIdle(app, at: now)
    }

    /// Suspends a background app that nothing keeps running: no open task, no activity, no event
    /// window, nothing running on its queue.
    package mutating func suspendIfIdle(_ app: AppID, at now: BudgetInstant, reason: SuspensionReason? = nil) -> [Effect] {
        let s = slot(app)
        guard records[s].state == .background, records[s].inFlight == 0, records[s].fetch == nil,
              records[s].runningTasks.isEmpty, records[s].pendingExit == nil, records[s].tasks.isEmpty, records[s].activities.isEmpty else { return [] }
        if let until = records[s].windowUntil {
            guard until <= now else { return [] }
            records[s].windowUntil = nil
        }
        let reason = reason ?? records[s].finishedWork ?? (records[s].usedTasksThisPeriod ? .backgroundTasksEnded : .noBackgroundWork)
        records[s].finishedWork = nil
        records[s].lastSuspension = (now, reason)
        return applyValid(.suspend(reason), to: app, at: now,
                          invariant: "an idle background app that is not terminating can be suspended")
    }

    // MARK: Timers

    /// Arms a timer for an app, replacing one armed before.
    package mutating func arm(_ timer: AppTimer, for app: AppID, at instant: BudgetInstant) -> Effect {
        lastTimerToken += 1
        records[slot(app)].timerTokens[timer] = lastTimerToken
        return .arm(app, timer, at: instant, token: lastTimerToken)
    }

    /// Disarms a timer for an app.
    package mutating func disarm(_ timer: AppTimer, for app: AppID) -> Effect {
        records[slot(app)].timerTokens[timer] = nil
        return .disarm(app, timer)
    }

    /// A timer fired. A firing whose token is not the armed one (cancelled too late, or armed for an
    /// earlier incarnation) is ignored.
    package mutating func timerFired(_ timer: AppTimer, app: AppID, token: UInt64, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard records[s].timerTokens[timer] == token, records[s].state != .notRunning || timer == .fetchOpportunity || timer == .taskRequestDue else { return [] }
        records[s].timerTokens[timer] = nil
        switch timer {
        case .watchdog:
            return applyValid(.kill(.watchdog), to: app, at: now, invariant: "a running app can be killed")
        case .allowanceExpiry:
            guard !records[s].tasks.isEmpty, records[s].state == .background else { return rearmTimers(app, at: now) }
            return applyValid(.kill(.backgroundTaskExpired), to: app, at: now, invariant: "a background app can be killed")
        case .expirationWarning:
            return callExpirationHandlers(app, at: now)
        case .foregroundOverrun:
            return reportForegroundOverruns(app, at: now)
        case .eventWindow:
            return suspendIfIdle(app, at: now, reason: .eventWindowEnded)
        case .voipKeepAlive:
            return keepAliveDue(app, at: now)
        case .fetchOpportunity:
            return fetchOpportunity(app, at: now)
        case .fetchDeadline:
            return applyValid(.kill(.backgroundFetchNotCompleted), to: app, at: now, invariant: "a running app can be killed")
        case .taskRequestDue:
            return taskRequestTimerFired(app, at: now)
        case .taskDeadline:
            return taskDeadlineFired(app, at: now)
        }
    }

    /// Arms the watchdog for a callback that has a time limit; called as the callback starts.
    package mutating func callbackStarted(_ callback: AppCallback, app: AppID, incarnation: UInt64, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard records[s].incarnation == incarnation, records[s].state != .notRunning else { return [] }
        let limit: Duration
        switch callback {
        case .didEnterBackground: limit = policy.didEnterBackgroundLimit
        case .willTerminate: limit = policy.willTerminateLimit
        default: return []
        }
        return [arm(.watchdog, for: app, at: now + limit)]
    }

    /// Disarms the watchdog when the callback returns.
    package mutating func callbackReturned(_ callback: AppCallback, app: AppID) -> [Effect] {
        callback == .didEnterBackground || callback == .willTerminate ? [disarm(.watchdog, for: app)] : []
    }
}
