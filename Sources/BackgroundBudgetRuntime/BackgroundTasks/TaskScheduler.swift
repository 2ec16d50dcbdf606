import BudgetClock
import BackgroundBudgetCore

#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif

/// An app's task scheduler, shaped like `BGTaskScheduler.shared` [S46]: get it from
/// ``Application/taskScheduler``.
///
/// It is a thin layer over the app's lower-level methods — ``Application/register(forTaskWithIdentifier:launchHandler:)``,
/// ``Application/submit(_:)``, ``Application/cancel(taskRequestWithIdentifier:)``,
/// ``Application/cancelAllTaskRequests()`` and ``Application/pendingTaskRequests()`` — which take and
/// return the one ``TaskRequest`` type; the rules are the same, and the *Background fetch* article
/// states them. Apple's names map as: `BGTaskScheduler` → ``TaskScheduler``, `BGTaskRequest` →
/// ``ScheduledTaskRequest``, `BGAppRefreshTaskRequest` → ``AppRefreshTaskRequest``,
/// `BGProcessingTaskRequest` → ``ProcessingTaskRequest``, `BGContinuedProcessingTaskRequest` →
/// ``ContinuedProcessingTaskRequest``, `BGTask` → ``ScheduledTask``, `BGTaskScheduler.Error` →
/// ``Error`` (``TaskSchedulerError``). The `BG` prefix is left off so that a test target may import
/// this package and Apple's BackgroundTasks side by side.
///
/// ```swift
/// func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
///     application.taskScheduler.register(forTaskWithIdentifier: "com.example.podcasts.refresh", using: nil) { task in
///         task.expirationHandler = { task.setTaskCompleted(success: false) }
///         task.setTaskCompleted(success: true)
///     }
/// }
///
/// var request = AppRefreshTaskRequest(identifier: "com.example.podcasts.refresh")
/// request.earliestBeginDate = system.currentDate.addingTimeInterval(3600)
/// do { try app.taskScheduler.submit(request) } catch TaskScheduler.Error.unavailable {
///     // Background App Refresh is off
/// }
/// ```
public struct TaskScheduler: Sendable {
    /// The errors ``submit(_:)-(ScheduledTaskRequest)`` throws (`BGTaskScheduler.Error`), with Apple's codes in
    /// ``TaskSchedulerError/code``.
    public typealias Error = TaskSchedulerError

    /// The app whose tasks this scheduler manages.
    public let application: Application

    /// The scheduler of an app; ``Application/taskScheduler`` is the usual way to get it.
    /// - Parameter application: The app.
    public init(application: Application) {
        self.application = application
    }

