import BudgetTime

/// Why `endBackgroundTask` did nothing. Reported in the trace; never a crash.
///
/// The problems grow as the model does, so this is a struct with a static member per problem rather
/// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
/// a `default`:
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
