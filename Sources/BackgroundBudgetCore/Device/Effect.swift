import BudgetTime

/// What the shell must do after the core decided something. The core never performs effects itself,
/// and an effect carries identifiers and values only: the app's closures and the ``ScheduledTask``
/// objects live in the shell's tables (see ``AppClosures``), keyed by the identifiers
/// named here.
package enum Effect: Hashable, Sendable {
    /// Run steps on the app's queue, in order; then report back with `settle` if `settles`.
    case deliver(Delivery)
    /// The app is suspended: its queue stops starting work now, and the app, which runs no code, sees
    /// its state become `.suspended` without a delivery.
    case suspendQueue(AppID)
    /// Call these finite tasks' expiration handlers (those the app gave) on the app's queue, in order;
    /// then `settle`.
    case expirationHandlers(AppID, incarnation: UInt64, [BackgroundTaskIdentifier])
    /// Call the expiration handler of a `beginBackgroundTask` the system refused (the oldest the shell
    /// keeps for the app) on the app's queue, after the code that asked; then settle, timed as
    /// expiration handlers are (``BudgetPolicy/expirationHandlerLimit``) [S14][S6].
    case refusedTaskHandler(AppID, incarnation: UInt64)
    /// Run `timerFired` for this app and timer at the instant (replacing an armed one). The token
    /// identifies this arming: a firing that carries an older token is stale and ignored.
    case arm(AppID, AppTimer, at: BudgetInstant, token: UInt64)
    /// Cancel an armed timer, if any.
    case disarm(AppID, AppTimer)
    /// Resume the app (it leaves suspension) before anything else is queued: the app sees its state
    /// become `.background` (every resume enters the background first), then its queues resume, so
    /// work held while it was suspended runs in a running app, before the delivery that follows [S3].
    case resumeQueue(AppID)
    /// The app's process ended: drop its pending work and record how much was dropped, and drop every
    /// closure and task object the process gave the shell (outside the lock).
    case dropQueue(AppID)
    /// Deliver a memory warning on the app's queue; then `memoryWarningHandled`.
    case memoryWarning(AppID, incarnation: UInt64)
    /// Deliver a notification to a running app on its queue; then `settle`.
    case deliverNotification(AppID, incarnation: UInt64, SystemNotification)
    /// Deliver a background event on the app's queue; then `eventHandled`.
    case deliverEvent(AppID, incarnation: UInt64, BackgroundEvent)
    /// Call the delegate's fetch method on the app's queue, with a completion for fetch `fetch`; then `settle`.
    case performFetch(AppID, incarnation: UInt64, fetch: UInt64)
    /// Make the task object, keep it by number, and call the registered launch handler with it on the
    /// app's queue (or report that none is registered); then `settle`.
    case runScheduledTask(AppID, incarnation: UInt64, ScheduledTaskRef)
    /// Call the running task's expiration handler (taking it) on the app's queue; then `settle`.
    case scheduledTaskExpiration(AppID, incarnation: UInt64, task: UInt64)
    /// Run the VoIP keep-alive handler on the app's queue; then `keepAliveHandlerReturned` (which settles).
    case keepAliveHandler(AppID, incarnation: UInt64)
    /// The finite task ended: drop its expiration handler (outside the lock).
    case releaseExpirationHandler(AppID, BackgroundTaskIdentifier)
    /// The keep-alive handler was cleared: drop it (outside the lock).
    case releaseKeepAliveHandler(AppID)
    /// The `BGTaskScheduler` task ended: drop the task object and its expiration handler (outside the
    /// lock; the handler usually captures the task, so taking it breaks the cycle).
    case releaseScheduledTask(AppID, task: UInt64)
}