    #if canImport(Dispatch)
    /// Registers the launch handler for a task identifier (`register(forTaskWithIdentifier:using:launchHandler:)`),
    /// under the rules of ``Application/register(forTaskWithIdentifier:launchHandler:)``: only for a
    /// permitted identifier and only while the app finishes launching (continued-processing
    /// identifiers at any time); a permitted identifier registered later crashes the app [S51][S98].
    ///
    /// What `queue` means depends on the clock:
    /// - On a ``VirtualClock`` (and any clock but a ``DispatchClock``) it is ignored: the handler runs
    ///   on the app's own serial queue, synchronously, at the task's exact start instant, so that tests
    ///   stay deterministic. Pass `nil` or the queue your app passes; both behave the same.
    /// - On a ``DispatchClock`` `nil` runs the handler on the app's serial queue (the model's "default
    ///   background queue", which stops while the app is suspended); a queue runs it asynchronously on
    ///   that queue, as iOS does, once the task has started. The task holds the app in the background
    ///   either way; calls made on a task whose process has since ended do nothing.
    /// - Parameters:
    ///   - identifier: A permitted task identifier, or a continued-processing wildcard entry.
    ///   - queue: Where the handler runs on a real clock; see above.
    ///   - launchHandler: Called with the running task when a request with the identifier runs.
    /// - Returns: Whether the handler was registered; `false` (with `taskRegistrationRejected` in the
    ///   trace) for an identifier that is not permitted or an app that is not running.
    @discardableResult
    public func register(
        forTaskWithIdentifier identifier: String,
        using queue: DispatchQueue? = nil,
        launchHandler: @escaping (ScheduledTask) -> Void
    ) -> Bool {
        // `BGTaskScheduler`'s handler is not `@Sendable`; kept as ``UncheckedHandler`` says why.
        let handler = UncheckedHandler(call: launchHandler)
        guard let queue, application.system?.clock is DispatchClock else {
            return application.register(forTaskWithIdentifier: identifier) { handler.call($0) }
        }
        return application.register(forTaskWithIdentifier: identifier) { task in
            queue.async { handler.call(task) }
        }
    }
    #else
    /// Registers the launch handler for a task identifier (`register(forTaskWithIdentifier:using:launchHandler:)`
    /// without the queue, which needs Dispatch), under the rules of
    /// ``Application/register(forTaskWithIdentifier:launchHandler:)``.
    /// - Parameters:
    ///   - identifier: A permitted task identifier, or a continued-processing wildcard entry.
    ///   - launchHandler: Called on the app's queue with the running task.
    /// - Returns: Whether the handler was registered.
    @discardableResult
    public func register(
        forTaskWithIdentifier identifier: String,
        launchHandler: @escaping (ScheduledTask) -> Void
    ) -> Bool {
        let handler = UncheckedHandler(call: launchHandler)
        return application.register(forTaskWithIdentifier: identifier) { handler.call($0) }
    }
    #endif

    /// Submits a request (`submit(_:)`); a pending request with the same identifier is replaced. An
    /// ``ScheduledTaskRequest/earliestBeginDate`` is converted with ``BackgroundSystem/instant(at:)``.
    /// - Throws: ``Error`` (``TaskSchedulerError``) with Apple's code: ``TaskSchedulerError/Code/notPermitted``
    ///   for an identifier not permitted, a background mode not declared, a continued-processing request
    ///   from the background or one needing a GPU the device lacks; ``TaskSchedulerError/Code/unavailable``
    ///   for a refresh request while Background App Refresh is not available, or an app not installed on a
    ///   system; ``TaskSchedulerError/Code/tooManyPendingTaskRequests`` beyond 1 refresh or 10 processing
    ///   requests pending; ``TaskSchedulerError/Code/immediateRunIneligible`` for a continued-processing
    ///   request with the `fail` strategy that cannot start now. Nothing is submitted when it throws.
    public func submit(_ request: some ScheduledTaskRequest) throws(TaskSchedulerError) {
        guard let system = application.system else {
            throw TaskSchedulerError(.notInstalled, identifier: request.identifier)
        }
        try application.submit(TaskRequest(identifier: request.identifier, kind: request.taskRequestKind,
                                           earliestBeginDate: request.earliestBegin.resolved(on: system)))
    }

    /// Cancels the pending request with an identifier, if any (`cancel(taskRequestWithIdentifier:)`),
    /// a queued continued-processing request included. A running task is not affected.
    /// - Parameter identifier: The request's identifier.
    public func cancel(taskRequestWithIdentifier identifier: String) {
        application.cancel(taskRequestWithIdentifier: identifier)
    }

    /// Cancels every pending request of the app (`cancelAllTaskRequests()`).
    public func cancelAllTaskRequests() {
        application.cancelAllTaskRequests()
    }

    /// The app's pending requests, now: refresh and processing requests in submission order, then
    /// queued continued-processing requests in queue order. Each has both its
    /// ``ScheduledTaskRequest/earliestBeginInstant`` and its ``ScheduledTaskRequest/earliestBeginDate``
    /// set (or neither).
    public func pendingTaskRequests() -> [any ScheduledTaskRequest] {
        pending()
    }

