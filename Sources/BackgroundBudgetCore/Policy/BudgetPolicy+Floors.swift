import BudgetTime

extension BudgetPolicy.Field {
    /// The shortest value the model accepts for a duration field, or `nil` for a field that is not a
    /// duration. ``BudgetPolicy/validate()`` and ``BudgetPolicy/setting(_:to:)`` refuse anything shorter
    /// with ``PolicyError/Problem/belowFloor(_:floor:)``.
    ///
    /// - ``BudgetPolicy/voipKeepAliveMinimumInterval``: 600 s, because iOS refuses a shorter
    ///   keep-alive interval: `setKeepAliveTimeout(_:handler:)` fails below 600 s [S33].
    /// - ``BudgetPolicy/minimumFetchInterval``: 1 s. Apple documents no floor; this is the model's
    ///   limit, so that fetch opportunities, which repeat, stay finite in number.
    /// - ``BudgetPolicy/expirationWarningLead``: zero (a warning at the very end of the allowance).
    /// - Every other duration (watchdog limits, the allowance, windows, runtimes): 1 ms. Apple
    ///   documents none; this is the model's limit: its deadlines are not meaningful below a
    ///   millisecond on a real clock, and nothing it schedules can repeat faster than that.
    public var floor: Duration? {
        switch self {
        // iOS: "The minimum acceptable timeout value is 600 seconds" [S33].
        case .voipKeepAliveMinimumInterval: .seconds(600)
        // The model's limit; Apple documents none [S41][S42].
        case .minimumFetchInterval: .seconds(1)
        case .expirationWarningLead: .zero
        // The model's limit; Apple documents none.
        case .didEnterBackgroundLimit, .willTerminateLimit, .launchWatchdog, .resumeWatchdog, .backgroundTaskAllowance, .expirationHandlerLimit, .eventWindow,
             .remoteNotificationWindow, .voipKeepAliveWindow, .fetchRuntime, .processingTaskRuntimeCap, .silentPushWindow:
            .milliseconds(1)
        case .allowanceResetsOnForeground, .maxOpenBackgroundTasks, .maxMonitoredRegions, .backgroundTaskExpiryCode, .silentPushesPerHour,
             .voipUnreportedPushLimit, .relaunchesLocationAppsAfterUserKill, .fetchSeed, .continuedProcessingTaskLimit,
             .honoursExitsOnSuspend, .requiresSceneLifecycle, .crashesWithoutLaunchHandler, .jetsamOrderWithinBand,
             .pendingRefreshTaskRequestLimit, .pendingProcessingTaskRequestLimit, .fetchNewDataFactor, .fetchNoDataFactor,
             .fetchFailedFactor, .fetchSlowFactor, .fetchSlowFraction, .fetchMinimumFactor, .fetchMaximumFactor, .fetchJitter:
            nil
        }
    }

    /// What is wrong with a duration for this field taken alone, or `nil` if nothing is.
    /// - Parameters:
    ///   - duration: The duration.
    ///   - written: The number as it was given, for the error (seconds).
    func problem(with duration: Duration, written: Double) -> PolicyError.Problem? {
        guard let floor else { return nil }
        if floor == .zero {
            return duration < .zero ? .negative(written) : nil
        }
        if duration <= .zero { return .notPositive(written) }
        if duration < floor { return .belowFloor(written, floor: floor.secondsDouble) }
        return nil
    }
}

extension BudgetPolicy {
    /// Checks the numbers added for the task scheduler, silent pushes and the fetch model, as
    /// ``validate()`` checks the others.
    /// - Throws: ``PolicyError`` for a pending-request limit, ``maxMonitoredRegions`` or ``voipUnreportedPushLimit`` below 1, a
    ///   silent-push window or ``expirationHandlerLimit`` below its floor, or a fetch model factor out of range (``FetchModelFactors/validate()``).
    func validateModelNumbers() throws(PolicyError) {
        if let problem = Field.silentPushWindow.problem(with: silentPushWindow, written: silentPushWindow.secondsDouble) {
            throw PolicyError(field: .silentPushWindow, problem: problem)
        }
        if let problem = Field.expirationHandlerLimit.problem(with: expirationHandlerLimit, written: expirationHandlerLimit.secondsDouble) {
            throw PolicyError(field: .expirationHandlerLimit, problem: problem)
        }
        guard pendingRefreshTaskRequestLimit >= 1 else {
            throw PolicyError(field: .pendingRefreshTaskRequestLimit, problem: .notPositive(Double(pendingRefreshTaskRequestLimit)))
        }
        guard pendingProcessingTaskRequestLimit >= 1 else {
            throw PolicyError(field: .pendingProcessingTaskRequestLimit,
                              problem: .notPositive(Double(pendingProcessingTaskRequestLimit)))
        }
        guard maxMonitoredRegions >= 1 else {
            throw PolicyError(field: .maxMonitoredRegions, problem: .notPositive(Double(maxMonitoredRegions)))
        }
        guard voipUnreportedPushLimit >= 1 else {
            throw PolicyError(field: .voipUnreportedPushLimit, problem: .notPositive(Double(voipUnreportedPushLimit)))
        }
        try fetchModelFactors.validate()
    }
}
