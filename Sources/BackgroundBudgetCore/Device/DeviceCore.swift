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
    package internal(set) var foreground: AppID?
    package var trace = Trace()

    /// How much of the trace to keep.
    package let retention: TraceRetention
    /// The device's memory: capacity, bytes in use, the episode of pressure under way.
    package var memory = MemoryPressureState()
    /// Device-wide settings: Background App Refresh, Low Power Mode.
    package var settings = DeviceSettings()
    /// Network, power and idleness, for processing tasks.
    package var conditions = DeviceConditions()
    /// Continued-processing tasks: the device-wide queue, the running tasks, load and GPU support.
    package var continued = ContinuedProcessingState()
    /// The last `BGTaskScheduler` task number handed out.
    var lastScheduledTaskNumber: UInt64 = 0
    /// The last background fetch number handed out.
    var lastFetchNumber: UInt64 = 0
    /// The last timer token handed out.
    private var lastTimerToken: UInt64 = 0

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
        record.fetch = FetchState(model: FetchModel(seed: policy.fetchSeed &+ UInt64(records.count) &* 0x9E37_79B9_7F4A_7C15, factors: policy.fetchModelFactors))
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
            guard !records[s].finiteTasks.open.isEmpty, records[s].state == .background else { return rearmTimers(app, at: now) }
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
