import BudgetTime

/// Why `register(forTaskWithIdentifier:launchHandler:)` returned `false`.
///
/// The rejections grow as the model does, so this is a struct with a static member per rejection rather
/// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
/// a `default`:
///
/// ```swift
/// switch rejection {
/// case .notPermitted: print("notPermitted")
/// default: print(rejection)   // its name
/// }
/// ```
public struct TaskRegistrationRejection: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The rejections the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case notPermitted
        case notLaunching
        case alreadyRegistered
        case afterLaunch
    }

    /// The rejection, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The rejection's name, as traces and outside files spell it.
    public var rawValue: String { base.rawValue }

    /// The rejection with that name, or `nil` for a name the model does not know.
    public init?(rawValue: String) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }

    /// Every rejection the model knows, in declaration order.
    public static var allCases: [TaskRegistrationRejection] { Base.allCases.map(TaskRegistrationRejection.init) }

    /// The rejection's name.
    public var description: String { rawValue }

    /// The identifier is not in `BGTaskSchedulerPermittedIdentifiers`.
    public static let notPermitted = TaskRegistrationRejection(Base.notPermitted)
    /// The app is not running (or is terminating): there is no launch to register in [S46][S51].
    public static let notLaunching = TaskRegistrationRejection(Base.notLaunching)
    /// The identifier was registered before in this process; the app is terminated.
    public static let alreadyRegistered = TaskRegistrationRejection(Base.alreadyRegistered)
    /// The app already finished launching (`didFinishLaunching` returned): `BGTaskScheduler` raises
    /// `NSInternalInconsistencyException` and the app crashes
    /// (``TerminationReason/uncaughtException``) [S51][S98].
    public static let afterLaunch = TaskRegistrationRejection(Base.afterLaunch)

    /// The message of the exception `BGTaskScheduler` raises for this rejection, as crash reports show
    /// it, or `nil` when `register` just returns `false` (or the message is not known).
    public var exceptionMessage: String? {
        switch base {
        case .afterLaunch: "All launch handlers must be registered before application finishes launching"
        case .notPermitted, .notLaunching, .alreadyRegistered: nil
        }
    }
}
