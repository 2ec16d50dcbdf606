import BudgetTime

extension TraceEvent {
    /// What happened.
    ///
    /// The kinds grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or
    /// in the `switch`:
    ///
    /// ```swift
    /// if case .exit(let reason, let code) = event.kind { print(reason, code as Any) }
    /// let dropped = trace.events.compactMap { if case .workDropped(let count) = $0.kind { count } else { nil } }
    /// ```
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Kind: Sendable, Hashable {
        /// The system called a delegate method.
        case callback(AppCallback)
        /// The system called a scene delegate method for one scene (scene-based apps); JSON: the
        /// selector without its colon as `event`, the scene's session as `name`.
        case sceneCallback(SceneCallback, scene: SceneID)
        /// The app's state changed because of an event; the event is the reason.
        case stateChange(ApplicationState, cause: LifecycleEvent)
        /// The app's process exited (a decision with a reason and, for kills, a termination code).
        case exit(TerminationReason, code: UInt32?)
        /// The process ended while a delegate callback was running (recorded once, right after the
        /// `exit`): the rest of the callback, and everything the process's code does afterwards, has no
        /// effect and no trace entry.
        case killedMidCallback(AppCallback)
        /// The process ended while a scene delegate callback was running (recorded once, right after
        /// the `exit`, as ``killedMidCallback(_:)`` is for the app delegate's); JSON: `name` is the
        /// callback's selector (`sceneDidEnterBackground`), the scene is the one of the app's last
        /// `sceneCallback` entry.
        case killedMidSceneCallback(SceneCallback, scene: SceneID)
        /// Pending work on the app's queue was dropped because the app stopped running.
        case workDropped(count: Int)
        /// `beginBackgroundTask` granted a task.
        case backgroundTaskBegan(BackgroundTaskIdentifier, name: String?)
        /// `beginBackgroundTask` returned `.invalid`, for a reason.
        case backgroundTaskDenied(name: String?, BackgroundTaskDenial)
        /// `endBackgroundTask` ended an open task.
        case backgroundTaskEnded(BackgroundTaskIdentifier)
        /// `endBackgroundTask` did nothing, for a reason.
        case backgroundTaskEndIgnored(BackgroundTaskIdentifier, BackgroundTaskEndProblem)
        /// The background allowance started running; it runs out at the instant given.
        case allowanceStarted(expiresAt: BudgetInstant)
        /// The app read its remaining background time (`backgroundTimeRemaining`): the time left in
        /// its allowance, or `nil` in the foreground, where it is unbounded.
        case backgroundTimeRemainingRead(Duration?)
        /// A task's expiration handler was called (once per task).
        case expirationHandlerCalled(BackgroundTaskIdentifier)
        /// A task begun in the foreground has been open longer than the allowance: it would be
        /// killed if the app went to the background now.
        case backgroundTaskOpenTooLong(BackgroundTaskIdentifier)
        /// A continuous activity started; with its mode declared it keeps a background app running.
        case activityStarted(BackgroundActivity)
        /// A continuous activity stopped.
        case activityStopped(BackgroundActivity)
        /// A continuous activity was refused, for a reason.
        case activityDenied(BackgroundActivity, ActivityDenial)
        /// A system event was delivered to the app (launching or waking it if needed).
        case eventDelivered(BackgroundEvent)
        /// A system event is held until the app next runs.
        case eventQueued(BackgroundEvent)
        /// A system event was not delivered, for a reason.
        case eventDropped(BackgroundEvent, EventDropReason)
        /// The app may run in the background until the instant given, to handle an event.
        case eventWindowStarted(until: BudgetInstant)
        /// The app called a silent push's completion handler with a result; its event window, if one
        /// was open, ended then.
        case remoteNotificationCompleted(BackgroundFetchResult)
        /// The app reported an incoming call for a VoIP push.
        case voipCallReported
        /// The legacy VoIP keep-alive handler was called.
        case keepAliveHandlerCalled
        /// A system notification was delivered to the app.
        case notificationDelivered(SystemNotification)
        /// A system notification was queued (coalesced by kind) for a suspended app.
        case notificationQueued(SystemNotification)
        /// A background fetch started (`performFetchWithCompletionHandler` is called).
        case fetchStarted
        /// The app called its fetch completion handler with a result.
        case fetchCompleted(BackgroundFetchResult)
        /// A fetch completion handler was called again, or after its fetch ended; ignored.
        case fetchCompletionIgnored(BackgroundFetchResult)
        /// A fetch opportunity passed without a fetch, for a reason.
        case fetchSkipped(FetchSkipReason)
        /// A `BGTaskScheduler` launch handler was registered for the identifier.
        case taskRegistered(String)
        /// Registering a launch handler returned `false` (or terminated the app), for a reason.
        case taskRegistrationRejected(String, TaskRegistrationRejection)
        /// A task request was submitted (replacing a pending one with the same identifier).
        case taskSubmitted(String)
        /// `submit` threw, with the error code.
        case taskSubmitRejected(String, TaskSchedulerError.Code)
        /// A pending task request was cancelled.
        case taskRequestCancelled(String)
        /// A continued-processing request could not start at once and waits in the system's queue.
        case taskQueued(String)
        /// A running task reported its progress (units completed of a total; 0 total while unknown).
        case taskProgress(String, completed: Int64, total: Int64)
        /// A task request started running: its launch handler is called on the app's queue.
        case taskStarted(String)
        /// A task started with no launch handler registered: it was dropped.
        case taskDropped(String)
        /// The app submitted a request, or the system launched a task, for an identifier with no launch
        /// handler registered in the app's process: `BGTaskScheduler` raises
        /// `NSInternalInconsistencyException` and the app crashes (the `exit` follows)
        /// (``BudgetPolicy/crashesWithoutLaunchHandler``).
        case launchHandlerMissing(String)
        /// The system expired a running task: its expiration handler is called.
        case taskExpired(String, TaskExpiryReason)
        /// A running task ended, as the app or the system completed it.
        case taskCompleted(String, TaskCompletion)
        /// `setTaskCompleted` was called again, or after the task ended; ignored.
        case taskCompletionIgnored(String)
        /// The app took a file lock (an `flock`, an SQLite database lock) on the path; suspended while
        /// it holds one, it is killed (`0xdead10cc`).
        case fileLockAcquired(String)
        /// The app released its file lock on the path.
        case fileLockReleased(String)
        /// Monitoring the region failed: the app already monitors ``BudgetPolicy/maxMonitoredRegions``
        /// regions (Core Location's `monitoringDidFailFor` with `regionMonitoringFailure`).
        case regionMonitoringFailed(String)
        /// A device setting or condition changed: recorded on ``AppID/device``, or on the app for the
        /// app's own Background App Refresh switch.
        case deviceChanged(DeviceChange)
        /// The system posted a lifecycle notification (`UIApplication.didEnterBackgroundNotification`,
        /// a `UIScene` notification, `NSProcessInfoPowerStateDidChangeNotification`, …) and that many
        /// of the app's observers ran; recorded only when at least one did. JSON: the notification's
        /// name as `name`, the observers as `count`.
        case notificationObserved(String, observers: Int)
        /// A scene's code read what its session carries for state restoration
        /// (`UISceneSession.stateRestorationActivity`): the activity type, or `nil` when the session
        /// carries none. JSON: the scene's session as `name`, the type as `activityType` (`null` for none).
        case restorationActivityRead(activityType: String?, scene: SceneID)
    }
}

extension TraceEvent.Kind {
    /// The message of the exception `BGTaskScheduler` raises for an identifier without a launch
    /// handler, as crash reports show it [S105][S107].
    /// - Parameter identifier: The task identifier.
    public static func launchHandlerMissingMessage(_ identifier: String) -> String {
        "No launch handler registered for task with identifier \(identifier)"
    }
}
