import BudgetTime

/// How a running task ended.
///
/// The set is closed: a task ends in success or failure (`setTaskCompleted(success:)`), so a `switch` over it
/// needs no `default`.
public enum TaskCompletion: String, Sendable, Hashable, CaseIterable {
    /// The app called `setTaskCompleted(success: true)`.
    case success
    /// The app called `setTaskCompleted(success: false)`.
    case failure
    /// The app did not complete an expired task in time; the system marked it completed unsuccessfully.
    case expiredUnfinished
}
