/// `BGTaskScheduler`'s methods on the app itself ([S46]): the lower-level form, taking and returning the
/// one ``TaskRequest`` type. ``Application/taskScheduler`` (a ``TaskScheduler``) is the same in the
/// shape of Apple's API, with its request types, `Date`s and the `using:` queue, and calls these.
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
import BackgroundBudgetCore
import BudgetTime

extension Application {
    /// Registers the launch handler for a task identifier
    /// (`register(forTaskWithIdentifier:using:launchHandler:)`); the handler runs on the app's queue.
    ///
    /// Registration succeeds only for identifiers in `BGTaskSchedulerPermittedIdentifiers` (otherwise
    /// it returns `false`) and only while the app is finishing launching: from the start of its launch
    /// until `didFinishLaunching` returns. A permitted identifier registered later — from
    /// `applicationDidBecomeActive`, `applicationWillResignActive`, a launch handler, anywhere after
    /// launch — crashes the app as `BGTaskScheduler`'s `NSInternalInconsistencyException` ("All launch
    /// handlers must be registered before application finishes launching") does [S51][S98]: the trace
    /// records `taskRegistrationRejected` (reason `afterLaunch`, with the message) and the exit
    /// (``TerminationReason/uncaughtException``), and no more of the app's code is started: neither the
    /// observers of the callback that registered nor the steps after it. Continued-processing
    /// identifiers — a wildcard entry such as `com.example.photos.export.*`, or an identifier matching
    /// one — may be registered at any time, and a handler registered for the wildcard entry runs every
    /// matching task. Registering the same
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
        return system.decide(caller: self, ended: false) { [id] (state: inout BackgroundSystem.State, now: BudgetInstant) in
            let decision = state.core.registerTask(identifier, finishingLaunch: finishing, app: id, at: now)
            // A refused handler is never kept: it is dropped when this method returns, outside the lock.
            if decision.value { state.closures[id, default: AppClosures()].launchHandlers[identifier] = launchHandler }
            return decision
        }
    }

    /// Submits a request (`submit(_:)`). A pending request with the same identifier is replaced.
    ///
    /// A continued-processing request (``TaskRequest/Kind/continuedProcessing(_:)``) starts at once
    /// when there is room, or waits in the system's queue (``ContinuedProcessingOptions/SubmissionStrategy/queue``).
    /// - Throws: ``TaskSchedulerError`` with ``TaskSchedulerError/Code/notPermitted`` when the identifier
    ///   is not permitted, the mode (`fetch` for refresh, `processing` for processing) is not declared,
    ///   a continued-processing request comes from the background or needs an unsupported GPU;
    ///   ``TaskSchedulerError/Code/unavailable`` for a refresh request while Background App Refresh is
    ///   not available; ``TaskSchedulerError/Code/tooManyPendingTaskRequests`` beyond 1 refresh or
    ///   10 processing requests pending; ``TaskSchedulerError/Code/immediateRunIneligible`` for a
    ///   continued-processing request with the `fail` strategy that cannot start now. The error's
    ///   ``TaskSchedulerError/cause`` names the rule. Nothing is submitted when it throws.
    public func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
        guard let system else { throw TaskSchedulerError(.notInstalled, identifier: request.identifier) }
        let failure = system.decide(caller: self, ended: nil) { [id] (state: inout BackgroundSystem.State, now: BudgetInstant) in
            state.core.submitTask(request, app: id, at: now)
        }
        if let failure { throw failure }
    }

    /// Cancels the pending request with an identifier, if any (`cancel(taskRequestWithIdentifier:)`).
    /// A running task is not affected.
    public func cancel(taskRequestWithIdentifier identifier: String) {
        system?.decide(caller: self) { [id] core, now in core.cancelTaskRequests(identifier, app: id, at: now) }
    }

    /// Cancels every pending request of the app (`cancelAllTaskRequests()`).
    public func cancelAllTaskRequests() {
        system?.decide(caller: self) { [id] core, now in core.cancelTaskRequests(nil, app: id, at: now) }
    }

    /// The app's pending requests (`getPendingTaskRequests(completionHandler:)`): refresh and
    /// processing requests in submission order, then queued continued-processing requests in queue order.
    public func pendingTaskRequests() -> [TaskRequest] {
        guard let system else { return [] }
        return system.state.withLock { [id] state in
            state.core.records[state.core.slot(id)].taskRequests.pending.map(\.request) + state.core.queuedContinuedRequests(of: id)
        }
    }
}

