import BudgetTime

/// Why `endBackgroundTask` did nothing. Reported in the trace; never a crash.
///
/// The problems grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`:
///
/// ```swift
/// switch problem {
/// case .invalidIdentifier: print("invalidIdentifier")
/// default: print(problem)   // its name
/// }
/// ```
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum BackgroundTaskEndProblem: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The identifier was ``BackgroundTaskIdentifier/invalid``.
    case invalidIdentifier
    /// No task with this identifier was ever begun by this app.
    case unknownTask
    /// The task was already ended, or ended when its app terminated.
    case alreadyEnded

    /// The problem's name.
    public var description: String { rawValue }
}
