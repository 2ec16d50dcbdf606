/// Continuous background activities and the system services tied to background modes.
///
/// ```swift
/// // An audio player that declares the `audio` mode keeps running while it plays:
/// try app.startActivity(.audioPlayback)
/// try system.pressHome()                 // still running in the background
/// app.stopActivity(.audioPlayback)       // paused: suspended at once if nothing else holds it
/// ```
import BackgroundBudgetCore
import BudgetTime

extension Application {
    /// Starts a continuous activity. With its mode declared in `UIBackgroundModes`, it keeps the app
    /// running in the background until ``stopActivity(_:)``.
    /// - Parameter activity: The activity.
    /// - Throws: ``ActivityDenial`` when the app does not declare the mode, is not running, or exits on
    ///   suspend; the trace records it too, and the app suspends as usual.
    public func startActivity(_ activity: BackgroundActivity) throws(ActivityDenial) {
        guard let system else { throw .notRunning }
        let result = system.decide(caller: self, ended: .failure(.notRunning)) { [id] (state: inout BackgroundSystem.State, now: BudgetInstant) in
            state.core.startActivity(activity, app: id, at: now)
        }
        try result.get()
    }

    /// Stops a continuous activity; a background app that nothing else keeps running is suspended.
    /// Stopping one that is not running does nothing.
    public func stopActivity(_ activity: BackgroundActivity) {
        system?.decide(caller: self) { core, now in core.stopActivity(activity, app: id, at: now) }
    }

    /// Starts playing audio with an active audio session (`AVAudioSession.setActive(true)` and play).
    /// - Throws: ``ActivityDenial`` as ``startActivity(_:)`` does.
    public func startPlayingAudio() throws(ActivityDenial) { try startActivity(.audioPlayback) }

    /// Pauses or stops audio and deactivates the session.
    public func stopPlayingAudio() { stopActivity(.audioPlayback) }

    /// Starts standard location updates (`CLLocationManager.startUpdatingLocation()`).
    /// - Throws: ``ActivityDenial`` as ``startActivity(_:)`` does.
    public func startUpdatingLocation() throws(ActivityDenial) { try startActivity(.locationUpdates) }

    /// Stops standard location updates.
    public func stopUpdatingLocation() { stopActivity(.locationUpdates) }

    /// Starts significant-change monitoring (`startMonitoringSignificantLocationChanges()`). It outlives
    /// the app: a significant change relaunches a terminated app into the background [S29].
    public func startMonitoringSignificantLocationChanges() {
        system?.decide(caller: self) { core, now in Decision(core.setLocationMonitoring(significantChanges: true, monitoring: true, app: id, at: now).effects) }
    }

    /// Stops significant-change monitoring.
    public func stopMonitoringSignificantLocationChanges() {
        system?.decide(caller: self) { core, now in Decision(core.setLocationMonitoring(significantChanges: true, monitoring: false, app: id, at: now).effects) }
    }

    /// Starts monitoring a region (`startMonitoring(for:)`); crossing it relaunches a terminated app [S32].
    ///
    /// An app monitors at most ``BudgetPolicy/maxMonitoredRegions`` regions (20, observed) [S32]. Starting
    /// one more fails for that region only, as Core Location reports it with
    /// `locationManager(_:monitoringDidFailFor:withError:)` and `CLError.regionMonitoringFailure`: the
    /// region is not monitored (its boundary events are dropped as `notMonitoring`), the regions already
    /// monitored stay, the trace records `regionMonitoringFailed` (reason `tooManyRegions`), and this
    /// method returns `false`, which stands in for the delegate message. Stop monitoring a region to
    /// make room.
    /// - Parameter region: The region's identifier.
    /// - Returns: `false` when monitoring the region failed (or the process has ended); `true` otherwise,
    ///   also for a region already monitored.
    @discardableResult
    public func startMonitoring(region: String) -> Bool {
        guard let system else { return false }
        return system.decide(caller: self, ended: false) { [id] (state: inout BackgroundSystem.State, now: BudgetInstant) in
            state.core.setLocationMonitoring(region: region, monitoring: true, app: id, at: now)
        }
    }

    /// Stops monitoring a region.
    /// - Parameter region: The region's identifier.
    public func stopMonitoring(region: String) {
        system?.decide(caller: self) { core, now in Decision(core.setLocationMonitoring(region: region, monitoring: false, app: id, at: now).effects) }
    }

    /// Reports an incoming call to CallKit for the VoIP push being handled. A VoIP push whose handler
    /// returns without a report kills the app (`0xbaadca11`) [S35][S22].
    public func reportNewIncomingCall() {
        system?.decide(caller: self) { core, now in core.reportCall(app: id, at: now) }
    }

    /// Installs the legacy VoIP keep-alive handler (`setKeepAliveTimeout(_:handler:)`): every `interval`
    /// the app is woken if suspended and the handler runs, with
    /// ``BudgetPolicy/voipKeepAliveWindow`` (10 s) to finish [S33]; if it is still running then, the
    /// app is suspended all the same (``SuspensionReason/keepAliveWindowEnded``).
    /// - Parameters:
    ///   - interval: At least ``BudgetPolicy/voipKeepAliveMinimumInterval`` (600 s).
    ///   - handler: Runs on the app's queue.
    /// - Returns: `false`, installing nothing, if the interval is too short, the app does not declare
    ///   `voip`, exits on suspend, or is not running — as UIKit's method does.
    @discardableResult
    public func setKeepAliveTimeout(_ interval: Duration, handler: @escaping @Sendable () -> Void) -> Bool {
        guard let system else { return false }
        return system.decide(caller: self, ended: false) { [id] (state: inout BackgroundSystem.State, now: BudgetInstant) in
            let decision = state.core.setKeepAlive(interval, app: id, at: now)
            if decision.value {
                // The handler replaced is dropped after the lock is released, with the others.
                let replaced = state.closures[id, default: AppClosures()].keepAliveHandler
                state.closures[id, default: AppClosures()].keepAliveHandler = handler
                if let replaced { state.released.append(replaced) }
            }
            return decision
        }
    }

    /// Removes the keep-alive handler (`clearKeepAliveTimeout()`).
    public func clearKeepAliveTimeout() {
        system?.decide(caller: self) { core, _ in core.clearKeepAlive(app: id) }
    }
}

extension BackgroundSystem {
    /// A system event for an app: a location event, a push, a Bluetooth or accessory event, a finished
    /// download. The system launches or wakes the app into the background for it and grants a short
    /// window (``BudgetPolicy/eventWindow``; ``BudgetPolicy/remoteNotificationWindow`` for silent
    /// pushes), queues it until the app runs, or drops it — each with its reason in the trace.
    /// - Parameters:
    ///   - event: The event.
    ///   - app: The app it is for.
    /// - Returns: What happened to it.
    /// - Precondition: `app` was installed on this system.
    @discardableResult
    public func deliver(_ event: BackgroundEvent, to app: Application) -> EventOutcome {
        requireInstalled(app)
        return decide { (state: inout State, now: BudgetInstant) in state.core.deliver(event, to: app.id, at: now) }
    }
}
