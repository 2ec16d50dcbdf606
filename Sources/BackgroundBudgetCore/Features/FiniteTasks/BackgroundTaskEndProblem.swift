import BudgetTime

/// Why `endBackgroundTask` did nothing. Reported in the trace; never a crash.
public enum BackgroundTaskEndProblem: String, Sendable, Hashable, CaseIterable {
    /// The identifier was ``BackgroundTaskIdentifier/invalid``.
    case invalidIdentifier
    /// No task with this identifier was ever begun by this app.
    case unknownTask
    /// The task was already ended, or ended when its app terminated.
    case alreadyEnded
}
