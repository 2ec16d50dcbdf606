import BudgetTime

/// How a running task ended.
public enum TaskCompletion: String, Sendable, Hashable, CaseIterable {
    /// The app called `setTaskCompleted(success: true)`.
    case success
    /// The app called `setTaskCompleted(success: false)`.
    case failure
    /// The app did not complete an expired task in time; the system marked it completed unsuccessfully.
    case expiredUnfinished
}
