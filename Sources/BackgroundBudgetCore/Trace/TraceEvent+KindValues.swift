import BudgetTime

extension TraceEvent.Kind {
    /// What a ``callback(_:)`` kind carries; `nil` for any other kind.
    public var callback: AppCallback? {
        if case .callback(let v0) = base { v0 } else { nil }
    }

    /// What a ``sceneCallback(_:scene:)`` kind carries; `nil` for any other kind.
    public var sceneCallback: (SceneCallback, scene: SceneID)? {
        if case .sceneCallback(let v0, let v1) = base { (v0, scene: v1) } else { nil }
    }

    /// What a ``stateChange(_:cause:)`` kind carries; `nil` for any other kind.
    public var stateChange: (ApplicationState, cause: LifecycleEvent)? {
        if case .stateChange(let v0, let v1) = base { (v0, cause: v1) } else { nil }
    }

    /// What an ``exit(_:code:)`` kind carries; `nil` for any other kind.
    public var exit: (TerminationReason, code: UInt32?)? {
        if case .exit(let v0, let v1) = base { (v0, code: v1) } else { nil }
    }

    /// What a ``killedMidCallback(_:)`` kind carries; `nil` for any other kind.
    public var killedMidCallback: AppCallback? {
        if case .killedMidCallback(let v0) = base { v0 } else { nil }
    }

    /// What a ``workDropped(count:)`` kind carries; `nil` for any other kind.
    public var workDropped: Int? {
        if case .workDropped(let v0) = base { v0 } else { nil }
    }

    /// What a ``backgroundTaskBegan(_:name:)`` kind carries; `nil` for any other kind.
    public var backgroundTaskBegan: (BackgroundTaskIdentifier, name: String?)? {
        if case .backgroundTaskBegan(let v0, let v1) = base { (v0, name: v1) } else { nil }
    }

    /// What a ``backgroundTaskDenied(name:_:)`` kind carries; `nil` for any other kind.
    public var backgroundTaskDenied: (name: String?, BackgroundTaskDenial)? {
        if case .backgroundTaskDenied(let v0, let v1) = base { (name: v0, v1) } else { nil }
    }

    /// What a ``backgroundTaskEnded(_:)`` kind carries; `nil` for any other kind.
    public var backgroundTaskEnded: BackgroundTaskIdentifier? {
        if case .backgroundTaskEnded(let v0) = base { v0 } else { nil }
    }

