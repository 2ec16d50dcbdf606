import BudgetTime

/// Why the system expired a running task.
///
/// The reasons grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`:
///
/// ```swift
/// switch reason {
/// case .runtimeEnding: print("runtimeEnding")
/// default: print(reason)   // its name
/// }
/// ```
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum TaskExpiryReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
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

    /// The reason's name.
    public var description: String { rawValue }
}
