import BackgroundBudgetCore
import Foundation

#if canImport(Dispatch)
@preconcurrency import Dispatch

/// The part of `BGTaskScheduler` that background code uses, with its names and signatures, so that a
/// class written against it runs unchanged on a device (`BGTaskScheduler.shared`) and in the model
/// (``Application/taskScheduler``, a ``TaskScheduler``).
///
/// Both conform: ``TaskScheduler`` here, `BGTaskScheduler` in the package's BackgroundTasks extension
/// (compiled only where that framework has the scheduler). The types that differ are associated
/// types: ``LaunchedTask`` (`BGTask`, or the model's ``ScheduledTask``) and ``Request``
/// (`BGTaskRequest`, or the model's ``AnyScheduledTaskRequest``). Apple's request classes cannot be
/// made from generic code (their initialisers are not `required`), so the seam adds two factories,
/// ``appRefreshTaskRequest(identifier:)`` and ``processingTaskRequest(identifier:requiresNetworkConnectivity:requiresExternalPower:)``,
/// which make a `BGAppRefreshTaskRequest` or `BGProcessingTaskRequest` on a device:
///
/// ```swift
/// final class FeedRefresher<Scheduler: BackgroundTaskScheduling> {
///     let scheduler: Scheduler
///     init(scheduler: Scheduler = BGTaskScheduler.shared) { self.scheduler = scheduler }
///
///     func schedule(after seconds: TimeInterval, from now: Date) throws {
///         var request = scheduler.appRefreshTaskRequest(identifier: "com.example.feed.refresh")
///         request.earliestBeginDate = now.addingTimeInterval(seconds)
///         try scheduler.submit(request)
///     }
/// }
/// ```
///
/// The seam forwards; it adds no rule of its own. Sources:
/// [register(forTaskWithIdentifier:using:launchHandler:)](https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)),
/// [submit(_:)](https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/submit(_:)),
/// [cancel(taskRequestWithIdentifier:)](https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/cancel(taskrequestwithidentifier:)),
/// [cancelAllTaskRequests()](https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/cancelalltaskrequests()),
/// [getPendingTaskRequests(completionHandler:)](https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/getpendingtaskrequests(completionhandler:)).
public protocol BackgroundTaskScheduling {
    /// The task a launch handler receives: `BGTask`, or the model's ``ScheduledTask``.
    associatedtype LaunchedTask: LaunchedBackgroundTask
    /// A request: `BGTaskRequest`, or the model's ``AnyScheduledTaskRequest``.
    associatedtype Request: TaskRequestShape

    /// Registers the launch handler for a task identifier.
    /// - Parameters:
    ///   - identifier: A permitted task identifier.
    ///   - queue: Where the handler runs; `nil` for a default background queue.
    ///   - launchHandler: Called with the running task.
    /// - Returns: Whether the handler was registered.
    func register(
        forTaskWithIdentifier identifier: String,
        using queue: DispatchQueue?,
        launchHandler: @escaping (LaunchedTask) -> Void
    ) -> Bool
    /// Submits a request; one with the same identifier is replaced.
    /// - Parameter taskRequest: The request.
    func submit(_ taskRequest: Request) throws
    /// Cancels the pending request with an identifier.
    /// - Parameter identifier: The request's identifier.
    func cancel(taskRequestWithIdentifier identifier: String)
    /// Cancels every pending request.
    func cancelAllTaskRequests()
    /// Calls the handler with the pending requests.
    /// - Parameter completionHandler: Receives the requests.
    func getPendingTaskRequests(completionHandler: @escaping @Sendable ([Request]) -> Void)
    /// The pending requests.
    func pendingTaskRequests() async -> [Request]

    /// A refresh request (`BGAppRefreshTaskRequest(identifier:)`); not Apple API: the seam's factory.
    /// - Parameter identifier: A permitted task identifier.
    /// - Returns: The request, with no earliest begin date.
    func appRefreshTaskRequest(identifier: String) -> Request
    /// A processing request (`BGProcessingTaskRequest(identifier:)` with its two requirements); not
    /// Apple API: the seam's factory.
    /// - Parameters:
    ///   - identifier: A permitted task identifier.
    ///   - requiresNetworkConnectivity: Whether it runs only with a network connection.
    ///   - requiresExternalPower: Whether it runs only on external power.
    /// - Returns: The request, with no earliest begin date.
    func processingTaskRequest(identifier: String, requiresNetworkConnectivity: Bool, requiresExternalPower: Bool) -> Request
}
#endif

/// The part of `BGTask` a launch handler uses
/// ([BGTask](https://developer.apple.com/documentation/backgroundtasks/bgtask)): `BGTask` and the
/// model's ``ScheduledTask`` conform.
public protocol LaunchedBackgroundTask: AnyObject {
    /// The task's identifier.
    var identifier: String { get }
    /// Called shortly before the task's time runs out; set to `nil` after it is called
    /// ([expirationHandler](https://developer.apple.com/documentation/backgroundtasks/bgtask/expirationhandler)).
    var expirationHandler: (() -> Void)? { get set }
    /// Ends the task.
    /// - Parameter success: Whether the work succeeded.
    func setTaskCompleted(success: Bool)
}

