/// `BGTaskScheduler`, in Apple's names, on the app (IOS-FACTS §5 [S46]).
///
/// ```swift
/// func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) -> Bool {
///     application.register(forTaskWithIdentifier: "com.example.news.refresh") { task in
///         task.expirationHandler = { task.setTaskCompleted(success: false) }
///         refresh()
///         task.setTaskCompleted(success: true)
///     }
///     return true
/// }
/// ```
extension Application {
    /// Registers the launch handler for a task identifier
    /// (`register(forTaskWithIdentifier:using:launchHandler:)`); the handler runs on the app's queue.
    ///
    /// Registration succeeds only for identifiers in `BGTaskSchedulerPermittedIdentifiers` and only
    /// while the app is finishing launching (during its launch's callbacks); otherwise it returns
    /// `false` and the trace records `taskRegistrationRejected` with the reason. Registering the same
    /// identifier twice in one process terminates the app (``TerminationReason/taskRegisteredTwice``).
    /// Handlers last as long as the process.
    /// - Returns: Whether the handler was registered.
    @discardableResult
    public func register(
        forTaskWithIdentifier identifier: String,
        launchHandler: @escaping @Sendable (ScheduledTask) -> Void
    ) -> Bool {
        guard let system else { return false }
        let finishing = isFinishingLaunching
        var registered = false
        system.decide { [id] core, now in
            let (result, effects) = core.registerTask(identifier, handler: launchHandler, finishingLaunch: finishing, app: id, at: now)
            registered = result
            return effects
        }
        return registered
    }

    /// Submits a request (`submit(_:)`). A pending request with the same identifier is replaced.
    /// - Throws: ``TaskSchedulerError`` with ``TaskSchedulerError/Code/notPermitted`` when the identifier
    ///   is not permitted or the mode (`fetch` for refresh, `processing` for processing) is not declared;
    ///   ``TaskSchedulerError/Code/unavailable`` for a refresh request while Background App Refresh is
    ///   not available; ``TaskSchedulerError/Code/tooManyPendingTaskRequests`` beyond 1 refresh or
    ///   10 processing requests pending. Nothing is submitted when it throws.
    public func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
        guard let system else { throw TaskSchedulerError(code: .unavailable, identifier: request.identifier) }
        var failure: TaskSchedulerError?
        system.decide { [id] core, now in
            let (error, effects) = core.submitTask(request, app: id, at: now)
            failure = error
            return effects
        }
        if let failure { throw failure }
    }

    /// Cancels the pending request with an identifier, if any (`cancel(taskRequestWithIdentifier:)`).
    /// A running task is not affected.
    public func cancel(taskRequestWithIdentifier identifier: String) {
        system?.decide { [id] core, now in core.cancelTaskRequests(identifier, app: id, at: now) }
    }

    /// Cancels every pending request of the app (`cancelAllTaskRequests()`).
    public func cancelAllTaskRequests() {
        system?.decide { [id] core, now in core.cancelTaskRequests(nil, app: id, at: now) }
    }

    /// The app's pending requests, in submission order (`getPendingTaskRequests(completionHandler:)`).
    public func pendingTaskRequests() -> [TaskRequest] {
        guard let system else { return [] }
        return system.state.withLock { [id] state in
            state.core.records[state.core.slot(id)].pendingTaskRequests.map(\.request)
        }
    }
}

extension BackgroundSystem {
    /// Whether the device has a network connection (on by default). Losing it expires running
    /// processing tasks that require it, at once; regaining it runs requests waiting for it.
    public func setNetworkAvailable(_ available: Bool) {
        decide { core, now in core.changeConditions(at: now) { $0.networkAvailable = available } }
    }

    /// Whether the device is connected to external power (off by default). Losing it expires running
    /// processing tasks that require it, at once.
    public func setExternalPower(_ connected: Bool) {
        decide { core, now in core.changeConditions(at: now) { $0.externalPower = connected } }
    }

    /// Whether the device is idle (off by default): processing tasks run only while it is. Ending
    /// idleness expires every running processing task at once; the user opening an app ends it too.
    public func setDeviceIdle(_ idle: Bool) {
        decide { core, now in core.changeConditions(at: now) { $0.deviceIdle = idle } }
    }

    /// Whether the device has a network connection.
    public var isNetworkAvailable: Bool { state.withLock { $0.core.conditions.networkAvailable } }
    /// Whether the device is connected to external power.
    public var isOnExternalPower: Bool { state.withLock { $0.core.conditions.externalPower } }
    /// Whether the device is idle.
    public var isDeviceIdle: Bool { state.withLock { $0.core.conditions.deviceIdle } }

    /// Why an app's pending task request has not run: every condition not met now.
    /// - Parameters:
    ///   - identifier: The request's identifier.
    ///   - app: The app that submitted it.
    /// - Returns: The explanation, or `nil` when the app has no pending request with the identifier.
    /// - Precondition: `app` was installed on this system.
    public func explainPendingTaskRequest(_ identifier: String, of app: Application) -> TaskRequestExplanation? {
        requireInstalled(app)
        let now = clock.now
        return state.withLock { $0.core.explainTaskRequest(identifier, app: app.id, at: now) }
    }
}
