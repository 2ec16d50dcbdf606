import Synchronization

/// A request to run work later, as `BGTaskScheduler` takes it: a `BGAppRefreshTaskRequest` or a
/// `BGProcessingTaskRequest` (IOS-FACTS §5 [S46][S47]).
///
/// ```swift
/// try app.submit(TaskRequest(identifier: "com.example.news.refresh", kind: .appRefresh,
///                            earliestBeginDate: clock.now + .seconds(3600)))
/// ```
public struct TaskRequest: Sendable, Hashable, CustomStringConvertible {
    /// What kind of task the request asks for.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// A short refresh (`BGAppRefreshTaskRequest`): up to ``BudgetPolicy/fetchRuntime`` (30 s).
        case appRefresh
        /// A deferrable maintenance task (`BGProcessingTaskRequest`): it runs only while the device is
        /// idle, for up to ``BudgetPolicy/processingTaskRuntimeCap``, and, when asked, only with a
        /// network connection or external power.
        case processing(requiresNetworkConnectivity: Bool, requiresExternalPower: Bool)

        /// Whether this is a processing request.
        public var isProcessing: Bool {
            if case .processing = self { return true }
            return false
        }

        /// `refresh` or `processing`, as scenario files name them.
        public var description: String { isProcessing ? "processing" : "refresh" }
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

    /// `processing "com.example.clean" earliest t=60.000s`.
    public var description: String {
        "\(kind) \"\(identifier)\"" + (earliestBeginDate.map { " earliest \($0)" } ?? "")
    }
}

/// Why `submit` refused a request (`BGTaskScheduler.Error`), with Apple's codes [S46][S52].
public struct TaskSchedulerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple's error codes.
    public enum Code: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The app cannot schedule background work: Background App Refresh is off for a refresh
        /// request (or the app is not installed on a system).
        case unavailable = 1
        /// The app already has 1 refresh or 10 processing requests pending.
        case tooManyPendingTaskRequests = 2
        /// The identifier is not in `BGTaskSchedulerPermittedIdentifiers`, or the matching background
        /// mode (`fetch` for refresh, `processing` for processing) is not declared.
        case notPermitted = 3
        /// A continued-processing request could not run at once. Not modelled: never thrown.
        case immediateRunIneligible = 4

        /// The code's name, e.g. `notPermitted`.
        public var description: String {
            switch self {
            case .unavailable: "unavailable"
            case .tooManyPendingTaskRequests: "tooManyPendingTaskRequests"
            case .notPermitted: "notPermitted"
            case .immediateRunIneligible: "immediateRunIneligible"
            }
        }
    }

    /// The code.
    public var code: Code
    /// The identifier of the refused request.
    public var identifier: String

    /// Creates an error.
    public init(code: Code, identifier: String) {
        self.code = code
        self.identifier = identifier
    }

    /// A sentence naming the identifier and the reason.
    public var description: String {
        switch code {
        case .unavailable:
            "Task request \"\(identifier)\" refused (unavailable, 1): Background App Refresh is not available to the app."
        case .tooManyPendingTaskRequests:
            "Task request \"\(identifier)\" refused (tooManyPendingTaskRequests, 2): the app has as many requests of this kind pending as allowed (1 refresh, 10 processing)."
        case .notPermitted:
            "Task request \"\(identifier)\" refused (notPermitted, 3): the identifier is not in BGTaskSchedulerPermittedIdentifiers or the matching UIBackgroundModes entry is missing."
        case .immediateRunIneligible:
            "Task request \"\(identifier)\" refused (immediateRunIneligible, 4): it cannot run now."
        }
    }
}

/// A running task handed to the launch handler (`BGTask`): set ``expirationHandler`` and call
/// ``setTaskCompleted(success:)`` when the work is done.
///
/// The task holds the app in the background until it completes. A refresh task that has not completed
/// after ``BudgetPolicy/fetchRuntime`` terminates the app (`0x2182bad4`); a processing task expires when
/// the device stops being idle, a required condition is lost, or the cap is reached, and is marked
/// completed unsuccessfully ``BudgetPolicy/expirationWarningLead`` later if the app has not completed it.
public final class ScheduledTask: Sendable {
    /// The task's identifier.
    public let identifier: String
    /// The kind of request that started it.
    public let kind: TaskRequest.Kind
    let app: AppID
    let number: UInt64
    private let handler = Mutex<(@Sendable () -> Void)?>(nil)
    weak let system: BackgroundSystem?

    init(identifier: String, kind: TaskRequest.Kind, app: AppID, number: UInt64, system: BackgroundSystem?) {
        self.identifier = identifier
        self.kind = kind
        self.app = app
        self.number = number
        self.system = system
    }

