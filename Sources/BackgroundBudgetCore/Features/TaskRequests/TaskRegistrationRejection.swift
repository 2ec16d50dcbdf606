import BudgetTime

/// Why `register(forTaskWithIdentifier:launchHandler:)` returned `false`.
///
/// The rejections grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`:
///
/// ```swift
/// switch rejection {
/// case .notPermitted: print("notPermitted")
/// default: print(rejection)   // its name
/// }
/// ```
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum TaskRegistrationRejection: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The identifier is not in `BGTaskSchedulerPermittedIdentifiers`.
    case notPermitted
    /// The app is not running (or is terminating): there is no launch to register in [S46][S51].
    case notLaunching
    /// The identifier was registered before in this process; the app is terminated.
    case alreadyRegistered
    /// The app already finished launching (`didFinishLaunching` returned): `BGTaskScheduler` raises
    /// `NSInternalInconsistencyException` and the app crashes
    /// (``TerminationReason/uncaughtException``) [S51][S98].
    case afterLaunch

    /// The rejection's name.
    public var description: String { rawValue }

    /// The message of the exception `BGTaskScheduler` raises for this rejection, as crash reports show
    /// it, or `nil` when `register` just returns `false` (or the message is not known).
    public var exceptionMessage: String? {
        switch self {
        case .afterLaunch: "All launch handlers must be registered before application finishes launching"
        case .notPermitted, .notLaunching, .alreadyRegistered: nil
        }
    }
}
