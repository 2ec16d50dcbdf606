import BudgetClock


/// A request to run work, as `BGTaskScheduler` takes it: a `BGAppRefreshTaskRequest`, a
/// `BGProcessingTaskRequest`, or a `BGContinuedProcessingTaskRequest` (IOS-FACTS §5 [S46][S47]).
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
        /// Work the user started that may go on in the background (`BGContinuedProcessingTaskRequest`,
        /// iOS 26): submitted from the foreground, started at once or queued, shown with its progress
        /// and cancellable by the user (IOS-FACTS §5 [S46][S47][S53][S54][S55]).
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

/// What a continued-processing request asks for besides its identifier
/// (`BGContinuedProcessingTaskRequest`, iOS 26 [S47][S53]).
public struct ContinuedProcessingOptions: Sendable, Hashable {
    /// What `submit` does when the task cannot start at once (`SubmissionStrategy`) [S55].
    public enum SubmissionStrategy: String, Sendable, Hashable, CaseIterable {
        /// Put the request at the back of the system's queue; it starts as soon as it can. The
        /// default. Queued requests are cancelled when the user removes the app from the app switcher.
        case queue
        /// Refuse the request with ``TaskSchedulerError/Code/immediateRunIneligible``.
        case fail
    }

    /// What the system shows the user for the task.
    public var title: String
    /// The line under the title.
    public var subtitle: String
    /// What to do when the task cannot start at once.
    public var strategy: SubmissionStrategy
    /// Whether the task needs the GPU in the background (`requiredResources = .gpu`); refused on a
    /// device that does not support it (``BackgroundSystem/setSupportsBackgroundGPU(_:)``).
    public var requiresGPU: Bool

    /// Creates options.
    /// - Parameters:
    ///   - title: What the system shows the user.
    ///   - subtitle: The line under the title.
    ///   - strategy: ``SubmissionStrategy/queue`` by default.
    ///   - requiresGPU: `false` by default.
    public init(title: String, subtitle: String, strategy: SubmissionStrategy = .queue, requiresGPU: Bool = false) {
        self.title = title
        self.subtitle = subtitle
        self.strategy = strategy
        self.requiresGPU = requiresGPU
    }
}

/// Why `submit` refused a request (`BGTaskScheduler.Error`): Apple's code [S46][S52] and, in
/// ``cause``, exactly which rule the request broke.
///
/// ```swift
/// do { try app.submit(request) } catch {
///     print(error.code)    // notPermitted
///     print(error)         // Task request "com.example.x" refused (notPermitted, 3): the identifier …
/// }
/// ```
public struct TaskSchedulerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple's error codes.
    public enum Code: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The app cannot schedule background work: Background App Refresh is off for a refresh
        /// request (or the app is not installed on a system).
        case unavailable = 1
        /// The app already has 1 refresh or 10 processing requests pending.
        case tooManyPendingTaskRequests = 2
        /// The identifier is not permitted, the matching background mode is not declared, a
        /// continued-processing request came from the background, or it needs a resource the device
        /// lacks.
        case notPermitted = 3
        /// A continued-processing request with the ``ContinuedProcessingOptions/SubmissionStrategy/fail``
        /// strategy could not start at once [S55].
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

    /// The rule a refused request broke; each maps to one ``Code``.
    public enum Cause: Sendable, Hashable {
        /// The app is not installed on a system.
        case notInstalled
        /// Background App Refresh is not available to the app (a refresh request).
        case backgroundAppRefreshUnavailable
        /// The app already has this many requests of the kind pending (1 refresh, 10 processing).
        case pendingLimitReached(Int)
        /// The identifier is not in `BGTaskSchedulerPermittedIdentifiers`; for a continued-processing
        /// request, it matches no wildcard entry that starts with the app's bundle identifier.
        case identifierNotPermitted
        /// The background mode the kind needs (`fetch` for refresh, `processing` for processing) is
        /// not in `UIBackgroundModes`.
        case backgroundModeMissing(BackgroundModes)
        /// A continued-processing request was submitted while the app was not in the foreground.
        case notInForeground
        /// A continued-processing request asked for the GPU on a device without background GPU support.
        case resourceUnavailable
        /// A continued-processing request with the `fail` strategy could not start at once: as many
        /// continued-processing tasks run as the system allows, others wait, or the system is under load.
        case cannotStartNow

        /// Apple's code for the cause.
        public var code: Code {
            switch self {
            case .notInstalled, .backgroundAppRefreshUnavailable: .unavailable
            case .pendingLimitReached: .tooManyPendingTaskRequests
            case .identifierNotPermitted, .backgroundModeMissing, .notInForeground, .resourceUnavailable: .notPermitted
            case .cannotStartNow: .immediateRunIneligible
            }
        }

        /// The reason, as a clause.
        package var clause: String {
            switch self {
            case .notInstalled: "the app is not installed on a system"
            case .backgroundAppRefreshUnavailable: "Background App Refresh is not available to the app"
            case .pendingLimitReached(let limit):
                "the app already has \(limit) request\(limit == 1 ? "" : "s") of this kind pending, the most allowed"
            case .identifierNotPermitted:
                "the identifier is not in BGTaskSchedulerPermittedIdentifiers (a continued-processing identifier must match a wildcard entry that starts with the app's bundle identifier)"
            case .backgroundModeMissing(let mode):
                "UIBackgroundModes does not declare \"\(mode.plistValues.joined(separator: "\", \""))\""
            case .notInForeground: "continued-processing requests are submitted from the foreground"
            case .resourceUnavailable: "the device does not support background GPU use"
            case .cannotStartNow: "it cannot start now and its strategy is \"fail\""
            }
        }
    }

    /// The rule the request broke.
    public var cause: Cause
    /// The identifier of the refused request.
    public var identifier: String

    /// Apple's code (``Cause/code``).
    public var code: Code { cause.code }

    /// Creates an error.
    /// - Parameters:
    ///   - cause: The rule the request broke.
    ///   - identifier: The request's identifier.
    public init(_ cause: Cause, identifier: String) {
        self.cause = cause
        self.identifier = identifier
    }

    /// A sentence naming the identifier, the code and the reason.
    public var description: String {
        "Task request \"\(identifier)\" refused (\(code), \(code.rawValue)): \(cause.clause)."
    }
}

