import BudgetTime

/// The policy's fields by name, as scenario files and errors give them.
extension BudgetPolicy {
    /// A policy field, named as in scenario files and errors.
    ///
    /// The fields grow as the model does, so this is a struct with a static member per field rather than an enum: a
    /// new one is not a breaking change. Compare with `==`, or match in a `switch` that has a `default`.
    public struct Field: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The fields the model knows, for the package's own exhaustive switches.
        package enum Base: String, Sendable, Hashable, CaseIterable {
            case didEnterBackgroundLimit
            case willTerminateLimit
            case launchWatchdog
            case resumeWatchdog
            case backgroundTaskAllowance
            case expirationWarningLead
            case expirationHandlerLimit
            case allowanceResetsOnForeground
            case maxOpenBackgroundTasks
            case backgroundTaskExpiryCode
            case eventWindow
            case remoteNotificationWindow
            case silentPushesPerHour
            case silentPushWindow
            case maxMonitoredRegions
            case voipKeepAliveMinimumInterval
            case voipKeepAliveWindow
            case voipUnreportedPushLimit
            case relaunchesLocationAppsAfterUserKill
            case honoursExitsOnSuspend
            case requiresSceneLifecycle
            case jetsamOrderWithinBand
            case fetchRuntime
            case minimumFetchInterval
            case fetchSeed
            case processingTaskRuntimeCap
            case continuedProcessingTaskLimit
            case pendingRefreshTaskRequestLimit
            case pendingProcessingTaskRequestLimit
            case fetchNewDataFactor
            case fetchNoDataFactor
            case fetchFailedFactor
            case fetchSlowFactor
            case fetchSlowFraction
            case fetchMinimumFactor
            case fetchMaximumFactor
            case fetchJitter
        }

        /// The field, for the package's own exhaustive switches.
        package let base: Base

        package init(_ base: Base) { self.base = base }

        /// The field's name, as traces and outside files spell it.
        public var rawValue: String { base.rawValue }

        /// The field with that name, or `nil` for one the model does not know.
        public init?(rawValue: String) {
            guard let base = Base(rawValue: rawValue) else { return nil }
            self.base = base
        }

        /// Every field the model knows, in declaration order.
        public static var allCases: [Field] { Base.allCases.map(Field.init) }