    /// Called once, on the app's queue, when the system expires the task; cleared after it is
    /// called [S49]. Complete the task in it.
    public var expirationHandler: (@Sendable () -> Void)? {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    /// Takes the expiration handler, leaving none.
    func takeExpirationHandler() -> (@Sendable () -> Void)? {
        handler.withLock { handler in
            defer { handler = nil }
            return handler
        }
    }

    /// Ends the task (`setTaskCompleted(success:)`); the app is suspended once nothing else holds it.
    /// A second call, or a call after the task ended, is recorded as `taskCompletionIgnored`.
    /// - Parameter success: Whether the work succeeded.
    public func setTaskCompleted(success: Bool) {
        system?.decide { core, now in core.scheduledTaskCompleted(self, success: success, at: now) }
    }
}

/// Why `register(forTaskWithIdentifier:launchHandler:)` returned `false`.
public enum TaskRegistrationRejection: String, Sendable, Hashable, CaseIterable {
    /// The identifier is not in `BGTaskSchedulerPermittedIdentifiers`.
    case notPermitted
    /// The app is not finishing launching: handlers must be registered during launch [S46][S51].
    case notLaunching
    /// The identifier was registered before in this process; the app is terminated.
    case alreadyRegistered
}

/// Why the system expired a running task.
public enum TaskExpiryReason: String, Sendable, Hashable, CaseIterable {
    /// A refresh task's runtime is about to run out (``BudgetPolicy/expirationWarningLead`` before it).
    case runtimeEnding
    /// A processing task reached ``BudgetPolicy/processingTaskRuntimeCap``.
    case runtimeCap
    /// The device stopped being idle (the user opened an app).
    case deviceInUse
    /// The network connection a processing task requires was lost.
    case networkLost
    /// The external power a processing task requires was lost.
    case externalPowerLost
}

/// How a running task ended.
public enum TaskCompletion: String, Sendable, Hashable, CaseIterable {
    /// The app called `setTaskCompleted(success: true)`.
    case success
    /// The app called `setTaskCompleted(success: false)`.
    case failure
    /// The app did not complete an expired task in time; the system marked it completed unsuccessfully.
    case expiredUnfinished
}

/// Something that keeps a pending ``TaskRequest`` from running now.
public enum TaskRequestBlocker: Sendable, Hashable, CustomStringConvertible {
    /// Background App Refresh is not available to the app (off, Low Power Mode, or restricted).
    case backgroundAppRefreshOff
    /// The request may not run before this instant (its earliest begin date, or for a refresh the
    /// submit time plus ``BudgetPolicy/minimumFetchInterval``).
    case notBefore(BudgetInstant)
    /// The user killed the app from the app switcher and has not opened it since.
    case killedByUser
    /// The device is not idle (processing only).
    case deviceNotIdle
    /// The request requires external power and the device is not connected (processing only).
    case noExternalPower
    /// The request requires a network connection and there is none (processing only).
    case noNetwork
    /// The running process has no launch handler for the identifier: the request is dropped when it runs.
    case notRegistered
    /// A task with this identifier is running.
    case alreadyRunning

    /// A sentence.
    public var description: String {
        switch self {
        case .backgroundAppRefreshOff: "Background App Refresh is off for the app."
        case .notBefore(let instant): "It may not begin before \(instant)."
        case .killedByUser: "The user killed the app from the app switcher and has not opened it since."
        case .deviceNotIdle: "The device is not idle."
        case .noExternalPower: "It requires external power and the device is not connected to power."
        case .noNetwork: "It requires a network connection and there is none."
        case .notRegistered: "The running app registered no launch handler for it, so it will be dropped when it runs."
        case .alreadyRunning: "A task with this identifier is running."
        }
    }
}

/// Why a pending task request has not run: "why didn't my BGTask run?"
public struct TaskRequestExplanation: Sendable, Hashable, CustomStringConvertible {
    /// The app.
    public var app: AppID
    /// The pending request.
    public var request: TaskRequest
    /// When it was submitted.
    public var submittedAt: BudgetInstant
    /// Every condition not met now, in a fixed order; empty when the request would run now.
    public var blockers: [TaskRequestBlocker]

    /// Sentences, e.g. `com.example.news's processing "com.example.news.clean" (submitted at t=0.000s)
    /// has not run. The device is not idle. It requires external power and …`.
    public var description: String {
        let head = "\(app)'s \(request.kind) request \"\(request.identifier)\" (submitted at \(submittedAt))"
        guard !blockers.isEmpty else { return head + " is due and runs at the next opportunity." }
        return head + " has not run. " + blockers.map(\.description).joined(separator: " ")
    }
}
