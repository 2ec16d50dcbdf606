import BudgetTime

/// One app's registered background modes, as the system keeps them across launches: location
/// monitoring, events held until the app runs, and the VoIP pushes it failed to report. What the
/// modes do while the process runs — the continuous activities that keep it running, the short window
/// granted for an event, the VoIP keep-alive and pushes in flight — is the process's (``Running``).
///
/// The rules here are pure: ``DeviceCore`` orchestrates them in DeviceCore+Modes.swift.
package struct ModeState: Sendable {
    /// Significant-change monitoring survives termination, as Core Location's does.
    var monitorsSignificantChanges = false
    /// Monitored regions survive termination too.
    var monitoredRegions: Set<String> = []
    /// Events held until the app next runs (delivered without the mode's background permission),
    /// coalesced: at most one per kind (see ``queue(_:)``).
    package private(set) var queuedEvents: [BackgroundEvent] = []
    /// VoIP pushes the app failed to report as calls (each killed it) since the user last opened it;
    /// kept across launches, reset by ``userOpened()``.
    var voipUnreportedPushes = 0

    /// No monitoring, queued event or unreported push.
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

    // MARK: Held events

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

    /// The user opened the app: VoIP pushes launch it again [S35].
    mutating func userOpened() {
        voipUnreportedPushes = 0
    }
}

extension ModeState {
    /// The modes at work in the running process (``DeviceCore/RunningProcess/modes``): all of it ends
    /// with the process.
    package struct Running: Sendable {
        /// Continuous activities running with their mode declared: each keeps a background app running.
        package internal(set) var activities: Set<BackgroundActivity> = []
        /// The end of the short run time granted for a background event, while one is granted.
        var windowUntil: BudgetInstant?
        /// The legacy VoIP keep-alive interval, while a handler is installed (the shell keeps the
        /// handler); not kept across launches.
        var keepAliveInterval: Duration?
        /// Keep-alive handler runs handed to the app's queue that have not returned yet.
        var keepAliveHandlersRunning = 0
        /// The end of the window granted to the latest keep-alive run in the background, until that
        /// window has been enforced.
        var keepAliveWindowUntil: BudgetInstant?
        /// VoIP pushes delivered and not yet handled, and the calls reported for them: each push
        /// handled takes one report, or the app is killed.
        var voipPushesInFlight = 0
        /// Calls reported for the VoIP pushes in flight and not yet matched with a handled push.
        var callsReported = 0

        /// No activity, window, keep-alive or push in flight.
        package init() {}

        // MARK: Event windows

        /// Extends the event window to `until`; `false` (and nothing changes) when it already lasts as
        /// long.
        mutating func extendWindow(until: BudgetInstant) -> Bool {
            guard windowUntil.map({ $0 < until }) ?? true else { return false }
            windowUntil = until
            return true
        }

        /// Closes the event window; `false` when none was open.
        mutating func closeWindow() -> Bool {
            defer { windowUntil = nil }
            return windowUntil != nil
        }

        /// Whether no event window holds the app at `now`; an elapsed window is closed.
        mutating func closeElapsedWindow(at now: BudgetInstant) -> Bool {
            guard let until = windowUntil else { return true }
            guard until <= now else { return false }
            windowUntil = nil
            return true
        }

        // MARK: VoIP

        /// Reports a call: it counts only while a push being handled has none yet [S35].
        package mutating func reportCall() -> Bool {
            guard callsReported < voipPushesInFlight else { return false }
            callsReported += 1
            return true
        }

        /// A VoIP push was handled: `true` when a call was reported for it (the report is used up);
        /// `false` means the app must be killed [S35][S22] (the caller counts the failure, which the
        /// system keeps across launches).
        mutating func voipPushHandled() -> Bool {
            voipPushesInFlight -= 1
            guard callsReported > 0 else { return false }
            callsReported -= 1
            return true
        }
    }
}
