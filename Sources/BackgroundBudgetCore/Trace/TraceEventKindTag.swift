import BudgetTime

extension TraceEvent.Kind {
    /// Which case a ``TraceEvent/Kind`` is, without its values: a typed stand-in for
    /// ``TraceEvent/eventName`` strings, so a misspelt kind does not compile. The *Trace format*
    /// article lists every tag with the JSON `event` name its entries carry (`expirationHandlerCalled`
    /// is written `expirationHandler`, `fetchStarted` is `performFetch`).
    ///
    /// The tags grow as the model does, so this is a struct with a static member per tag rather
    /// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
    /// a `default`:
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
    public struct Tag: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The tags the model knows, for the package's own exhaustive switches.
        package enum Base: String, Sendable, Hashable, CaseIterable {
            case callback
            case sceneCallback
            case stateChange
            case exit
            case killedMidCallback
            case workDropped
            case backgroundTaskBegan
            case backgroundTaskDenied
            case backgroundTaskEnded
            case backgroundTaskEndIgnored
            case allowanceStarted
            case backgroundTimeRemainingRead
            case expirationHandlerCalled
            case backgroundTaskOpenTooLong
            case activityStarted
            case activityStopped
            case activityDenied
            case eventDelivered
            case eventQueued
            case eventDropped
            case eventWindowStarted
            case remoteNotificationCompleted
            case voipCallReported
            case keepAliveHandlerCalled
            case notificationDelivered
            case notificationQueued
            case fetchStarted
            case fetchCompleted
            case fetchCompletionIgnored
            case fetchSkipped
            case taskRegistered
            case taskRegistrationRejected
            case taskSubmitted
            case taskSubmitRejected
            case taskRequestCancelled
            case taskQueued
            case taskProgress
            case taskStarted
            case taskDropped
            case taskExpired
            case taskCompleted
            case taskCompletionIgnored
            case deviceChanged
            case fileLockAcquired
            case fileLockReleased
            case regionMonitoringFailed
        }

        /// The tag, for the package's own exhaustive switches.
        package let base: Base

        package init(_ base: Base) { self.base = base }

        /// The tag's name, as traces and outside files spell it.
        public var rawValue: String { base.rawValue }

        /// The tag with that name, or `nil` for a name the model does not know.
        public init?(rawValue: String) {
            guard let base = Base(rawValue: rawValue) else { return nil }
            self.base = base
        }

        /// Every tag the model knows, in declaration order.
        public static var allCases: [Tag] { Base.allCases.map(Tag.init) }

