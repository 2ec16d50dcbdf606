import BudgetClock

/// Why `register(forTaskWithIdentifier:launchHandler:)` returned `false`.
public enum TaskRegistrationRejection: String, Sendable, Hashable, CaseIterable {
    /// The identifier is not in `BGTaskSchedulerPermittedIdentifiers`.
    case notPermitted
    /// The app is not finishing launching: handlers must be registered during launch [S46][S51].
    case notLaunching
    /// The identifier was registered before in this process; the app is terminated.
    case alreadyRegistered
}