extension BackgroundSystem {
    /// Whether the device has a network connection (on by default). Losing it expires running
    /// processing tasks that require it, at once; regaining it runs requests waiting for it.
    public func setNetworkAvailable(_ available: Bool) {
        decide { core, now in core.setNetworkAvailable(available, at: now) }
    }

    /// Whether the device is connected to external power (off by default). Losing it expires running
    /// processing tasks that require it, at once.
    public func setExternalPower(_ connected: Bool) {
        decide { core, now in core.setExternalPower(connected, at: now) }
    }

    /// Whether the device is idle (off by default): processing tasks run only while it is. Ending
    /// idleness expires every running processing task at once; the user opening an app ends it too.
    public func setDeviceIdle(_ idle: Bool) {
        decide { core, now in core.setDeviceIdle(idle, at: now) }
    }

    /// Whether the system is under load (off by default): while it is, no continued-processing task
    /// starts — requests with the `queue` strategy wait, those with `fail` are refused
    /// (`immediateRunIneligible`) [S55]. Turning it off starts queued requests while there is room.
    public func setSystemUnderLoad(_ underLoad: Bool) {
        decide { core, now in core.setSystemUnderLoad(underLoad, at: now) }
    }

    /// Whether the device supports background GPU use for continued-processing tasks
    /// (`BGTaskScheduler.supportedResources` containing `.gpu`; off by default). A request that
    /// needs the GPU on a device without it is refused (`notPermitted`) [S47][S53].
    public func setSupportsBackgroundGPU(_ supported: Bool) {
        decide { core, now in core.setSupportsBackgroundGPU(supported, at: now) }
    }

    /// The continued-processing tasks the user sees, as the system's Live Activities show them:
    /// running and expiring tasks in start order, then queued requests in queue order.
    public var continuedProcessingActivities: [ContinuedProcessingActivity] {
        state.withLock { $0.core.continuedActivities() }
    }

    /// The user cancels a continued-processing task from the system's interface: a running task
    /// expires (its expiration handler is called, reason ``TaskExpiryReason/cancelledByUser``) and is
    /// marked completed unsuccessfully ``BudgetPolicy/expirationWarningLead`` later unless the app
    /// completes it; a queued request is cancelled. A task already expiring is left as it is.
    /// - Parameters:
    ///   - identifier: The task's identifier.
    ///   - app: The app that submitted it.
    /// - Throws: ``TaskLookupError`` when the app has no queued or running continued-processing task
    ///   with the identifier; nothing changes.
    /// - Precondition: `app` was installed on this system.
    public func cancelContinuedProcessingTask(_ identifier: String, of app: Application) throws(TaskLookupError) {
        requireInstalled(app)
        let failure = decide { (state: inout State, now: BudgetInstant) in
            state.core.userCancelContinuedTask(identifier, app: app.id, at: now)
        }
        if let failure { throw failure }
    }

    /// The system reclaims resources: the running continued-processing task with the least reported
    /// progress expires (reason ``TaskExpiryReason/resourcesReclaimed``) [S54].
    /// - Returns: The task that expired, or `nil` when none was running.
    @discardableResult
    public func reclaimContinuedProcessingResources() -> ContinuedProcessingActivity? {
        decide { (state: inout State, now: BudgetInstant) in state.core.reclaimContinuedProcessing(at: now) }
    }

    /// Whether the system is under load.
    public var isSystemUnderLoad: Bool { state.withLock { $0.core.continued.systemUnderLoad } }

    /// Whether the device has a network connection.
    public var isNetworkAvailable: Bool { state.withLock { $0.core.conditions.networkAvailable } }
    /// Whether the device is connected to external power.
    public var isOnExternalPower: Bool { state.withLock { $0.core.conditions.externalPower } }
    /// Whether the device is idle.
    public var isDeviceIdle: Bool { state.withLock { $0.core.conditions.deviceIdle } }

    /// Why an app's pending task request has not run, or a queued continued-processing request has not
    /// started: every condition not met now.
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