/// No queued or running continued-processing task of the app has the identifier the user (or the
/// test) named.
public struct TaskLookupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The app.
    public var app: AppID
    /// The identifier that was not found.
    public var identifier: String
    /// The identifiers of the app's queued and running continued-processing tasks, for the message.
    public var known: [String]

    /// Creates an error.
    public init(app: AppID, identifier: String, known: [String]) {
        self.app = app
        self.identifier = identifier
        self.known = known
    }

    /// A sentence, with the identifiers that do exist (at most ten of them, then how many more).
    public var description: String {
        "\(app) has no queued or running continued-processing task \"\(BoundedText.clipped(identifier))\""
            + (known.isEmpty ? " (it has none)." : "; it has " + BoundedText.quotedList(known) + ".")
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
    /// The user cancelled a continued-processing task from the system's interface [S54].
    case cancelledByUser
    /// The system reclaimed resources from the continued-processing task with the least progress [S54].
    case resourcesReclaimed
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
    /// The app's own Background App Refresh switch is off.
    case backgroundAppRefreshOff
    /// Background App Refresh is off for the whole device.
    case backgroundAppRefreshOffForDevice
    /// Low Power Mode is on, which turns Background App Refresh off for every app [S60][S66].
    case lowPowerMode
    /// The device forbids Background App Refresh (for example parental controls) [S61].
    case backgroundAppRefreshRestricted
    /// The request may not run before this instant (its earliest begin date, or for a refresh the
    /// submit time plus ``BudgetPolicy/minimumFetchInterval``).
    case notBefore(BudgetInstant)
    /// The user killed the app from the app switcher and has not opened it since.
    case killedByUser
    /// The app exits on suspend and is not on screen: it is never woken in the background.
    case exitsOnSuspend
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
    /// A queued continued-processing request: this many continued-processing tasks run, the most the
    /// system allows (``BudgetPolicy/continuedProcessingTaskLimit``).
    case continuedProcessingLimit(Int)
    /// A queued continued-processing request: this many requests are ahead of it in the system's queue.
    case queuedBehind(Int)
    /// The app is terminating (its `applicationWillTerminate` runs).
    case appTerminating
    /// A queued continued-processing request: the system is under load
    /// (``BackgroundSystem/setSystemUnderLoad(_:)``).
    case systemUnderLoad

    /// A sentence.
    public var description: String {
        switch self {
        case .backgroundAppRefreshOff: "Background App Refresh is off for the app."
        case .backgroundAppRefreshOffForDevice: "Background App Refresh is off for the whole device."
        case .lowPowerMode: "Low Power Mode is on, which turns Background App Refresh off for every app."
        case .backgroundAppRefreshRestricted: "Background App Refresh is restricted on this device (for example by parental controls)."
        case .notBefore(let instant): "It may not begin before \(instant)."
        case .killedByUser: "The user killed the app from the app switcher and has not opened it since."
        case .exitsOnSuspend: "The app exits on suspend, so it is never woken in the background; it runs the task when the user opens it."
        case .deviceNotIdle: "The device is not idle."
        case .noExternalPower: "It requires external power and the device is not connected to power."
        case .noNetwork: "It requires a network connection and there is none."
        case .notRegistered: "The running app registered no launch handler for it, so it will be dropped when it runs."
        case .alreadyRunning: "A task with this identifier is running."
        case .continuedProcessingLimit(let limit):
            "\(limit) continued-processing task\(limit == 1 ? " runs" : "s run"), the most the system allows at once."
        case .queuedBehind(let count): "\(count) continued-processing request\(count == 1 ? " is" : "s are") ahead of it in the queue."
        case .systemUnderLoad: "The system is under load and starts no continued-processing task."
        case .appTerminating: "The app is terminating."
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
