import BudgetTime

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
    ///
    /// The codes grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`.
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
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
    ///
    /// The causes grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or
    /// in the `switch`.
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
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
        var clause: String {
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