        /// The `callback` case.
        public static let callback = Tag(Base.callback)
        /// The `sceneCallback` case.
        public static let sceneCallback = Tag(Base.sceneCallback)
        /// The `stateChange` case.
        public static let stateChange = Tag(Base.stateChange)
        /// The `exit` case.
        public static let exit = Tag(Base.exit)
        /// The `killedMidCallback` case.
        public static let killedMidCallback = Tag(Base.killedMidCallback)
        /// The `workDropped` case.
        public static let workDropped = Tag(Base.workDropped)
        /// The `backgroundTaskBegan` case.
        public static let backgroundTaskBegan = Tag(Base.backgroundTaskBegan)
        /// The `backgroundTaskDenied` case.
        public static let backgroundTaskDenied = Tag(Base.backgroundTaskDenied)
        /// The `backgroundTaskEnded` case.
        public static let backgroundTaskEnded = Tag(Base.backgroundTaskEnded)
        /// The `backgroundTaskEndIgnored` case.
        public static let backgroundTaskEndIgnored = Tag(Base.backgroundTaskEndIgnored)
        /// The `allowanceStarted` case.
        public static let allowanceStarted = Tag(Base.allowanceStarted)
        /// The `backgroundTimeRemainingRead` case.
        public static let backgroundTimeRemainingRead = Tag(Base.backgroundTimeRemainingRead)
        /// The `expirationHandlerCalled` case.
        public static let expirationHandlerCalled = Tag(Base.expirationHandlerCalled)
        /// The `backgroundTaskOpenTooLong` case.
        public static let backgroundTaskOpenTooLong = Tag(Base.backgroundTaskOpenTooLong)
        /// The `activityStarted` case.
        public static let activityStarted = Tag(Base.activityStarted)
        /// The `activityStopped` case.
        public static let activityStopped = Tag(Base.activityStopped)
        /// The `activityDenied` case.
        public static let activityDenied = Tag(Base.activityDenied)
        /// The `eventDelivered` case.
        public static let eventDelivered = Tag(Base.eventDelivered)
        /// The `eventQueued` case.
        public static let eventQueued = Tag(Base.eventQueued)
        /// The `eventDropped` case.
        public static let eventDropped = Tag(Base.eventDropped)
        /// The `eventWindowStarted` case.
        public static let eventWindowStarted = Tag(Base.eventWindowStarted)
        /// The `remoteNotificationCompleted` case.
        public static let remoteNotificationCompleted = Tag(Base.remoteNotificationCompleted)
        /// The `voipCallReported` case.
        public static let voipCallReported = Tag(Base.voipCallReported)
        /// The `keepAliveHandlerCalled` case.
        public static let keepAliveHandlerCalled = Tag(Base.keepAliveHandlerCalled)
        /// The `notificationDelivered` case.
        public static let notificationDelivered = Tag(Base.notificationDelivered)
        /// The `notificationQueued` case.
        public static let notificationQueued = Tag(Base.notificationQueued)
        /// The `fetchStarted` case.
        public static let fetchStarted = Tag(Base.fetchStarted)
        /// The `fetchCompleted` case.
        public static let fetchCompleted = Tag(Base.fetchCompleted)
        /// The `fetchCompletionIgnored` case.
        public static let fetchCompletionIgnored = Tag(Base.fetchCompletionIgnored)
        /// The `fetchSkipped` case.
        public static let fetchSkipped = Tag(Base.fetchSkipped)
        /// The `taskRegistered` case.
        public static let taskRegistered = Tag(Base.taskRegistered)
        /// The `taskRegistrationRejected` case.
        public static let taskRegistrationRejected = Tag(Base.taskRegistrationRejected)
        /// The `taskSubmitted` case.
        public static let taskSubmitted = Tag(Base.taskSubmitted)
        /// The `taskSubmitRejected` case.
        public static let taskSubmitRejected = Tag(Base.taskSubmitRejected)
        /// The `taskRequestCancelled` case.
        public static let taskRequestCancelled = Tag(Base.taskRequestCancelled)
        /// The `taskQueued` case.
        public static let taskQueued = Tag(Base.taskQueued)
        /// The `taskProgress` case.
        public static let taskProgress = Tag(Base.taskProgress)
        /// The `taskStarted` case.
        public static let taskStarted = Tag(Base.taskStarted)
        /// The `taskDropped` case.
        public static let taskDropped = Tag(Base.taskDropped)
        /// The `taskExpired` case.
        public static let taskExpired = Tag(Base.taskExpired)
        /// The `taskCompleted` case.
        public static let taskCompleted = Tag(Base.taskCompleted)
        /// The `taskCompletionIgnored` case.
        public static let taskCompletionIgnored = Tag(Base.taskCompletionIgnored)
        /// The `deviceChanged` case.
        public static let deviceChanged = Tag(Base.deviceChanged)
        /// The `fileLockAcquired` case.
        public static let fileLockAcquired = Tag(Base.fileLockAcquired)
        /// The `fileLockReleased` case.
        public static let fileLockReleased = Tag(Base.fileLockReleased)
        /// The `regionMonitoringFailed` case.
        public static let regionMonitoringFailed = Tag(Base.regionMonitoringFailed)

        /// The case's name, e.g. `expirationHandlerCalled`.
        public var description: String { rawValue }
    }

    /// Which case this is.
    ///
    /// ```swift
    /// #expect(event.kind.tag == .stateChange)
    /// ```
    public var tag: Tag {
        switch base {
        case .callback: .callback
        case .sceneCallback: .sceneCallback
        case .stateChange: .stateChange
        case .exit: .exit
        case .killedMidCallback: .killedMidCallback
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
        case .taskExpired: .taskExpired
        case .taskCompleted: .taskCompleted
        case .taskCompletionIgnored: .taskCompletionIgnored
        case .deviceChanged: .deviceChanged
        case .fileLockAcquired: .fileLockAcquired
        case .fileLockReleased: .fileLockReleased
        case .regionMonitoringFailed: .regionMonitoringFailed
        }
    }
}
