import BudgetTime

extension TraceEvent {
    /// What happened.
    ///
    /// The kinds grow as the model does, so this is a struct with a static member (a static function for one with
    /// values) per kind rather than an enum: a new one is not a breaking change. Compare with `==`, or match in a
    /// `switch` that has a `default`; read a kind's values through the property of its name.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The kinds the model knows, with their values, for the package's own exhaustive switches.
        package enum Base: Sendable, Hashable {
            case callback(AppCallback)
            case sceneCallback(SceneCallback, scene: SceneID)
            case stateChange(ApplicationState, cause: LifecycleEvent)
            case exit(TerminationReason, code: UInt32?)
            case killedMidCallback(AppCallback)
            case workDropped(count: Int)
            case backgroundTaskBegan(BackgroundTaskIdentifier, name: String?)
            case backgroundTaskDenied(name: String?, BackgroundTaskDenial)
            case backgroundTaskEnded(BackgroundTaskIdentifier)
            case backgroundTaskEndIgnored(BackgroundTaskIdentifier, BackgroundTaskEndProblem)
            case allowanceStarted(expiresAt: BudgetInstant)
            case backgroundTimeRemainingRead(Duration?)
            case expirationHandlerCalled(BackgroundTaskIdentifier)
            case backgroundTaskOpenTooLong(BackgroundTaskIdentifier)
            case activityStarted(BackgroundActivity)
            case activityStopped(BackgroundActivity)
            case activityDenied(BackgroundActivity, ActivityDenial)
            case eventDelivered(BackgroundEvent)
            case eventQueued(BackgroundEvent)
            case eventDropped(BackgroundEvent, EventDropReason)
            case eventWindowStarted(until: BudgetInstant)
            case remoteNotificationCompleted(BackgroundFetchResult)
            case voipCallReported
            case keepAliveHandlerCalled
            case notificationDelivered(SystemNotification)
            case notificationQueued(SystemNotification)
            case fetchStarted
            case fetchCompleted(BackgroundFetchResult)
            case fetchCompletionIgnored(BackgroundFetchResult)
            case fetchSkipped(FetchSkipReason)
            case taskRegistered(String)
            case taskRegistrationRejected(String, TaskRegistrationRejection)
            case taskSubmitted(String)
            case taskSubmitRejected(String, TaskSchedulerError.Code)
            case taskRequestCancelled(String)
            case taskQueued(String)
            case taskProgress(String, completed: Int64, total: Int64)
            case taskStarted(String)
            case taskDropped(String)
            case taskExpired(String, TaskExpiryReason)
            case taskCompleted(String, TaskCompletion)
            case taskCompletionIgnored(String)
            case fileLockAcquired(String)
            case fileLockReleased(String)
            case regionMonitoringFailed(String)
            case deviceChanged(DeviceChange)
        }

        /// The kind, for the package's own exhaustive switches.
        package let base: Base

        package init(_ base: Base) { self.base = base }

        /// The system called a delegate method.
        public static func callback(_ appCallback: AppCallback) -> Kind { Kind(.callback(appCallback)) }

        /// The system called a scene delegate method for one scene (scene-based apps); JSON: the
        /// selector without its colon as `event`, the scene's session as `name`.
        public static func sceneCallback(_ sceneCallback: SceneCallback, scene: SceneID) -> Kind {
            Kind(.sceneCallback(sceneCallback, scene: scene))
        }

        /// The app's state changed because of an event; the event is the reason.
        public static func stateChange(_ applicationState: ApplicationState, cause: LifecycleEvent) -> Kind {
            Kind(.stateChange(applicationState, cause: cause))
        }

        /// The app's process exited (a decision with a reason and, for kills, a termination code).
        public static func exit(_ terminationReason: TerminationReason, code: UInt32?) -> Kind {
            Kind(.exit(terminationReason, code: code))
        }

        /// The process ended while a delegate callback was running (recorded once, right after the
        /// `exit`): the rest of the callback, and everything the process's code does afterwards, has no
        /// effect and no trace entry.
        public static func killedMidCallback(_ appCallback: AppCallback) -> Kind {
            Kind(.killedMidCallback(appCallback))
        }

        /// Pending work on the app's queue was dropped because the app stopped running.
        public static func workDropped(count: Int) -> Kind { Kind(.workDropped(count: count)) }

        /// `beginBackgroundTask` granted a task.
        public static func backgroundTaskBegan(_ backgroundTaskIdentifier: BackgroundTaskIdentifier, name: String?) -> Kind {
            Kind(.backgroundTaskBegan(backgroundTaskIdentifier, name: name))
        }

