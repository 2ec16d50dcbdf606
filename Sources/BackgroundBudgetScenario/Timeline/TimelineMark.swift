import BackgroundBudget

/// How the SVG timeline draws one kind of trace event.
///
/// ``init(_:)`` is **the one place** that maps ``TraceEvent/Kind`` to a mark. Its `switch` has no
/// `default`, so when `TraceEvent.Kind` gains a case (task allowances, expirations, terminations)
/// the compiler stops here: map the new case to an existing mark, or to ``other`` (a grey diamond
/// whose hover text is the event's name, reason and code) until it deserves its own shape.
enum TimelineMark: Sendable, Hashable {
    /// The lane's state band changes colour from this instant.
    case state(ApplicationState)
    /// A delegate callback: a dark triangle above the band.
    case callback
    /// The process ended: a vermilion cross on the band.
    case exit
    /// A finite background task began or ended, an activity started or stopped, or an event or
    /// notification was delivered: a small blue tick above the band.
    case task
    /// A task's expiration handler was called: an amber bar across the band.
    case expiration
    /// The background allowance started: drawn as a bar under the band until it runs out or the app
    /// leaves the background (the renderer draws the bar; the mark itself is only hover text).
    case allowance
    /// Any other decision the system records: a grey diamond above the band.
    case other

    /// The mark for a trace event.
    init(_ kind: TraceEvent.Kind) {
        switch kind {
        case .stateChange(let state, _): self = .state(state)
        case .callback, .sceneCallback: self = .callback
        case .exit: self = .exit
        case .backgroundTaskBegan, .backgroundTaskEnded: self = .task
        case .expirationHandlerCalled: self = .expiration
        case .allowanceStarted: self = .allowance
        case .activityStarted, .activityStopped, .eventDelivered, .keepAliveHandlerCalled, .voipCallReported,
             .notificationDelivered, .fetchStarted, .fetchCompleted, .remoteNotificationCompleted, .taskStarted,
             .taskCompleted: self = .task
        case .taskExpired: self = .expiration
        case .eventWindowStarted: self = .allowance
        case .workDropped, .killedMidCallback, .backgroundTimeRemainingRead, .backgroundTaskDenied, .backgroundTaskEndIgnored, .backgroundTaskOpenTooLong,
             .activityDenied, .eventQueued, .eventDropped, .notificationQueued, .fetchCompletionIgnored, .fetchSkipped,
             .taskRegistered, .taskRegistrationRejected, .taskSubmitted, .taskSubmitRejected, .taskRequestCancelled, .taskQueued, .taskProgress,
             .taskDropped, .taskCompletionIgnored, .deviceChanged, .fileLockAcquired, .fileLockReleased, .regionMonitoringFailed:
            self = .other
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
    /// The colour of marks for other events.
    static let otherColour = "#777777"
    /// The colour of task ticks.
    static let taskColour = "#0072b2"
    /// The colour of expiration marks.
    static let expirationColour = "#e69f00"
    /// The colour of allowance bars.
    static let allowanceColour = "#cc79a7"
}
