import BackgroundBudgetCore
import BudgetTime
import Foundation

/// A request for ``TaskScheduler``, as `BGTaskRequest` is for `BGTaskScheduler` [S46][S47]: an
/// ``AppRefreshTaskRequest``, a ``ProcessingTaskRequest`` or a ``ContinuedProcessingTaskRequest``.
///
/// The earliest begin date is given either as a `Date` (``earliestBeginDate``, as in Apple's API) or as
/// an instant of the system's clock (``earliestBeginInstant``). Setting one clears the other; the
/// system converts a date when the request is submitted (``BackgroundSystem/instant(at:)``). The
/// requests `TaskScheduler.pendingTaskRequests()` returns have both set. Downcast with `as?`, as
/// with `BGTaskRequest`:
///
/// ```swift
/// for request in scheduler.pendingTaskRequests() {
///     if let processing = request as? ProcessingTaskRequest { print(processing.requiresExternalPower) }
/// }
/// ```
///
/// The package's three request types are the only conformers the scheduler expects: it submits the
/// ``taskRequestKind`` a request reports.
public protocol ScheduledTaskRequest: Sendable, CustomStringConvertible {
    /// The identifier, one of the app's `BGTaskSchedulerPermittedIdentifiers`.
    var identifier: String { get }
    /// Not before this date (`earliestBeginDate`); `nil` for as soon as the system allows. Setting it
    /// clears ``earliestBeginInstant``.
    var earliestBeginDate: Date? { get set }
    /// Not before this instant of the system's clock; `nil` for as soon as the system allows. Setting
    /// it clears ``earliestBeginDate``.
    var earliestBeginInstant: BudgetInstant? { get set }
    /// The earliest begin date in the form or forms it is known in; ``earliestBeginDate`` and
    /// ``earliestBeginInstant`` read and write it.
    var earliestBegin: TaskBeginTime { get set }
    /// The kind of the lower-level ``TaskRequest`` this request is submitted as.
    var taskRequestKind: TaskRequest.Kind { get }
}

extension ScheduledTaskRequest {
    /// Not before this date; `nil` for as soon as the system allows. Setting it clears ``earliestBeginInstant``.
    public var earliestBeginDate: Date? {
        get { earliestBegin.date }
        set { earliestBegin = TaskBeginTime(date: newValue) }
    }

    /// Not before this instant; `nil` for as soon as the system allows. Setting it clears ``earliestBeginDate``.
    public var earliestBeginInstant: BudgetInstant? {
        get { earliestBegin.instant }
        set { earliestBegin = TaskBeginTime(instant: newValue) }
    }
}

/// A request's earliest begin date in the one or two forms it is known in: a `Date`, an instant of the
/// system's clock, or both once the system has resolved it (a pending request). Empty: no lower bound.
public struct TaskBeginTime: Sendable, Hashable {
    /// The date, if known.
    public var date: Date?
    /// The instant, if known; it wins over the date when both are set.
    public var instant: BudgetInstant?

    /// A begin time given as a date, an instant, both, or neither.
    /// - Parameters:
    ///   - date: The date, or `nil`.
    ///   - instant: The instant of the system's clock, or `nil`.
    public init(date: Date? = nil, instant: BudgetInstant? = nil) {
        self.date = date
        self.instant = instant
    }

    /// The lower bound as an instant of `system`'s clock.
    func resolved(on system: BackgroundSystem) -> BudgetInstant? {
        instant ?? date.map(system.instant(at:))
    }

    /// ` earliest t=60.000s` or ` earliest 2026-01-01 00:01:00 +0000`, or nothing.
    var clause: String {
        if let instant { return " earliest \(instant)" }
        if let date { return " earliest \(date)" }
        return ""
    }
}

/// A short refresh request (`BGAppRefreshTaskRequest`): up to ``BudgetPolicy/fetchRuntime`` of
/// background time, at the earliest ``BudgetPolicy/minimumFetchInterval`` after it is submitted.
///
/// ```swift
/// var request = AppRefreshTaskRequest(identifier: "com.example.podcasts.refresh")
/// request.earliestBeginDate = system.currentDate.addingTimeInterval(15 * 60)
/// try app.taskScheduler.submit(request)
/// ```
public struct AppRefreshTaskRequest: ScheduledTaskRequest, Hashable {
    /// The identifier, one of the app's `BGTaskSchedulerPermittedIdentifiers`.
    public let identifier: String
    /// The earliest begin date (``earliestBeginDate``, ``earliestBeginInstant``).
    public var earliestBegin = TaskBeginTime()

    /// A refresh request with no earliest begin date (`init(identifier:)`).
    /// - Parameter identifier: A permitted task identifier.
    public init(identifier: String) {
        self.identifier = identifier
    }

    /// ``TaskRequest/Kind/appRefresh``.
    public var taskRequestKind: TaskRequest.Kind { .appRefresh }

    /// `AppRefreshTaskRequest "com.example.refresh" earliest t=900.000s`.
    public var description: String { "AppRefreshTaskRequest \"\(identifier)\"" + earliestBegin.clause }
}