    /// The app's pending requests (`pendingTaskRequests()`, the async form of Apple's method); the same
    /// as the synchronous form, which code outside an async context gets.
    public func pendingTaskRequests() async -> [any ScheduledTaskRequest] {
        pending()
    }

    /// Calls `completionHandler` with the app's pending requests (`getPendingTaskRequests(completionHandler:)`).
    /// It is called once, before this method returns, on the caller's thread, on either clock.
    /// - Parameter completionHandler: Receives the requests, as `pendingTaskRequests()` returns them.
    public func getPendingTaskRequests(completionHandler: ([any ScheduledTaskRequest]) -> Void) {
        completionHandler(pending())
    }

    /// The pending requests, converted.
    private func pending() -> [any ScheduledTaskRequest] {
        guard let system = application.system else { return [] }
        return application.pendingTaskRequests().map { Self.request($0, on: system) }
    }

    /// A pending lower-level request in this API's types, with its earliest begin date in both forms.
    static func request(_ request: TaskRequest, on system: BackgroundSystem) -> any ScheduledTaskRequest {
        let begin = TaskBeginTime(date: request.earliestBeginDate.map(system.date(at:)), instant: request.earliestBeginDate)
        switch request.kind {
        case .appRefresh:
            var refresh = AppRefreshTaskRequest(identifier: request.identifier)
            refresh.earliestBegin = begin
            return refresh
        case .processing(let network, let power):
            var processing = ProcessingTaskRequest(identifier: request.identifier)
            processing.requiresNetworkConnectivity = network
            processing.requiresExternalPower = power
            processing.earliestBegin = begin
            return processing
        case .continuedProcessing(let options):
            var continued = ContinuedProcessingTaskRequest(identifier: request.identifier, title: options.title,
                                                           subtitle: options.subtitle)
            continued.strategy = options.strategy
            continued.requiredResources = options.requiresGPU ? .gpu : .default
            continued.earliestBegin = begin
            return continued
        }
    }
}

extension Application {
    /// The app's task scheduler (`BGTaskScheduler.shared` for this app): register launch handlers,
    /// submit ``AppRefreshTaskRequest``, ``ProcessingTaskRequest`` and ``ContinuedProcessingTaskRequest``
    /// values, cancel them and list them, in Apple's names.
    public var taskScheduler: TaskScheduler { TaskScheduler(application: self) }
}

extension TaskSchedulerError {
    /// ``Code/unavailable``, for `catch TaskScheduler.Error.unavailable`.
    public static var unavailable: Code { .unavailable }
    /// ``Code/tooManyPendingTaskRequests``, for `catch TaskScheduler.Error.tooManyPendingTaskRequests`.
    public static var tooManyPendingTaskRequests: Code { .tooManyPendingTaskRequests }
    /// ``Code/notPermitted``, for `catch TaskScheduler.Error.notPermitted`.
    public static var notPermitted: Code { .notPermitted }
    /// ``Code/immediateRunIneligible``, for `catch TaskScheduler.Error.immediateRunIneligible`.
    public static var immediateRunIneligible: Code { .immediateRunIneligible }

    /// Whether an error has a code, so that `catch TaskScheduler.Error.notPermitted` matches, as with
    /// Apple's `BGTaskScheduler.Error`.
    /// - Parameters:
    ///   - code: The code in the pattern.
    ///   - error: The error thrown.
    /// - Returns: Whether `error` has that code.
    public static func ~= (code: Code, error: TaskSchedulerError) -> Bool {
        error.code == code
    }
}

extension TaskSchedulerError.Code {
    /// Whether an untyped error is a ``TaskSchedulerError`` with a code.
    /// - Parameters:
    ///   - code: The code in the pattern.
    ///   - error: The error thrown.
    /// - Returns: Whether `error` is a ``TaskSchedulerError`` with that code.
    public static func ~= (code: TaskSchedulerError.Code, error: any Error) -> Bool {
        (error as? TaskSchedulerError)?.code == code
    }
}
