import BudgetTime

/// The policy's fields by name, as scenario files and errors give them.
extension BudgetPolicy {
    /// A policy field, named as in scenario files and errors.
    ///
    /// The fields grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`.
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Field: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// ``BudgetPolicy/didEnterBackgroundLimit``.
        case didEnterBackgroundLimit
        /// ``BudgetPolicy/willTerminateLimit``.
        case willTerminateLimit
        /// ``BudgetPolicy/launchWatchdog``.
        case launchWatchdog
        /// ``BudgetPolicy/resumeWatchdog``.
        case resumeWatchdog
        /// ``BudgetPolicy/backgroundTaskAllowance``.
        case backgroundTaskAllowance
        /// ``BudgetPolicy/expirationWarningLead``.
        case expirationWarningLead
        /// ``BudgetPolicy/expirationHandlerLimit``.
        case expirationHandlerLimit
        /// ``BudgetPolicy/allowanceResetsOnForeground``.
        case allowanceResetsOnForeground
        /// ``BudgetPolicy/maxOpenBackgroundTasks``.
        case maxOpenBackgroundTasks
        /// ``BudgetPolicy/backgroundTaskExpiryCode``.
        case backgroundTaskExpiryCode
        /// ``BudgetPolicy/eventWindow``.
        case eventWindow
        /// ``BudgetPolicy/remoteNotificationWindow``.
        case remoteNotificationWindow
        /// ``BudgetPolicy/silentPushesPerHour``.
        case silentPushesPerHour
        /// ``BudgetPolicy/silentPushWindow``.
        case silentPushWindow
        /// ``BudgetPolicy/maxMonitoredRegions``.
        case maxMonitoredRegions
        /// ``BudgetPolicy/voipKeepAliveMinimumInterval``.
        case voipKeepAliveMinimumInterval
        /// ``BudgetPolicy/voipKeepAliveWindow``.
        case voipKeepAliveWindow
        /// ``BudgetPolicy/voipUnreportedPushLimit``.
        case voipUnreportedPushLimit
        /// ``BudgetPolicy/relaunchesLocationAppsAfterUserKill``.
        case relaunchesLocationAppsAfterUserKill
        /// ``BudgetPolicy/honoursExitsOnSuspend``.
        case honoursExitsOnSuspend
        /// ``BudgetPolicy/requiresSceneLifecycle``.
        case requiresSceneLifecycle
        /// ``BudgetPolicy/crashesWithoutLaunchHandler``.
        case crashesWithoutLaunchHandler
        /// ``BudgetPolicy/jetsamOrderWithinBand``.
        case jetsamOrderWithinBand
        /// ``BudgetPolicy/fetchRuntime``.
        case fetchRuntime
        /// ``BudgetPolicy/minimumFetchInterval``.
        case minimumFetchInterval
        /// ``BudgetPolicy/fetchSeed``.
        case fetchSeed
        /// ``BudgetPolicy/processingTaskRuntimeCap``.
        case processingTaskRuntimeCap
        /// ``BudgetPolicy/continuedProcessingTaskLimit``.
        case continuedProcessingTaskLimit
        /// ``BudgetPolicy/pendingRefreshTaskRequestLimit``.
        case pendingRefreshTaskRequestLimit
        /// ``BudgetPolicy/pendingProcessingTaskRequestLimit``.
        case pendingProcessingTaskRequestLimit
        /// ``BudgetPolicy/FetchModelFactors/newData``.
        case fetchNewDataFactor
        /// ``BudgetPolicy/FetchModelFactors/noData``.
        case fetchNoDataFactor
        /// ``BudgetPolicy/FetchModelFactors/failed``.
        case fetchFailedFactor
        /// ``BudgetPolicy/FetchModelFactors/slow``.
        case fetchSlowFactor
        /// ``BudgetPolicy/FetchModelFactors/slowFraction``.
        case fetchSlowFraction
        /// ``BudgetPolicy/FetchModelFactors/minimumFactor``.
        case fetchMinimumFactor
        /// ``BudgetPolicy/FetchModelFactors/maximumFactor``.
        case fetchMaximumFactor
        /// ``BudgetPolicy/FetchModelFactors/jitter``.
        case fetchJitter

        /// The field's name.
        public var description: String { rawValue }

        /// Whether the field is a yes-or-no setting, written 0 or 1 (`false` or `true` in scenario files).
        package var isBoolean: Bool {
            switch self {
            case .allowanceResetsOnForeground, .relaunchesLocationAppsAfterUserKill, .honoursExitsOnSuspend, .requiresSceneLifecycle,
                 .crashesWithoutLaunchHandler: true
            default: false
            }
        }

        /// Whether the field is a duration in seconds.
        public var isDuration: Bool {
            switch self {
            case .didEnterBackgroundLimit, .willTerminateLimit, .launchWatchdog, .resumeWatchdog, .backgroundTaskAllowance, .expirationWarningLead,
                 .expirationHandlerLimit, .eventWindow, .remoteNotificationWindow, .voipKeepAliveMinimumInterval, .voipKeepAliveWindow,
                 .fetchRuntime, .minimumFetchInterval, .processingTaskRuntimeCap, .silentPushWindow: true
            case .allowanceResetsOnForeground, .maxOpenBackgroundTasks, .maxMonitoredRegions, .backgroundTaskExpiryCode, .silentPushesPerHour,
                 .voipUnreportedPushLimit, .relaunchesLocationAppsAfterUserKill, .fetchSeed, .continuedProcessingTaskLimit,
                 .honoursExitsOnSuspend, .requiresSceneLifecycle, .crashesWithoutLaunchHandler, .jetsamOrderWithinBand,
                 .pendingRefreshTaskRequestLimit, .pendingProcessingTaskRequestLimit, .fetchNewDataFactor, .fetchNoDataFactor,
                 .fetchFailedFactor, .fetchSlowFactor, .fetchSlowFraction, .fetchMinimumFactor, .fetchMaximumFactor,
                 .fetchJitter: false
            }
        }
    }
}