        /// ``BudgetPolicy/didEnterBackgroundLimit``.
        public static let didEnterBackgroundLimit = Field(.didEnterBackgroundLimit)
        /// ``BudgetPolicy/willTerminateLimit``.
        public static let willTerminateLimit = Field(.willTerminateLimit)
        /// ``BudgetPolicy/launchWatchdog``.
        public static let launchWatchdog = Field(.launchWatchdog)
        /// ``BudgetPolicy/resumeWatchdog``.
        public static let resumeWatchdog = Field(.resumeWatchdog)
        /// ``BudgetPolicy/backgroundTaskAllowance``.
        public static let backgroundTaskAllowance = Field(.backgroundTaskAllowance)
        /// ``BudgetPolicy/expirationWarningLead``.
        public static let expirationWarningLead = Field(.expirationWarningLead)
        /// ``BudgetPolicy/expirationHandlerLimit``.
        public static let expirationHandlerLimit = Field(.expirationHandlerLimit)
        /// ``BudgetPolicy/allowanceResetsOnForeground``.
        public static let allowanceResetsOnForeground = Field(.allowanceResetsOnForeground)
        /// ``BudgetPolicy/maxOpenBackgroundTasks``.
        public static let maxOpenBackgroundTasks = Field(.maxOpenBackgroundTasks)
        /// ``BudgetPolicy/backgroundTaskExpiryCode``.
        public static let backgroundTaskExpiryCode = Field(.backgroundTaskExpiryCode)
        /// ``BudgetPolicy/eventWindow``.
        public static let eventWindow = Field(.eventWindow)
        /// ``BudgetPolicy/remoteNotificationWindow``.
        public static let remoteNotificationWindow = Field(.remoteNotificationWindow)
        /// ``BudgetPolicy/silentPushesPerHour``.
        public static let silentPushesPerHour = Field(.silentPushesPerHour)
        /// ``BudgetPolicy/silentPushWindow``.
        public static let silentPushWindow = Field(.silentPushWindow)
        /// ``BudgetPolicy/maxMonitoredRegions``.
        public static let maxMonitoredRegions = Field(.maxMonitoredRegions)
        /// ``BudgetPolicy/voipKeepAliveMinimumInterval``.
        public static let voipKeepAliveMinimumInterval = Field(.voipKeepAliveMinimumInterval)
        /// ``BudgetPolicy/voipKeepAliveWindow``.
        public static let voipKeepAliveWindow = Field(.voipKeepAliveWindow)
        /// ``BudgetPolicy/voipUnreportedPushLimit``.
        public static let voipUnreportedPushLimit = Field(.voipUnreportedPushLimit)
        /// ``BudgetPolicy/relaunchesLocationAppsAfterUserKill``.
        public static let relaunchesLocationAppsAfterUserKill = Field(.relaunchesLocationAppsAfterUserKill)
        /// ``BudgetPolicy/honoursExitsOnSuspend``.
        public static let honoursExitsOnSuspend = Field(.honoursExitsOnSuspend)
        /// ``BudgetPolicy/requiresSceneLifecycle``.
        public static let requiresSceneLifecycle = Field(.requiresSceneLifecycle)
        /// ``BudgetPolicy/jetsamOrderWithinBand``.
        public static let jetsamOrderWithinBand = Field(.jetsamOrderWithinBand)
        /// ``BudgetPolicy/fetchRuntime``.
        public static let fetchRuntime = Field(.fetchRuntime)
        /// ``BudgetPolicy/minimumFetchInterval``.
        public static let minimumFetchInterval = Field(.minimumFetchInterval)
        /// ``BudgetPolicy/fetchSeed``.
        public static let fetchSeed = Field(.fetchSeed)
        /// ``BudgetPolicy/processingTaskRuntimeCap``.
        public static let processingTaskRuntimeCap = Field(.processingTaskRuntimeCap)
        /// ``BudgetPolicy/continuedProcessingTaskLimit``.
        public static let continuedProcessingTaskLimit = Field(.continuedProcessingTaskLimit)
        /// ``BudgetPolicy/pendingRefreshTaskRequestLimit``.
        public static let pendingRefreshTaskRequestLimit = Field(.pendingRefreshTaskRequestLimit)
        /// ``BudgetPolicy/pendingProcessingTaskRequestLimit``.
        public static let pendingProcessingTaskRequestLimit = Field(.pendingProcessingTaskRequestLimit)
        /// ``BudgetPolicy/FetchModelFactors/newData``.
        public static let fetchNewDataFactor = Field(.fetchNewDataFactor)
        /// ``BudgetPolicy/FetchModelFactors/noData``.
        public static let fetchNoDataFactor = Field(.fetchNoDataFactor)
        /// ``BudgetPolicy/FetchModelFactors/failed``.
        public static let fetchFailedFactor = Field(.fetchFailedFactor)
        /// ``BudgetPolicy/FetchModelFactors/slow``.
        public static let fetchSlowFactor = Field(.fetchSlowFactor)
        /// ``BudgetPolicy/FetchModelFactors/slowFraction``.
        public static let fetchSlowFraction = Field(.fetchSlowFraction)
        /// ``BudgetPolicy/FetchModelFactors/minimumFactor``.
        public static let fetchMinimumFactor = Field(.fetchMinimumFactor)
        /// ``BudgetPolicy/FetchModelFactors/maximumFactor``.
        public static let fetchMaximumFactor = Field(.fetchMaximumFactor)
        /// ``BudgetPolicy/FetchModelFactors/jitter``.
        public static let fetchJitter = Field(.fetchJitter)

        /// The field's name.
        public var description: String { rawValue }

        /// Whether the field is a duration in seconds.
        public var isDuration: Bool {
            switch base {
            case .didEnterBackgroundLimit, .willTerminateLimit, .launchWatchdog, .resumeWatchdog, .backgroundTaskAllowance, .expirationWarningLead,
                 .expirationHandlerLimit, .eventWindow, .remoteNotificationWindow, .voipKeepAliveMinimumInterval, .voipKeepAliveWindow,
                 .fetchRuntime, .minimumFetchInterval, .processingTaskRuntimeCap, .silentPushWindow: true
            case .allowanceResetsOnForeground, .maxOpenBackgroundTasks, .maxMonitoredRegions, .backgroundTaskExpiryCode, .silentPushesPerHour,
                 .voipUnreportedPushLimit, .relaunchesLocationAppsAfterUserKill, .fetchSeed, .continuedProcessingTaskLimit,
                 .honoursExitsOnSuspend, .requiresSceneLifecycle, .jetsamOrderWithinBand,
                 .pendingRefreshTaskRequestLimit, .pendingProcessingTaskRequestLimit, .fetchNewDataFactor, .fetchNoDataFactor,
                 .fetchFailedFactor, .fetchSlowFactor, .fetchSlowFraction, .fetchMinimumFactor, .fetchMaximumFactor,
                 .fetchJitter: false
            }
        }
    }
}