/// A deferrable maintenance request (`BGProcessingTaskRequest`): it runs only while the device is idle,
/// and, when asked, only with a network connection or external power.
///
/// ```swift
/// var request = ProcessingTaskRequest(identifier: "com.example.podcasts.cleanup")
/// request.requiresExternalPower = true
/// try app.taskScheduler.submit(request)
/// ```
public struct ProcessingTaskRequest: ScheduledTaskRequest, Hashable {
    /// The identifier, one of the app's `BGTaskSchedulerPermittedIdentifiers`.
    public let identifier: String
    /// The earliest begin date (``earliestBeginDate``, ``earliestBeginInstant``).
    public var earliestBegin = TaskBeginTime()
    /// Whether the task runs only with a network connection (`requiresNetworkConnectivity`); `false` by default.
    public var requiresNetworkConnectivity = false
    /// Whether the task runs only on external power (`requiresExternalPower`); `false` by default.
    public var requiresExternalPower = false

    /// A processing request with no requirements and no earliest begin date (`init(identifier:)`).
    /// - Parameter identifier: A permitted task identifier.
    public init(identifier: String) {
        self.identifier = identifier
    }

    /// ``TaskRequest/Kind/processing(requiresNetworkConnectivity:requiresExternalPower:)`` with this
    /// request's requirements.
    public var taskRequestKind: TaskRequest.Kind {
        .processing(requiresNetworkConnectivity: requiresNetworkConnectivity, requiresExternalPower: requiresExternalPower)
    }

    /// `ProcessingTaskRequest "com.example.clean" network power earliest t=60.000s`.
    public var description: String {
        "ProcessingTaskRequest \"\(identifier)\"" + (requiresNetworkConnectivity ? " network" : "")
            + (requiresExternalPower ? " power" : "") + earliestBegin.clause
    }
}

/// Work the user started that may go on in the background (`BGContinuedProcessingTaskRequest`,
/// iOS 26): submitted from the foreground, started at once or queued, shown to the user with its
/// progress [S46][S47][S53][S54][S55]. Its earliest begin date is kept but ignored, as Apple's is [S47].
///
/// ```swift
/// var request = ContinuedProcessingTaskRequest(identifier: "com.example.podcasts.export.42",
///                                              title: "Exporting episode", subtitle: "42")
/// request.strategy = .fail
/// try app.taskScheduler.submit(request)
/// ```
public struct ContinuedProcessingTaskRequest: ScheduledTaskRequest, Hashable {
    /// What `submit` does when the task cannot start at once (`BGContinuedProcessingTaskRequest.SubmissionStrategy`).
    public typealias SubmissionStrategy = ContinuedProcessingOptions.SubmissionStrategy

    /// Resources the task needs in the background (`BGContinuedProcessingTaskRequest.Resources`).
    public struct Resources: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        /// Creates a set from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// No resource beyond the CPU (`.default`).
        public static let `default`: Resources = []
        /// Background GPU access (`.gpu`), refused on a device without it
        /// (``BackgroundSystem/setSupportsBackgroundGPU(_:)``).
        public static let gpu = Resources(rawValue: 1 << 0)
    }

    /// The identifier, one of the app's `BGTaskSchedulerPermittedIdentifiers`.
    public let identifier: String
    /// The earliest begin date (``earliestBeginDate``, ``earliestBeginInstant``).
    public var earliestBegin = TaskBeginTime()
    /// What the system shows the user while the task is queued or runs.
    public var title: String
    /// The line under the title.
    public var subtitle: String
    /// ``ContinuedProcessingOptions/SubmissionStrategy/queue`` (the default) or ``ContinuedProcessingOptions/SubmissionStrategy/fail``.
    public var strategy: SubmissionStrategy = .queue
    /// ``Resources/default`` unless set.
    public var requiredResources: Resources = .default

    /// A continued-processing request (`init(identifier:title:subtitle:)`).
    /// - Parameters:
    ///   - identifier: An identifier matching one of the app's wildcard permitted identifiers, such as
    ///     `com.example.photos.export.42` for `com.example.photos.export.*`.
    ///   - title: What the system shows the user.
    ///   - subtitle: The line under the title.
    public init(identifier: String, title: String, subtitle: String) {
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
    }

    /// ``TaskRequest/Kind/continuedProcessing(_:)`` with this request's options.
    public var taskRequestKind: TaskRequest.Kind {
        .continuedProcessing(ContinuedProcessingOptions(title: title, subtitle: subtitle, strategy: strategy,
                                                        requiresGPU: requiredResources.contains(.gpu)))
    }

    /// `ContinuedProcessingTaskRequest "com.example.export.42" "Exporting" queue`.
    public var description: String {
        "ContinuedProcessingTaskRequest \"\(identifier)\" \"\(title)\" \(strategy.rawValue)"
            + (requiredResources.contains(.gpu) ? " gpu" : "")
    }
}