/// The part of `BGTaskRequest` generic code uses: its identifier and earliest begin date.
public protocol TaskRequestShape {
    /// The identifier.
    var identifier: String { get }
    /// Not before this date; `nil` for as soon as the system allows.
    var earliestBeginDate: Date? { get set }
}

/// Any of the model's requests as one concrete type, the ``BackgroundTaskScheduling/Request`` of
/// ``TaskScheduler``, as `BGTaskRequest` is the one type of Apple's: downcast ``base`` with `as?`.
public struct AnyScheduledTaskRequest: ScheduledTaskRequest, TaskRequestShape {
    /// The request.
    public var base: any ScheduledTaskRequest

    /// Wraps a request.
    /// - Parameter base: The request.
    public init(_ base: any ScheduledTaskRequest) {
        self.base = base
    }

    /// The request's identifier.
    public var identifier: String { base.identifier }
    /// The request's earliest begin time.
    public var earliestBegin: TaskBeginTime {
        get { base.earliestBegin }
        set { base.earliestBegin = newValue }
    }
    /// The request's kind.
    public var taskRequestKind: TaskRequest.Kind { base.taskRequestKind }
    /// The request's description.
    public var description: String { base.description }
}

/// A handler `BGTask` and `BGTaskScheduler` declare without `@Sendable`, held where the model needs a
/// `@Sendable` one.
///
/// Safety: the model calls the closure only from the app's serial queue (or the queue the handler
/// was registered with, as iOS does), one call after another; the code that handed it over keeps no
/// way to call it. What the closure captures is shared exactly as much as on a device, where the
/// system calls the same non-`Sendable` closure on another thread: the seam adds no sharing.
struct UncheckedHandler<Argument>: @unchecked Sendable {
    let call: (Argument) -> Void
}

extension UncheckedHandler where Argument == Void {
    /// Wraps a handler of no argument.
    init(call: @escaping () -> Void) {
        self.call = { _ in call() }
    }

    /// The handler as a `@Sendable` closure.
    var callable: @Sendable () -> Void { { call(()) } }
}

extension ScheduledTask: LaunchedBackgroundTask {}

#if canImport(Dispatch)
extension TaskScheduler: BackgroundTaskScheduling {
    /// Submits a request (`submit(_:)`), under ``submit(_:)-(ScheduledTaskRequest)``'s rules.
    /// - Parameter taskRequest: The request.
    /// - Throws: ``TaskSchedulerError`` with Apple's code.
    public func submit(_ taskRequest: AnyScheduledTaskRequest) throws {
        try submit(taskRequest.base)
    }

    /// A refresh request, as ``AppRefreshTaskRequest/init(identifier:)`` makes it.
    /// - Parameter identifier: A permitted task identifier.
    /// - Returns: The request.
    public func appRefreshTaskRequest(identifier: String) -> AnyScheduledTaskRequest {
        AnyScheduledTaskRequest(AppRefreshTaskRequest(identifier: identifier))
    }

    /// A processing request, as ``ProcessingTaskRequest/init(identifier:)`` makes it.
    /// - Parameters:
    ///   - identifier: A permitted task identifier.
    ///   - requiresNetworkConnectivity: Whether it runs only with a network connection.
    ///   - requiresExternalPower: Whether it runs only on external power.
    /// - Returns: The request.
    public func processingTaskRequest(identifier: String, requiresNetworkConnectivity: Bool,
                                      requiresExternalPower: Bool) -> AnyScheduledTaskRequest {
        var request = ProcessingTaskRequest(identifier: identifier)
        request.requiresNetworkConnectivity = requiresNetworkConnectivity
        request.requiresExternalPower = requiresExternalPower
        return AnyScheduledTaskRequest(request)
    }
}

extension BackgroundTaskScheduling where Self == TaskScheduler {
    /// Calls the handler, before returning, with the pending requests
    /// (`getPendingTaskRequests(completionHandler:)`).
    /// - Parameter completionHandler: Receives the requests.
    /// (Disfavoured, so that `scheduler.getPendingTaskRequests { … }` on a ``TaskScheduler`` keeps
    /// calling ``TaskScheduler/getPendingTaskRequests(completionHandler:)``, which takes any closure.)
    @_disfavoredOverload
    public func getPendingTaskRequests(completionHandler: @escaping @Sendable ([AnyScheduledTaskRequest]) -> Void) {
        let scheduler: TaskScheduler = self
        let requests: [any ScheduledTaskRequest] = scheduler.pendingTaskRequests()
        completionHandler(requests.map(AnyScheduledTaskRequest.init))
    }

    /// The pending requests (`pendingTaskRequests()`).
    /// - Returns: The requests, in the order ``TaskScheduler/pendingTaskRequests()-(_)`` gives.
    @_disfavoredOverload
    public func pendingTaskRequests() async -> [AnyScheduledTaskRequest] {
        let scheduler: TaskScheduler = self
        let requests: [any ScheduledTaskRequest] = await scheduler.pendingTaskRequests()
        return requests.map(AnyScheduledTaskRequest.init)
    }
}
#endif
