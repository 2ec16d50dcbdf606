/// A timer the core asks its shell to run for one app.
enum AppTimer: Hashable, Sendable, CaseIterable {
    /// The expiration handlers are due (allowance − lead).
    case expirationWarning
    /// The allowance runs out.
    case allowanceExpiry
    /// A callback with a time limit has been running too long.
    case watchdog
    /// The oldest task begun in the foreground is about to outlive the allowance.
    case foregroundOverrun
    /// The short run time granted for a background event ends.
    case eventWindow
    /// The legacy VoIP keep-alive handler is due.
    case voipKeepAlive
    /// A background fetch opportunity.
    case fetchOpportunity
    /// A running fetch must have completed.
    case fetchDeadline
    /// A pending `BGTaskScheduler` request's earliest instant passed (system-scoped, like the fetch plan).
    case taskRequestDue
    /// A running `BGTaskScheduler` task's next deadline (warning, expiry, end).
    case taskDeadline
}

/// What the shell must do after the core decided something. The core never performs effects itself.
enum Effect: Sendable {
    /// Run steps on the app's queue, in order; then report back with `settle` if `settles`.
    case deliver(Delivery)
    /// Call these tasks' expiration handlers on the app's queue, in order; then `settle`.
    case expirationHandlers(AppID, incarnation: UInt64, [(BackgroundTaskIdentifier, (@Sendable () -> Void)?)])
    /// Run `timerFired` for this app and timer at the instant (replacing an armed one). The token
    /// identifies this arming: a firing that carries an older token is stale and ignored.
    case arm(AppID, AppTimer, at: BudgetInstant, token: UInt64)
    /// Cancel an armed timer, if any.
    case disarm(AppID, AppTimer)
    /// Resume the app's queue (it leaves suspension) before anything else is queued.
    case resumeQueue(AppID)
    /// The app stopped running: drop its pending work and record how much was dropped.
    case dropQueue(AppID)
    /// Deliver a memory warning on the app's queue; then `memoryWarningHandled`.
    case memoryWarning(AppID, incarnation: UInt64)
    /// Deliver a notification to a running app on its queue; then `settle`.
    case deliverNotification(AppID, incarnation: UInt64, SystemNotification)
    /// Deliver a background event on the app's queue; then `eventHandled`.
    case deliverEvent(AppID, incarnation: UInt64, BackgroundEvent)
    /// Call the delegate's fetch method on the app's queue, with a completion for fetch `fetch`; then `settle`.
    case performFetch(AppID, incarnation: UInt64, fetch: UInt64)
    /// Call the registered launch handler with the task on the app's queue (or report that none is
    /// registered); then `settle`.
    case runScheduledTask(AppID, incarnation: UInt64, ScheduledTask)
    /// Call the task's expiration handler (taking it) on the app's queue; then `settle`.
    case scheduledTaskExpiration(AppID, incarnation: UInt64, ScheduledTask)
    /// Run the VoIP keep-alive handler on the app's queue; then `settle`.
    case keepAliveHandler(AppID, incarnation: UInt64, @Sendable () -> Void)
}

extension Effect {
    /// Whether this effect resumes or drops the app's queue (it must precede deliveries).
    var isQueueControl: Bool {
        switch self {
        case .resumeQueue, .dropQueue: true
        default: false
        }
    }
}

/// Steps the system has decided for one app, to be delivered on that app's queue in order.
struct Delivery: Sendable {
    /// The app.
    var app: AppID
    /// The app's incarnation (launch count) the steps belong to.
    var incarnation: UInt64
    /// The event that caused the steps (it carries the launch reason for launch options).
    var event: LifecycleEvent
    /// The steps, in order.
    var steps: [LifecycleStep]
    /// Whether the shell reports back with `settle` once the steps have run (they contain callbacks).
    var settles: Bool
}
