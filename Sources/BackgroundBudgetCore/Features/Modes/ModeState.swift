import BudgetTime

/// One app's registered background modes at work: the continuous activities that
/// keep it running, the short window granted for an event, location monitoring, events held until it
/// runs, and the VoIP keep-alive and push bookkeeping.
///
/// The rules here are pure: ``DeviceCore`` orchestrates them in DeviceCore+Modes.swift.
package struct ModeState: Sendable {
    /// Continuous activities running with their mode declared: each keeps a background app running.
    package internal(set) var activities: Set<BackgroundActivity> = []
    /// The end of the short run time granted for a background event, while one is granted.
    var windowUntil: BudgetInstant?
    /// Significant-change monitoring survives termination, as Core Location's does.
    var monitorsSignificantChanges = false
    /// Monitored regions survive termination too.
    var monitoredRegions: Set<String> = []
    /// The legacy VoIP keep-alive interval, while a handler is installed (the shell keeps the
    /// handler); not kept across launches.
    var keepAliveInterval: Duration?
    /// Keep-alive handler runs handed to the app's queue that have not returned yet.
    var keepAliveHandlersRunning = 0
    /// The end of the window granted to the latest keep-alive run in the background, until that
    /// window has been enforced.
    var keepAliveWindowUntil: BudgetInstant?
    /// Events held until the app next runs (delivered without the mode's background permission),
    /// coalesced: at most one per kind (see ``queue(_:)``).
    package private(set) var queuedEvents: [BackgroundEvent] = []
    /// VoIP pushes delivered and not yet handled, and the calls reported for them: each push
    /// handled takes one report, or the app is killed.
    var voipPushesInFlight = 0
    /// Calls reported for the VoIP pushes in flight and not yet matched with a handled push.
    var callsReported = 0
    /// VoIP pushes the app failed to report as calls (each killed it) since the user last opened it;
    /// kept across launches, reset by ``userOpened()``.
    var voipUnreportedPushes = 0

    /// No activity, window, monitoring or queued event.
    package init() {}

    // MARK: Location monitoring

    /// Turns significant-change monitoring (when `significantChanges` is `true`) and/or monitoring of
    /// `region` on or off.
    mutating func setMonitoring(significantChanges: Bool?, region: String?, monitoring: Bool) {
        if significantChanges == true { monitorsSignificantChanges = monitoring }
        if let region {
            if monitoring { monitoredRegions.insert(region) } else { monitoredRegions.remove(region) }
        }
    }

    /// Whether a location event is one the app monitors, which is what relaunches it [S29][S32];
    /// `false` for any other event.
    func monitors(_ event: BackgroundEvent) -> Bool {
        switch event {
        case .significantLocationChange: monitorsSignificantChanges
        case .regionBoundary(let region): monitoredRegions.contains(region)
        default: false
        }
    }

    /// Whether any location monitoring is on (it can relaunch a terminated app).
    var monitorsLocation: Bool {
        monitorsSignificantChanges || !monitoredRegions.isEmpty
    }

    // MARK: Event windows

    /// Extends the event window to `until`; `false` (and nothing changes) when it already lasts as long.
    mutating func extendWindow(until: BudgetInstant) -> Bool {
        guard windowUntil.map({ $0 < until }) ?? true else { return false }
        windowUntil = until
        return true
    }

    /// Whether no event window holds the app at `now`; an elapsed window is closed.
    mutating func closeElapsedWindow(at now: BudgetInstant) -> Bool {
        guard let until = windowUntil else { return true }
        guard until <= now else { return false }
        windowUntil = nil
        return true
    }

    /// Holds an event until the app runs, coalesced with one of the same kind already held: the app
    /// gets one event per kind on resume, as External Accessory events are queued and coalesced while
    /// the app is suspended [S37]. Bluetooth events are coalesced the same way, a model assumption.
    /// The queue is so bounded by the number of kinds that are queued (Bluetooth central and
    /// peripheral, accessory).
    mutating func queue(_ event: BackgroundEvent) {
        guard !queuedEvents.contains(event) else { return }
        queuedEvents.append(event)
    }

    /// Takes the events held until the app runs, in arrival order.
    mutating func takeQueuedEvents() -> [BackgroundEvent] {
        let events = queuedEvents
        queuedEvents.removeAll()
        return events
    }

    // MARK: VoIP

    /// Reports a call: it counts only while a push being handled has none yet [S35].
    package mutating func reportCall() -> Bool {
        guard callsReported < voipPushesInFlight else { return false }
        callsReported += 1
        return true
    }

    /// A VoIP push was handled: `true` when a call was reported for it (the report is used up);
    /// `false` means the app must be killed [S35][S22], and the failure is counted.
    mutating func voipPushHandled() -> Bool {
        voipPushesInFlight -= 1
        guard callsReported > 0 else {
            voipUnreportedPushes += 1
            return false
        }
        callsReported -= 1
        return true
    }

    /// The user opened the app: VoIP pushes launch it again [S35].
    mutating func userOpened() {
        voipUnreportedPushes = 0
    }

    /// The process ended: activities, the window, the keep-alive handler and pushes in flight go with
    /// it; monitoring and queued events stay.
    mutating func processEnded() {
        activities.removeAll()
        windowUntil = nil
        keepAliveInterval = nil
        keepAliveHandlersRunning = 0
        keepAliveWindowUntil = nil
        voipPushesInFlight = 0
        callsReported = 0
    }
}
