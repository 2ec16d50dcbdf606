import BudgetTime

/// Per-app timers: arming and disarming with tokens (a stale firing is ignored), dispatching a firing
/// to the feature it belongs to, and the watchdog of time-limited callbacks.
extension DeviceCore {
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
    package mutating func timerFired(_ timer: AppTimer, app: AppID, token: UInt64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].timerTokens[timer] == token, records[s].isRunning || timer == .fetchOpportunity || timer == .taskRequestDue else { return [] }
        records[s].timerTokens[timer] = nil
        switch timer {
        case .watchdog:
            // Expiration handlers that run too long are killed as an expired task is [S17].
            if records[s].running?.finiteTasks.handlersDeadline != nil {
                return Decision(applyValid(.kill(.backgroundTaskExpired), to: app, at: now, invariant: "a running app can be killed"))
            }
            return Decision(applyValid(.kill(.watchdog), to: app, at: now, invariant: "a running app can be killed"))
        case .allowanceExpiry:
            guard records[s].running?.finiteTasks.open.isEmpty == false, records[s].state == .background else { return Decision(rearmTimers(app, at: now)) }
            return Decision(applyValid(.kill(.backgroundTaskExpired), to: app, at: now, invariant: "a background app can be killed"))
        case .expirationWarning:
            return Decision(callExpirationHandlers(app, at: now))
        case .foregroundOverrun:
            return Decision(reportForegroundOverruns(app, at: now))
        case .eventWindow:
            return Decision(uncompletedPushWindowEnded(app, at: now) ?? eventWindowEnded(app, at: now))
        case .voipKeepAlive:
            return Decision(keepAliveDue(app, at: now))
        case .fetchOpportunity:
            return Decision(fetchOpportunity(app, at: now))
        case .fetchDeadline:
            return Decision(applyValid(.kill(.backgroundFetchNotCompleted), to: app, at: now, invariant: "a running app can be killed"))
        case .taskRequestDue:
            return Decision(taskRequestTimerFired(app, at: now))
        case .taskDeadline:
            return Decision(taskDeadlineFired(app, at: now))
        }
    }

    /// Notes the callback as running (see ``TraceEvent/Kind/killedMidCallback(_:)``), records the
    /// entries its delivery held up to it (the trace shows it when it runs), and arms the watchdog for
    /// a callback that has a time limit; called as the callback starts. `willFinishLaunching` starts
    /// the launch, which has ``BudgetPolicy/launchWatchdog`` in all [S23]; a `didEnterBackground`
    /// during the launch must also return by the launch's deadline. `willEnterForeground` starts a
    /// resume, which has ``BudgetPolicy/resumeWatchdog`` until `didBecomeActive` returns [S91][S92].
    package mutating func callbackStarted(_ callback: AppCallback, app: AppID, incarnation: UInt64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        let (launchBy, resumeBy) = (now + policy.launchWatchdog, now + policy.resumeWatchdog)
        guard records[s].incarnation == incarnation, let launchDeadline = records[s].process.modify({ process in
            process.runningCallback = callback
            if callback == .willFinishLaunching { process.launchDeadline = launchBy }
            if callback == .willEnterForeground { process.resumeDeadline = resumeBy }
            return process.launchDeadline
        }) else { return [] }
        recordHeldSteps(app, starting: .app(callback), at: now)
        let limit: Duration
        switch callback {
        case .willFinishLaunching: return [arm(.watchdog, for: app, at: launchBy)]
        case .willEnterForeground: return [arm(.watchdog, for: app, at: resumeBy)]
        case .didEnterBackground: limit = policy.didEnterBackgroundLimit
        case .willTerminate: limit = policy.willTerminateLimit
        default: return []
        }
        return [arm(.watchdog, for: app, at: min(now + limit, launchDeadline ?? now + limit))]
    }

    /// Notes that no callback runs any more, records the entries after a delivery's last callback
    /// (held by the delivery), and disarms the watchdog, when the callback returns; the first
    /// `didBecomeActive` or `didEnterBackground` to return ends the launch.
    package mutating func callbackReturned(_ callback: AppCallback, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        records[s].process.modify { if $0.runningCallback == callback { $0.runningCallback = nil } }
        recordHeldSteps(app, starting: nil, at: now)
        if callback == .didBecomeActive, records[s].process.modify({ $0.clearDeadlines() }) == true {
            return [disarm(.watchdog, for: app)]
        }
        if callback == .didEnterBackground { records[s].process.modify { _ = $0.clearDeadlines() } }
        if callback == .didFinishLaunching, records[s].manifest.usesScenes, !records[s].state.isForeground,
           records[s].process.modify({ $0.endLaunch() }) == true {
            // A scene-based app launched into the background has no activation: its launch ends here.
            return [disarm(.watchdog, for: app)]
        }
        return Decision(callback == .didEnterBackground || callback == .willTerminate ? [disarm(.watchdog, for: app)] : [])
    }
}
