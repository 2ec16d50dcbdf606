import BudgetTime

extension TraceEvent.Kind {
    /// Which case a ``TraceEvent/Kind`` is, without its values: a typed stand-in for
    /// ``TraceEvent/eventName`` strings, so a misspelt kind does not compile. The *Trace format*
    /// article lists every tag with the JSON `event` name its entries carry (`expirationHandlerCalled`
    /// is written `expirationHandler`, `fetchStarted` is `performFetch`).
    ///
    /// The tags grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`:
    ///
    /// ```swift
    /// switch tag {
    /// case .callback: print("callback")
    /// default: print(tag)   // its name
    /// }
    /// ```
    ///
    /// ```swift
    /// #expect(system.trace.instants(of: .expirationHandlerCalled) == [.seconds(25)])
    /// #expect(TraceEvent.Kind.fetchStarted.tag == .fetchStarted)
    /// ```
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Tag: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The `callback` case.
        case callback
        /// The `sceneCallback` case.
        case sceneCallback
        /// The `stateChange` case.
        case stateChange
        /// The `exit` case.
        case exit
        /// The `killedMidCallback` case.
        case killedMidCallback
        /// The `killedMidSceneCallback` case.
        case killedMidSceneCallback
        /// The `workDropped` case.
        case workDropped
        /// The `backgroundTaskBegan` case.
        case backgroundTaskBegan
        /// The `backgroundTaskDenied` case.
        case backgroundTaskDenied
        /// The `backgroundTaskEnded` case.
        case backgroundTaskEnded
        /// The `backgroundTaskEndIgnored` case.
        case backgroundTaskEndIgnored
        /// The `allowanceStarted` case.
        case allowanceStarted
        /// The `backgroundTimeRemainingRead` case.
        case backgroundTimeRemainingRead
        /// The `expirationHandlerCalled` case.
        case expirationHandlerCalled
        /// The `backgroundTaskOpenTooLong` case.
        case backgroundTaskOpenTooLong
        /// The `activityStarted` case.
        case activityStarted
        /// The `activityStopped` case.
        case activityStopped
        /// The `activityDenied` case.
        case activityDenied
        /// The `eventDelivered` case.
        case eventDelivered
        /// The `eventQueued` case.
        case eventQueued
        /// The `eventDropped` case.
        case eventDropped
        /// The `eventWindowStarted` case.
        case eventWindowStarted
        /// The `remoteNotificationCompleted` case.
        case remoteNotificationCompleted
        /// The `voipCallReported` case.
        case voipCallReported
        /// The `keepAliveHandlerCalled` case.
        case keepAliveHandlerCalled
        /// The `notificationDelivered` case.
        case notificationDelivered
        /// The `notificationQueued` case.
        case notificationQueued
        /// The `fetchStarted` case.
        case fetchStarted
        /// The `fetchCompleted` case.
        case fetchCompleted
        /// The `fetchCompletionIgnored` case.
        case fetchCompletionIgnored
        /// The `fetchSkipped` case.
        case fetchSkipped
        /// The `taskRegistered` case.
        case taskRegistered
        /// The `taskRegistrationRejected` case.
        case taskRegistrationRejected
        /// The `taskSubmitted` case.
        case taskSubmitted
        /// The `taskSubmitRejected` case.
        case taskSubmitRejected
        /// The `taskRequestCancelled` case.
        case taskRequestCancelled
        /// The `taskQueued` case.
        case taskQueued
        /// The `taskProgress` case.
        case taskProgress
        /// The `taskStarted` case.
        case taskStarted
        /// The `taskDropped` case.
        case taskDropped
        /// The `launchHandlerMissing` case.
        case launchHandlerMissing
        /// The `taskExpired` case.
        case taskExpired
        /// The `taskCompleted` case.
        case taskCompleted
        /// The `taskCompletionIgnored` case.
        case taskCompletionIgnored
        /// The `deviceChanged` case.
        case deviceChanged
        /// The `fileLockAcquired` case.
        case fileLockAcquired
        /// The `fileLockReleased` case.
        case fileLockReleased
        /// The `regionMonitoringFailed` case.
        case regionMonitoringFailed
        /// The `notificationObserved` case.
        case notificationObserved
        /// The `restorationActivityRead` case.
        case restorationActivityRead

        /// The case's name, e.g. `expirationHandlerCalled`.
        public var description: String { rawValue }
    }

    /// Which case this is.
    ///
    /// ```swift
    /// #expect(event.kind.tag == .stateChange)
    /// ```
    public var tag: Tag {
        switch self {
        case .callback: .callback
        case .sceneCallback: .sceneCallback
        case .stateChange: .stateChange
        case .exit: .exit
        case .killedMidCallback: .killedMidCallback
        case .killedMidSceneCallback: .killedMidSceneCallback
        case .workDropped: .workDropped
        case .backgroundTaskBegan: .backgroundTaskBegan
        case .backgroundTaskDenied: .backgroundTaskDenied
        case .backgroundTaskEnded: .backgroundTaskEnded
        case .backgroundTaskEndIgnored: .backgroundTaskEndIgnored
        case .allowanceStarted: .allowanceStarted
        case .backgroundTimeRemainingRead: .backgroundTimeRemainingRead
        case .expirationHandlerCalled: .expirationHandlerCalled
        case .backgroundTaskOpenTooLong: .backgroundTaskOpenTooLong
        case .activityStarted: .activityStarted
        case .activityStopped: .activityStopped
        case .activityDenied: .activityDenied
        case .eventDelivered: .eventDelivered
        case .eventQueued: .eventQueued
        case .eventDropped: .eventDropped
        case .eventWindowStarted: .eventWindowStarted
        case .remoteNotificationCompleted: .remoteNotificationCompleted
        case .voipCallReported: .voipCallReported
        case .keepAliveHandlerCalled: .keepAliveHandlerCalled
        case .notificationDelivered: .notificationDelivered
        case .notificationQueued: .notificationQueued
        case .fetchStarted: .fetchStarted
        case .fetchCompleted: .fetchCompleted
        case .fetchCompletionIgnored: .fetchCompletionIgnored
        case .fetchSkipped: .fetchSkipped
        case .taskRegistered: .taskRegistered
        case .taskRegistrationRejected: .taskRegistrationRejected
        case .taskSubmitted: .taskSubmitted
        case .taskSubmitRejected: .taskSubmitRejected
        case .taskRequestCancelled: .taskRequestCancelled
        case .taskQueued: .taskQueued
        case .taskProgress: .taskProgress
        case .taskStarted: .taskStarted
        case .taskDropped: .taskDropped
        case .launchHandlerMissing: .launchHandlerMissing
        case .taskExpired: .taskExpired
        case .taskCompleted: .taskCompleted
        case .taskCompletionIgnored: .taskCompletionIgnored
        case .deviceChanged: .deviceChanged
        case .fileLockAcquired: .fileLockAcquired
        case .fileLockReleased: .fileLockReleased
        case .regionMonitoringFailed: .regionMonitoringFailed
        case .notificationObserved: .notificationObserved
        case .restorationActivityRead: .restorationActivityRead
        }
    }
}