        /// `beginBackgroundTask` returned `.invalid`, for a reason.
        public static func backgroundTaskDenied(name: String?, _ backgroundTaskDenial: BackgroundTaskDenial) -> Kind {
            Kind(.backgroundTaskDenied(name: name, backgroundTaskDenial))
        }

        /// `endBackgroundTask` ended an open task.
        public static func backgroundTaskEnded(_ backgroundTaskIdentifier: BackgroundTaskIdentifier) -> Kind {
            Kind(.backgroundTaskEnded(backgroundTaskIdentifier))
        }

        /// `endBackgroundTask` did nothing, for a reason.
        public static func backgroundTaskEndIgnored(_ backgroundTaskIdentifier: BackgroundTaskIdentifier, _ backgroundTaskEndProblem: BackgroundTaskEndProblem) -> Kind {
            Kind(.backgroundTaskEndIgnored(backgroundTaskIdentifier, backgroundTaskEndProblem))
        }

        /// The background allowance started running; it runs out at the instant given.
        public static func allowanceStarted(expiresAt: BudgetInstant) -> Kind {
            Kind(.allowanceStarted(expiresAt: expiresAt))
        }

        /// The app read its remaining background time (`backgroundTimeRemaining`): the time left in
        /// its allowance, or `nil` in the foreground, where it is unbounded.
        public static func backgroundTimeRemainingRead(_ duration: Duration?) -> Kind {
            Kind(.backgroundTimeRemainingRead(duration))
        }

        /// A task's expiration handler was called (once per task).
        public static func expirationHandlerCalled(_ backgroundTaskIdentifier: BackgroundTaskIdentifier) -> Kind {
            Kind(.expirationHandlerCalled(backgroundTaskIdentifier))
        }

        /// A task begun in the foreground has been open longer than the allowance: it would be
        /// killed if the app went to the background now.
        public static func backgroundTaskOpenTooLong(_ backgroundTaskIdentifier: BackgroundTaskIdentifier) -> Kind {
            Kind(.backgroundTaskOpenTooLong(backgroundTaskIdentifier))
        }

        /// A continuous activity started; with its mode declared it keeps a background app running.
        public static func activityStarted(_ backgroundActivity: BackgroundActivity) -> Kind {
            Kind(.activityStarted(backgroundActivity))
        }

        /// A continuous activity stopped.
        public static func activityStopped(_ backgroundActivity: BackgroundActivity) -> Kind {
            Kind(.activityStopped(backgroundActivity))
        }

        /// A continuous activity was refused, for a reason.
        public static func activityDenied(_ backgroundActivity: BackgroundActivity, _ activityDenial: ActivityDenial) -> Kind {
            Kind(.activityDenied(backgroundActivity, activityDenial))
        }

        /// A system event was delivered to the app (launching or waking it if needed).
        public static func eventDelivered(_ backgroundEvent: BackgroundEvent) -> Kind {
            Kind(.eventDelivered(backgroundEvent))
        }

        /// A system event is held until the app next runs.
        public static func eventQueued(_ backgroundEvent: BackgroundEvent) -> Kind {
            Kind(.eventQueued(backgroundEvent))
        }

        /// A system event was not delivered, for a reason.
        public static func eventDropped(_ backgroundEvent: BackgroundEvent, _ eventDropReason: EventDropReason) -> Kind {
            Kind(.eventDropped(backgroundEvent, eventDropReason))
        }

        /// The app may run in the background until the instant given, to handle an event.
        public static func eventWindowStarted(until: BudgetInstant) -> Kind { Kind(.eventWindowStarted(until: until)) }

        /// The app called a silent push's completion handler with a result; its event window, if one
        /// was open, ended then.
        public static func remoteNotificationCompleted(_ backgroundFetchResult: BackgroundFetchResult) -> Kind {
            Kind(.remoteNotificationCompleted(backgroundFetchResult))
        }

        /// The app reported an incoming call for a VoIP push.
        public static let voipCallReported = Kind(.voipCallReported)
        /// The legacy VoIP keep-alive handler was called.
        public static let keepAliveHandlerCalled = Kind(.keepAliveHandlerCalled)

        /// A system notification was delivered to the app.
        public static func notificationDelivered(_ systemNotification: SystemNotification) -> Kind {
            Kind(.notificationDelivered(systemNotification))
        }

