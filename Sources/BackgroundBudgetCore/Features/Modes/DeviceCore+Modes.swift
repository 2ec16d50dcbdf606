import BudgetTime

/// Registered background modes: continuous activities, event wakes and relaunches, the VoIP handlers.
///
/// Rules: an app keeps running in the background only while it really does the work
/// of a declared mode [S25]: audio while it plays [S27], standard location updates while they run [S30].
/// Short events wake or launch it for a window: Bluetooth and accessories about 10 s [S36][S37], silent
/// pushes up to 30 s and throttled, terminating the app (`0x2182bad4`) unless completed in time
/// [S63][S64]; without the mode, Bluetooth and accessory events wait until the app runs, one per kind
/// [S37]. Significant-change and region events relaunch a terminated app, even after a
/// user kill since iOS 8 [S29][S31][S32]; other relaunches stop after a user kill [S86][S63]. A VoIP
/// push must be reported as a call or the app is killed (`0xbaadca11`) [S35][S22]; after
/// ``BudgetPolicy/voipUnreportedPushLimit`` such kills, VoIP pushes no longer launch or wake it until
/// the user opens it [S35].
extension DeviceCore {
    // MARK: Activities

    /// Starts a continuous activity; denied unless the app runs and declares the activity's mode.
    package mutating func startActivity(_ activity: BackgroundActivity, app: AppID, at now: BudgetInstant) -> Decision<Result<Void, ActivityDenial>> {
        let s = slot(app)
        let denial: ActivityDenial? = if !records[s].state.isExecuting || records[s].isTerminating {
            .notRunning
        } else if exitsOnSuspendGate(slot: s) != nil {
            .exitsOnSuspend
        } else if !records[s].manifest.backgroundModes.contains(activity.requiredMode) {
            .modeNotDeclared
        } else {
            nil
        }
        if let denial {
            record(.activityDenied(activity, denial), app, now)
            return Decision(.failure(denial), effects: [])
        }
        if records[s].process.modify({ $0.modes.activities.insert(activity).inserted }) == true { record(.activityStarted(activity), app, now) }
        return Decision(.success(()), effects: [])
    }

