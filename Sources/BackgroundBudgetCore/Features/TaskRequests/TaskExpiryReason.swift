import BudgetTime

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