        /// A system notification was queued (coalesced by kind) for a suspended app.
        public static func notificationQueued(_ systemNotification: SystemNotification) -> Kind {
            Kind(.notificationQueued(systemNotification))
        }

        /// A background fetch started (`performFetchWithCompletionHandler` is called).
        public static let fetchStarted = Kind(.fetchStarted)

        /// The app called its fetch completion handler with a result.
        public static func fetchCompleted(_ backgroundFetchResult: BackgroundFetchResult) -> Kind {
            Kind(.fetchCompleted(backgroundFetchResult))
        }

        /// A fetch completion handler was called again, or after its fetch ended; ignored.
        public static func fetchCompletionIgnored(_ backgroundFetchResult: BackgroundFetchResult) -> Kind {
            Kind(.fetchCompletionIgnored(backgroundFetchResult))
        }

        /// A fetch opportunity passed without a fetch, for a reason.
        public static func fetchSkipped(_ fetchSkipReason: FetchSkipReason) -> Kind {
            Kind(.fetchSkipped(fetchSkipReason))
        }

        /// A `BGTaskScheduler` launch handler was registered for the identifier.
        public static func taskRegistered(_ value: String) -> Kind { Kind(.taskRegistered(value)) }

        /// Registering a launch handler returned `false` (or terminated the app), for a reason.
        public static func taskRegistrationRejected(_ value: String, _ taskRegistrationRejection: TaskRegistrationRejection) -> Kind {
            Kind(.taskRegistrationRejected(value, taskRegistrationRejection))
        }

        /// A task request was submitted (replacing a pending one with the same identifier).
        public static func taskSubmitted(_ value: String) -> Kind { Kind(.taskSubmitted(value)) }

        /// `submit` threw, with the error code.
        public static func taskSubmitRejected(_ value: String, _ code: TaskSchedulerError.Code) -> Kind {
            Kind(.taskSubmitRejected(value, code))
        }

        /// A pending task request was cancelled.
        public static func taskRequestCancelled(_ value: String) -> Kind { Kind(.taskRequestCancelled(value)) }

        /// A continued-processing request could not start at once and waits in the system's queue.
        public static func taskQueued(_ value: String) -> Kind { Kind(.taskQueued(value)) }

        /// A running task reported its progress (units completed of a total; 0 total while unknown).
        public static func taskProgress(_ value: String, completed: Int64, total: Int64) -> Kind {
            Kind(.taskProgress(value, completed: completed, total: total))
        }

        /// A task request started running: its launch handler is called on the app's queue.
        public static func taskStarted(_ value: String) -> Kind { Kind(.taskStarted(value)) }

        /// A task started with no launch handler registered: it was dropped.
        public static func taskDropped(_ value: String) -> Kind { Kind(.taskDropped(value)) }

        /// The system expired a running task: its expiration handler is called.
        public static func taskExpired(_ value: String, _ taskExpiryReason: TaskExpiryReason) -> Kind {
            Kind(.taskExpired(value, taskExpiryReason))
        }

        /// A running task ended, as the app or the system completed it.
        public static func taskCompleted(_ value: String, _ taskCompletion: TaskCompletion) -> Kind {
            Kind(.taskCompleted(value, taskCompletion))
        }

        /// `setTaskCompleted` was called again, or after the task ended; ignored.
        public static func taskCompletionIgnored(_ value: String) -> Kind { Kind(.taskCompletionIgnored(value)) }

        /// The app took a file lock (an `flock`, an SQLite database lock) on the path; suspended while
        /// it holds one, it is killed (`0xdead10cc`).
        public static func fileLockAcquired(_ value: String) -> Kind { Kind(.fileLockAcquired(value)) }

        /// The app released its file lock on the path.
        public static func fileLockReleased(_ value: String) -> Kind { Kind(.fileLockReleased(value)) }

        /// Monitoring the region failed: the app already monitors ``BudgetPolicy/maxMonitoredRegions``
        /// regions (Core Location's `monitoringDidFailFor` with `regionMonitoringFailure`).
        public static func regionMonitoringFailed(_ value: String) -> Kind { Kind(.regionMonitoringFailed(value)) }

        /// A device setting or condition changed: recorded on ``AppID/device``, or on the app for the
        /// app's own Background App Refresh switch.
        public static func deviceChanged(_ deviceChange: DeviceChange) -> Kind { Kind(.deviceChanged(deviceChange)) }

        /// The kind's name and values, as Swift prints an enum case.
        public var description: String { "\(base)" }
    }
}
