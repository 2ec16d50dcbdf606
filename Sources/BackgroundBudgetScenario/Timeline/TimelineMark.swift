import BackgroundBudgetCore

/// How the SVG timeline draws one kind of trace event.
///
/// ``init(_:)`` is **the one place** that maps ``TraceEvent/Kind`` to a mark. Its `switch` has no
/// `default`, so when `TraceEvent.Kind` gains a case the compiler stops here: map the new case to
/// the mark that says what it is in a printed picture (every mark has a shape of its own and a
/// legend entry; the hover text adds the event's name, reason and code).
enum TimelineMark: Sendable, Hashable {
    /// The lane's state band changes colour from this instant: a thin white line across the band.
    case state(ApplicationState)
    /// A delegate callback: a dark triangle above the band.
    case callback
    /// The process ended: a vermilion cross under the band.
    case exit
    /// A finite background task began or ended, an activity started or stopped, a file lock was
    /// taken or released, or an event or notification was delivered: a small blue tick above the band.
    case task
    /// A task's expiration handler was called: an amber bar across the band.
    case expiration
    /// The background allowance started: drawn as a bar under the band until it runs out or the app
    /// leaves the background (the renderer draws the bar; the mark itself is only hover text).
    case allowance
    /// The system refused, skipped, dropped or ignored something the app asked for or was owed (a
    /// task denied, a fetch skipped, an event dropped, a completion ignored): a vermilion "no" sign.
    case refused
    /// Something the app will pay for later: a task open past the allowance, a callback cut short by
    /// the process's end: an amber warning triangle.
    case warning
    /// A request or registration the system holds for later (a task registered, submitted,
    /// cancelled or queued, an event or notification queued), or a read of the remaining time: a
    /// hollow circle.
    case request
    /// A device setting or condition changed (on the Device lane, or the app's own Background App
    /// Refresh switch on its lane): a hollow diamond in the colour of condition bars.
    case deviceChange

    /// The marks the legend shows, one entry each, with their words, in the legend's order.
    static let legendEntries: [(mark: TimelineMark, label: String)] = [
        (.state(.active), "state change"), (.callback, "callback"), (.task, "task, activity, lock, event"),
        (.expiration, "expiration handler"), (.allowance, "allowance"), (.exit, "exit"),
        (.refused, "refused, skipped or dropped"), (.warning, "warning"), (.request, "registered, submitted or queued"),
        (.deviceChange, "device change"),
    ]

    /// The mark for a trace event.
    init(_ kind: TraceEvent.Kind) {
        switch kind {
        case .stateChange(let state, _): self = .state(state)
        case .callback, .sceneCallback, .notificationObserved: self = .callback
        case .exit: self = .exit
        case .backgroundTaskBegan, .backgroundTaskEnded: self = .task
        case .expirationHandlerCalled: self = .expiration
        case .allowanceStarted: self = .allowance
        case .activityStarted, .activityStopped, .eventDelivered, .keepAliveHandlerCalled, .voipCallReported,
             .notificationDelivered, .fetchStarted, .fetchCompleted, .remoteNotificationCompleted, .taskStarted,
             .taskCompleted, .fileLockAcquired, .fileLockReleased: self = .task
        case .taskExpired: self = .expiration
        case .eventWindowStarted: self = .allowance
        case .workDropped, .backgroundTaskDenied, .backgroundTaskEndIgnored, .activityDenied, .eventDropped,
             .fetchCompletionIgnored, .fetchSkipped, .taskRegistrationRejected, .taskSubmitRejected, .taskDropped, .launchHandlerMissing,
             .taskCompletionIgnored, .regionMonitoringFailed:
            self = .refused
        case .killedMidCallback, .killedMidSceneCallback, .backgroundTaskOpenTooLong: self = .warning
        case .backgroundTimeRemainingRead, .eventQueued, .notificationQueued, .taskRegistered, .taskSubmitted,
             .taskRequestCancelled, .taskQueued, .taskProgress, .restorationActivityRead:
            self = .request
        case .deviceChanged: self = .deviceChange
        }
    }

    /// The fill colour of a state's band.
    ///
    /// Okabe–Ito colours, which stay distinct for the common forms of colour blindness; not running
    /// is a pale grey so that the states that cost energy stand out.
    static func colour(of state: ApplicationState) -> String {
        switch state {
        case .notRunning: "#ececec"
        case .inactive: "#e69f00"
        case .active: "#009e73"
        case .background: "#56b4e9"
        case .suspended: "#a99bd6"
        }
    }

    /// The colour of callback triangles.
    static let callbackColour = "#222222"
    /// The colour of exit crosses.
    static let exitColour = "#d55e00"
    /// The colour of refusal signs.
    static let refusedColour = "#d55e00"
    /// The fill of warning triangles.
    static let warningColour = "#f0e442"
    /// The outline of request circles.
    static let requestColour = "#555555"
    /// The outline and fill of device-change diamonds: the colours of condition bars.
    static let deviceChangeColours = (stroke: "#9a7b00", fill: "#fff2b3")
    /// The colour of task ticks.
    static let taskColour = "#0072b2"
    /// The colour of expiration marks.
    static let expirationColour = "#e69f00"
    /// The colour of allowance bars.
    static let allowanceColour = "#cc79a7"
}