    /// Stops a continuous activity; the app is suspended if nothing else holds it.
    package mutating func stopActivity(_ activity: BackgroundActivity, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].process.modify({ $0.modes.activities.remove(activity) != nil }) == true else { return [] }
        record(.activityStopped(activity), app, now)
        return Decision(suspendIfIdle(app, at: now, reason: .activityStopped))
    }

    /// Turns location monitoring on or off (it survives termination). Starting to monitor a region
    /// when the app already monitors ``BudgetPolicy/maxMonitoredRegions`` others fails for that region
    /// [S32]: nothing changes, and the trace records `regionMonitoringFailed`.
    /// - Returns: `false` when monitoring the region failed (no effect).
    package mutating func setLocationMonitoring(
        significantChanges: Bool? = nil, region: String? = nil, monitoring: Bool, app: AppID, at now: BudgetInstant
    ) -> Decision<Bool> {
        let s = slot(app)
        if let region, monitoring, !records[s].modes.monitoredRegions.contains(region),
           records[s].modes.monitoredRegions.count >= policy.maxMonitoredRegions {
            record(.regionMonitoringFailed(region), app, now)
            return Decision(false, effects: [])
        }
        records[s].modes.setMonitoring(significantChanges: significantChanges, region: region, monitoring: monitoring)
        return Decision(true, effects: [])
    }

    // MARK: Events

    /// Delivers, queues or drops a system event, launching or waking the app as the rules say.
    package mutating func deliver(_ event: BackgroundEvent, to app: AppID, at now: BudgetInstant) -> Decision<EventOutcome> {
        let s = slot(app)
        let record = (state: records[s].state, manifest: records[s].manifest, terminating: records[s].isTerminating)
        func drop(_ reason: EventDropReason) -> Decision<EventOutcome> {
            self.record(.eventDropped(event, reason), app, now)
            return Decision(.dropped(reason), effects: [])
        }
        if record.terminating { return drop(.terminating) }
        let declared = record.manifest.backgroundModes.contains(event.requiredMode)
        if record.state.isForeground {
            return Decision(.delivered, effects: deliverNow(event, to: app, at: now))
        }
        if let gate = exitsOnSuspendGate(slot: s) { return drop(EventDropReason(gate)) }
        switch event {
        case .significantLocationChange, .regionBoundary:
            // Monitoring, not the `location` mode, is what relaunches the app [S29][S32].
            if !records[s].modes.monitors(event) { return drop(.notMonitoring) }
            if let gate = userKillGate(slot: s, for: .location) { return drop(EventDropReason(gate)) }
        case .bluetooth, .accessory:
            if !declared {
                guard records[s].isRunning else { return drop(.modeNotDeclared) }
                // Held events are coalesced, one per kind, so the queue is bounded by construction [S37].
                records[s].modes.queue(event)
                self.record(.eventQueued(event), app, now)
                return Decision(.queued, effects: [])
            }
            if let gate = userKillGate(slot: s, for: .accessory) { return drop(EventDropReason(gate)) }
        case .silentPush:
            guard declared else { return drop(.modeNotDeclared) }
            // A user kill, then Background App Refresh and a critically low battery, gate background pushes [S59].
            if let gate = userKillGate(slot: s, for: .content) ?? discretionaryGates(slot: s).first {
                return drop(EventDropReason(gate))
            }
            guard records[s].notifications.admitSilentPush(at: now, window: policy.silentPushWindow, limit: policy.silentPushesPerHour) else {
                return drop(.throttled)
            }
        case .voipPush, .newsstandDownload:
            guard declared else { return drop(.modeNotDeclared) }
            // Pushes it failed to report too often stop VoIP launches until the user opens it [S35].
            if event == .voipPush, records[s].modes.voipUnreportedPushes >= policy.voipUnreportedPushLimit {
                return drop(.voipLaunchesStopped)
            }
        }
        var effects: [Effect] = []
        let window = event == .silentPush ? policy.remoteNotificationWindow : policy.eventWindow
        switch record.state {
        case .notRunning:
            effects += applyValid(.launchInBackground(event.launchReason), to: app, at: now,
                                  invariant: "an app that does not exit on suspend can be launched in the background")
            if !records[s].isRunning {
                // The launch failed (an app without scenes under a policy that requires them).
                return Decision(drop(.sceneLifecycleRequired).value, effects: effects)
            }
        case .suspended:
            effects += applyValid(.wake(event.launchReason), to: app, at: now, invariant: "a suspended app can be woken")
        case .background, .inactive, .active:
            break
        }
        // A push must call its completion handler before the window ends (see remoteNotificationCompleted).
        if event == .silentPush { records[s].process.modify { $0.notifications.pushAwaitingCompletion = true } }
        effects += openWindow(app, until: now + window, at: now)
        return Decision(.delivered, effects: effects + deliverNow(event, to: app, at: now))
    }

    /// Extends the app's event window to `until` (never shortens it) and arms its timer.
    private mutating func openWindow(_ app: AppID, until: BudgetInstant, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard records[s].process.modify({ $0.modes.extendWindow(until: until) }) == true else { return [] }
        record(.eventWindowStarted(until: until), app, now)
        return [arm(.eventWindow, for: app, at: until)]
    }

    /// Hands an event to the app's queue now.
    private mutating func deliverNow(_ event: BackgroundEvent, to app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        let incarnation = records[s].handOff()
        if event == .voipPush { records[s].process.modify { $0.modes.voipPushesInFlight += 1 } }
        record(.eventDelivered(event), app, now)
        return [.deliverEvent(app, incarnation: incarnation, event)]
    }

    /// Delivers events held while the app was not running in the background, once it runs.
    mutating func deliverQueuedEvents(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard records[s].state.isExecuting, !records[s].modes.queuedEvents.isEmpty else { return [] }
        return records[s].modes.takeQueuedEvents().flatMap { deliverNow($0, to: app, at: now) }
    }

    /// Called once the app's delegate has handled an event: a VoIP push not reported as a call kills
    /// the app; otherwise the app settles.
    package mutating func eventHandled(_ event: BackgroundEvent, app: AppID, incarnation: UInt64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].incarnation == incarnation, records[s].isRunning else { return [] }
        if event == .voipPush {
            guard records[s].process.modify({ $0.modes.voipPushHandled() }) == true else {
                records[s].modes.voipUnreportedPushes += 1
                return Decision(applyValid(.kill(.voipPushNotReported), to: app, at: now, invariant: "a running app can be killed"))
            }
        }
        return settle(app, incarnation: incarnation, at: now)
    }

    /// The app reported a call (`CXProvider.reportNewIncomingCall`) for a VoIP push it is handling.
    package mutating func reportCall(app: AppID, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        // A report counts for a push being handled; reports beyond the pushes in flight count for nothing.
        guard records[s].process.modify({ $0.modes.reportCall() }) == true else { return [] }
        record(.voipCallReported, app, now)
        return []
    }

    // MARK: VoIP keep-alive

    /// Installs the legacy keep-alive handler (`setKeepAliveTimeout(_:handler:)`). When it returns
    /// `true` the shell keeps the new handler, replacing (and dropping) the one it kept before.
    /// - Returns: `false` (and changes nothing) when the interval is below the minimum, the app does
    ///   not declare `voip`, or it is not running — as UIKit's method returns `false`.
    package mutating func setKeepAlive(_ interval: Duration, app: AppID, at now: BudgetInstant) -> Decision<Bool> {
        let s = slot(app)
        guard interval >= policy.voipKeepAliveMinimumInterval, records[s].manifest.backgroundModes.contains(.voip),
              records[s].state.isExecuting, exitsOnSuspendGate(slot: s) == nil else { return Decision(false, effects: []) }
        records[s].process.modify { $0.modes.keepAliveInterval = interval }
        return Decision(true, effects: [arm(.voipKeepAlive, for: app, at: now + interval)])
    }

    /// Removes the keep-alive handler (`clearKeepAliveTimeout()`): the shell drops it.
    package mutating func clearKeepAlive(app: AppID) -> Decision<Void> {
        let s = slot(app)
        let installed = records[s].running?.modes.keepAliveInterval != nil
        records[s].process.modify { $0.modes.keepAliveInterval = nil }
        return Decision([disarm(.voipKeepAlive, for: app)] + (installed ? [.releaseKeepAliveHandler(app)] : []))
    }

    /// The keep-alive interval elapsed: wake the app if needed, run the handler in a short window
    /// (``BudgetPolicy/voipKeepAliveWindow``, enforced even while the handler runs: see
    /// ``eventWindowEnded(_:at:)``), and schedule the next one.
    mutating func keepAliveDue(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard let interval = records[s].running?.modes.keepAliveInterval else { return [] }
        var effects: [Effect] = []
        if records[s].state == .suspended {
            effects += applyValid(.wake(.voip), to: app, at: now, invariant: "a suspended app can be woken")
        }
        if records[s].state == .background {
            effects += openWindow(app, until: now + policy.voipKeepAliveWindow, at: now)
            let until = now + policy.voipKeepAliveWindow
            records[s].process.modify { $0.modes.keepAliveWindowUntil = until }
        }
        records[s].process.modify { $0.modes.keepAliveHandlersRunning += 1 }
        let incarnation = records[s].handOff()
        record(.keepAliveHandlerCalled, app, now)
        effects.append(.keepAliveHandler(app, incarnation: incarnation))
        effects.append(arm(.voipKeepAlive, for: app, at: now + interval))
        return effects
    }

    /// The keep-alive handler returned on the app's queue: the run is no longer counted, and the app
    /// settles.
    package mutating func keepAliveHandlerReturned(_ app: AppID, incarnation: UInt64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        if records[s].incarnation == incarnation {
            records[s].process.modify { if $0.modes.keepAliveHandlersRunning > 0 { $0.modes.keepAliveHandlersRunning -= 1 } }
        }
        return settle(app, incarnation: incarnation, at: now)
    }

    /// The event window ran out. The app is suspended if nothing keeps it running; and when the
    /// window was a keep-alive run's and its handler is still running, the running code does not keep
    /// it: "if your handler has not exited before time expires, the app is suspended" [S33]. Open
    /// background tasks, activities, fetches and scheduled tasks still hold it.
    mutating func eventWindowEnded(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard let until = records[s].running?.modes.keepAliveWindowUntil, until <= now else {
            return suspendIfIdle(app, at: now, reason: .eventWindowEnded)
        }
        records[s].process.modify { $0.modes.keepAliveWindowUntil = nil }
        let record = records[s]
        guard let process = record.running, process.modes.keepAliveHandlersRunning > 0, record.state == .background,
              process.pendingExit == nil, process.fetch == nil, process.taskRequests.running.isEmpty,
              process.finiteTasks.open.isEmpty, process.modes.activities.isEmpty else {
            return suspendIfIdle(app, at: now, reason: .eventWindowEnded)
        }
        guard records[s].process.modify({ $0.modes.closeElapsedWindow(at: now) }) ?? true else { return [] }
        records[s].finishedWork = nil
        records[s].lastSuspension = (now, .keepAliveWindowEnded)
        return applyValid(.suspend(.keepAliveWindowEnded), to: app, at: now,
                          invariant: "a background app that is not terminating can be suspended")
    }
}