    /// What a ``backgroundTaskEndIgnored(_:_:)`` kind carries; `nil` for any other kind.
    public var backgroundTaskEndIgnored: (BackgroundTaskIdentifier, BackgroundTaskEndProblem)? {
        if case .backgroundTaskEndIgnored(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// What an ``allowanceStarted(expiresAt:)`` kind carries; `nil` for any other kind.
    public var allowanceStarted: BudgetInstant? {
        if case .allowanceStarted(let v0) = base { v0 } else { nil }
    }

    /// What a ``backgroundTimeRemainingRead(_:)`` kind carries; `nil` for any other kind.
    public var backgroundTimeRemainingRead: Duration?? {
        if case .backgroundTimeRemainingRead(let v0) = base { v0 } else { nil }
    }

    /// What an ``expirationHandlerCalled(_:)`` kind carries; `nil` for any other kind.
    public var expirationHandlerCalled: BackgroundTaskIdentifier? {
        if case .expirationHandlerCalled(let v0) = base { v0 } else { nil }
    }

    /// What a ``backgroundTaskOpenTooLong(_:)`` kind carries; `nil` for any other kind.
    public var backgroundTaskOpenTooLong: BackgroundTaskIdentifier? {
        if case .backgroundTaskOpenTooLong(let v0) = base { v0 } else { nil }
    }

    /// What an ``activityStarted(_:)`` kind carries; `nil` for any other kind.
    public var activityStarted: BackgroundActivity? {
        if case .activityStarted(let v0) = base { v0 } else { nil }
    }

    /// What an ``activityStopped(_:)`` kind carries; `nil` for any other kind.
    public var activityStopped: BackgroundActivity? {
        if case .activityStopped(let v0) = base { v0 } else { nil }
    }

    /// What an ``activityDenied(_:_:)`` kind carries; `nil` for any other kind.
    public var activityDenied: (BackgroundActivity, ActivityDenial)? {
        if case .activityDenied(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// What an ``eventDelivered(_:)`` kind carries; `nil` for any other kind.
    public var eventDelivered: BackgroundEvent? {
        if case .eventDelivered(let v0) = base { v0 } else { nil }
    }

    /// What an ``eventQueued(_:)`` kind carries; `nil` for any other kind.
    public var eventQueued: BackgroundEvent? {
        if case .eventQueued(let v0) = base { v0 } else { nil }
    }

    /// What an ``eventDropped(_:_:)`` kind carries; `nil` for any other kind.
    public var eventDropped: (BackgroundEvent, EventDropReason)? {
        if case .eventDropped(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// What an ``eventWindowStarted(until:)`` kind carries; `nil` for any other kind.
    public var eventWindowStarted: BudgetInstant? {
        if case .eventWindowStarted(let v0) = base { v0 } else { nil }
    }

    /// What a ``remoteNotificationCompleted(_:)`` kind carries; `nil` for any other kind.
    public var remoteNotificationCompleted: BackgroundFetchResult? {
        if case .remoteNotificationCompleted(let v0) = base { v0 } else { nil }
    }

    /// What a ``notificationDelivered(_:)`` kind carries; `nil` for any other kind.
    public var notificationDelivered: SystemNotification? {
        if case .notificationDelivered(let v0) = base { v0 } else { nil }
    }

    /// What a ``notificationQueued(_:)`` kind carries; `nil` for any other kind.
    public var notificationQueued: SystemNotification? {
        if case .notificationQueued(let v0) = base { v0 } else { nil }
    }

    /// What a ``fetchCompleted(_:)`` kind carries; `nil` for any other kind.
    public var fetchCompleted: BackgroundFetchResult? {
        if case .fetchCompleted(let v0) = base { v0 } else { nil }
    }

    /// What a ``fetchCompletionIgnored(_:)`` kind carries; `nil` for any other kind.
    public var fetchCompletionIgnored: BackgroundFetchResult? {
        if case .fetchCompletionIgnored(let v0) = base { v0 } else { nil }
    }

    /// What a ``fetchSkipped(_:)`` kind carries; `nil` for any other kind.
    public var fetchSkipped: FetchSkipReason? {
        if case .fetchSkipped(let v0) = base { v0 } else { nil }
    }

    /// What a ``taskRegistered(_:)`` kind carries; `nil` for any other kind.
    public var taskRegistered: String? {
        if case .taskRegistered(let v0) = base { v0 } else { nil }
    }

    /// What a ``taskRegistrationRejected(_:_:)`` kind carries; `nil` for any other kind.
    public var taskRegistrationRejected: (String, TaskRegistrationRejection)? {
        if case .taskRegistrationRejected(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// What a ``taskSubmitted(_:)`` kind carries; `nil` for any other kind.
    public var taskSubmitted: String? {
        if case .taskSubmitted(let v0) = base { v0 } else { nil }
    }

    /// What a ``taskSubmitRejected(_:_:)`` kind carries; `nil` for any other kind.
    public var taskSubmitRejected: (String, TaskSchedulerError.Code)? {
        if case .taskSubmitRejected(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// What a ``taskRequestCancelled(_:)`` kind carries; `nil` for any other kind.
    public var taskRequestCancelled: String? {
        if case .taskRequestCancelled(let v0) = base { v0 } else { nil }
    }

    /// What a ``taskQueued(_:)`` kind carries; `nil` for any other kind.
    public var taskQueued: String? {
        if case .taskQueued(let v0) = base { v0 } else { nil }
    }

    /// What a ``taskProgress(_:completed:total:)`` kind carries; `nil` for any other kind.
    public var taskProgress: (String, completed: Int64, total: Int64)? {
        if case .taskProgress(let v0, let v1, let v2) = base { (v0, completed: v1, total: v2) } else { nil }
    }

    /// What a ``taskStarted(_:)`` kind carries; `nil` for any other kind.
    public var taskStarted: String? {
        if case .taskStarted(let v0) = base { v0 } else { nil }
    }

    /// What a ``taskDropped(_:)`` kind carries; `nil` for any other kind.
    public var taskDropped: String? {
        if case .taskDropped(let v0) = base { v0 } else { nil }
    }

    /// What a ``taskExpired(_:_:)`` kind carries; `nil` for any other kind.
    public var taskExpired: (String, TaskExpiryReason)? {
        if case .taskExpired(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// What a ``taskCompleted(_:_:)`` kind carries; `nil` for any other kind.
    public var taskCompleted: (String, TaskCompletion)? {
        if case .taskCompleted(let v0, let v1) = base { (v0, v1) } else { nil }
    }

    /// What a ``taskCompletionIgnored(_:)`` kind carries; `nil` for any other kind.
    public var taskCompletionIgnored: String? {
        if case .taskCompletionIgnored(let v0) = base { v0 } else { nil }
    }

    /// What a ``fileLockAcquired(_:)`` kind carries; `nil` for any other kind.
    public var fileLockAcquired: String? {
        if case .fileLockAcquired(let v0) = base { v0 } else { nil }
    }

    /// What a ``fileLockReleased(_:)`` kind carries; `nil` for any other kind.
    public var fileLockReleased: String? {
        if case .fileLockReleased(let v0) = base { v0 } else { nil }
    }

    /// What a ``regionMonitoringFailed(_:)`` kind carries; `nil` for any other kind.
    public var regionMonitoringFailed: String? {
        if case .regionMonitoringFailed(let v0) = base { v0 } else { nil }
    }

    /// What a ``deviceChanged(_:)`` kind carries; `nil` for any other kind.
    public var deviceChanged: DeviceChange? {
        if case .deviceChanged(let v0) = base { v0 } else { nil }
    }
}
