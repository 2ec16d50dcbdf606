import BudgetTime

/// A request to run work, as `BGTaskScheduler` takes it: a `BGAppRefreshTaskRequest`, a
/// `BGProcessingTaskRequest`, or a `BGContinuedProcessingTaskRequest` ([S46][S47]).
///
/// ```swift
/// try app.submit(TaskRequest(identifier: "com.example.news.refresh", kind: .appRefresh,
///                            earliestBeginDate: clock.now + .seconds(3600)))
/// ```
public struct TaskRequest: Sendable, Hashable, CustomStringConvertible {
    /// What kind of task the request asks for.
    ///
    /// The kinds grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or
    /// in the `switch`.
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// A short refresh (`BGAppRefreshTaskRequest`): up to ``BudgetPolicy/fetchRuntime`` (30 s).
        case appRefresh
        /// A deferrable maintenance task (`BGProcessingTaskRequest`): it runs only while the device is
        /// idle, for up to ``BudgetPolicy/processingTaskRuntimeCap``, and, when asked, only with a
        /// network connection or external power.
        case processing(requiresNetworkConnectivity: Bool, requiresExternalPower: Bool)
        /// Work the user started that may go on in the background (`BGContinuedProcessingTaskRequest`,
        /// iOS 26): submitted from the foreground, started at once or queued, shown with its progress
        /// and cancellable by the user ([S46][S47][S53][S54][S55]).
        case continuedProcessing(ContinuedProcessingOptions)

        /// Whether this is a processing request (`BGProcessingTaskRequest`).
        public var isProcessing: Bool {
            if case .processing = self { return true }
            return false
        }

        /// Whether this is a continued-processing request (`BGContinuedProcessingTaskRequest`).
        public var isContinuedProcessing: Bool {
            if case .continuedProcessing = self { return true }
            return false
        }

        /// `refresh`, `processing` or `continuedProcessing`, as scenario files name them.
        public var description: String {
            switch self {
            case .appRefresh: "refresh"
            case .processing: "processing"
            case .continuedProcessing: "continuedProcessing"
            }
        }
    }

    /// The identifier, one of the app's `BGTaskSchedulerPermittedIdentifiers`.
    public var identifier: String
    /// The kind of task.
    public var kind: Kind
    /// Not before this instant (`earliestBeginDate`); a lower bound, never a promise [S47].
    public var earliestBeginDate: BudgetInstant?

    /// Creates a request.
    /// - Parameters:
    ///   - identifier: A permitted task identifier.
    ///   - kind: Refresh or processing.
    ///   - earliestBeginDate: Not before this instant; `nil` for as soon as the system allows.
    public init(identifier: String, kind: Kind, earliestBeginDate: BudgetInstant? = nil) {
        self.identifier = identifier
        self.kind = kind
        self.earliestBeginDate = earliestBeginDate
    }

    /// A continued-processing request (`BGContinuedProcessingTaskRequest(identifier:title:subtitle:)`).
    /// Its earliest begin date is always `nil`: the system ignores it for these requests [S47].
    /// - Parameters:
    ///   - identifier: An identifier matching one of the app's wildcard permitted identifiers, such as
    ///     `com.example.photos.export.42` for `com.example.photos.export.*`.
    ///   - title: What the system shows the user while the task is queued or runs.
    ///   - subtitle: The line under the title.
    ///   - strategy: What to do when the task cannot start at once: ``ContinuedProcessingOptions/SubmissionStrategy/queue`` (the default) or
    ///     ``ContinuedProcessingOptions/SubmissionStrategy/fail``.
    ///   - requiresGPU: Whether the task asks for background GPU access (`requiredResources = .gpu`).
    public static func continuedProcessing(
        identifier: String, title: String, subtitle: String,
        strategy: ContinuedProcessingOptions.SubmissionStrategy = .queue, requiresGPU: Bool = false
    ) -> TaskRequest {
        TaskRequest(identifier: identifier, kind: .continuedProcessing(ContinuedProcessingOptions(
            title: title, subtitle: subtitle, strategy: strategy, requiresGPU: requiresGPU)))
    }

    /// `processing "com.example.clean" earliest t=60.000s`.
    public var description: String {
        "\(kind) \"\(identifier)\"" + (earliestBeginDate.map { " earliest \($0)" } ?? "")
    }
}
