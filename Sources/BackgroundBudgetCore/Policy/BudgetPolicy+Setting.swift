import BudgetTime

/// Setting one policy field from a number (scenario files and other outside input).
extension BudgetPolicy {
    /// A copy with one field set from a number, as scenario files and other outside input give it:
    /// seconds for durations, a count for ``maxOpenBackgroundTasks`` and ``maxMonitoredRegions``, 0 or 1 for
    /// ``allowanceResetsOnForeground``, ``relaunchesLocationAppsAfterUserKill``,
    /// ``honoursExitsOnSuspend``, ``requiresSceneLifecycle`` and ``crashesWithoutLaunchHandler``, the ``JetsamOrder/number`` for ``jetsamOrderWithinBand``, the code for
    /// ``backgroundTaskExpiryCode``, the factor itself for a ``FetchModelFactors`` field.
    /// - Parameters:
    ///   - field: The field to set.
    ///   - value: The number.
    /// - Returns: The changed policy (not yet checked against its other fields: call ``validate()``).
    /// - Throws: ``PolicyError`` when the number is NaN, infinite, not a whole number where one is
    ///   needed, a duration below the field's ``Field/floor`` (zero or negative included), or a fetch
    ///   model factor out of its range (``FetchModelFactors/validate()``).
    public func setting(_ field: Field, to value: Double) throws(PolicyError) -> BudgetPolicy {
        guard value.isFinite else { throw PolicyError(field: field, problem: .notFinite(value)) }
        func whole(_ range: ClosedRange<Double>) throws(PolicyError) -> Double {
            guard value.rounded() == value, range.contains(value) else {
                throw PolicyError(field: field, problem: .notAWholeNumber(value))
            }
            return value
        }
        // Durations are kept to the nanosecond; ±10⁹ s (about 31 years) is far past any limit the model
        // needs and keeps the conversion inside Int64.
        if field.isDuration, abs(value) > 1e9 {
            throw PolicyError(field: field, problem: .exceeds(value, field: field, limit: 1e9))
        }
        let duration = Duration.nanoseconds(Int64(field.isDuration ? (value * 1e9).rounded() : 0))
        if let problem = field.problem(with: duration, written: value) { throw PolicyError(field: field, problem: problem) }
        var copy = self
        switch field {
        case .didEnterBackgroundLimit: copy.didEnterBackgroundLimit = duration
        case .willTerminateLimit: copy.willTerminateLimit = duration
        case .launchWatchdog: copy.launchWatchdog = duration
        case .resumeWatchdog: copy.resumeWatchdog = duration
        case .backgroundTaskAllowance: copy.backgroundTaskAllowance = duration
        case .expirationWarningLead: copy.expirationWarningLead = duration
        case .expirationHandlerLimit: copy.expirationHandlerLimit = duration
        case .allowanceResetsOnForeground: copy.allowanceResetsOnForeground = try whole(0...1) == 1
        case .maxOpenBackgroundTasks: copy.maxOpenBackgroundTasks = Int(try whole(-1e15...1e15))
        case .backgroundTaskExpiryCode: copy.backgroundTaskExpiryCode = UInt32(try whole(0...Double(UInt32.max)))
        case .eventWindow: copy.eventWindow = duration
        case .remoteNotificationWindow: copy.remoteNotificationWindow = duration
        case .silentPushesPerHour: copy.silentPushesPerHour = Int(try whole(-1e15...1e15))
        case .maxMonitoredRegions: copy.maxMonitoredRegions = Int(try whole(-1e15...1e15))
        case .voipKeepAliveMinimumInterval: copy.voipKeepAliveMinimumInterval = duration
        case .voipKeepAliveWindow: copy.voipKeepAliveWindow = duration
        case .voipUnreportedPushLimit: copy.voipUnreportedPushLimit = Int(try whole(-1e15...1e15))
        case .relaunchesLocationAppsAfterUserKill: copy.relaunchesLocationAppsAfterUserKill = try whole(0...1) == 1
        case .honoursExitsOnSuspend: copy.honoursExitsOnSuspend = try whole(0...1) == 1
        case .requiresSceneLifecycle: copy.requiresSceneLifecycle = try whole(0...1) == 1
        case .crashesWithoutLaunchHandler: copy.crashesWithoutLaunchHandler = try whole(0...1) == 1
        case .jetsamOrderWithinBand: copy.jetsamOrderWithinBand = try whole(0...1) == 1 ? .leastRecentlyUsed : .largestFootprint
        case .fetchRuntime: copy.fetchRuntime = duration
        case .minimumFetchInterval: copy.minimumFetchInterval = duration
        case .fetchSeed: copy.fetchSeed = UInt64(try whole(0...9_007_199_254_740_992))
        case .processingTaskRuntimeCap: copy.processingTaskRuntimeCap = duration
        case .continuedProcessingTaskLimit: copy.continuedProcessingTaskLimit = Int(try whole(-1e15...1e15))
        case .silentPushWindow: copy.silentPushWindow = duration
        case .pendingRefreshTaskRequestLimit: copy.pendingRefreshTaskRequestLimit = Int(try whole(-1e15...1e15))
        case .pendingProcessingTaskRequestLimit: copy.pendingProcessingTaskRequestLimit = Int(try whole(-1e15...1e15))
        case .fetchNewDataFactor, .fetchNoDataFactor, .fetchFailedFactor, .fetchSlowFactor, .fetchSlowFraction,
             .fetchMinimumFactor, .fetchMaximumFactor, .fetchJitter:
            copy.fetchModelFactors.set(field, to: value)
            try copy.fetchModelFactors.validate()
        }
        return copy
    }
}
