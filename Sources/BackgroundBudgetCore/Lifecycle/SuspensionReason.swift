import BudgetTime

/// Why the system suspended a background app.
///
/// The reasons grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`:
///
/// ```swift
/// switch reason {
/// case .noBackgroundWork: print("noBackgroundWork")
/// default: print(reason)   // its name
/// }
/// ```
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum SuspensionReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The app returned from its background callbacks with nothing keeping it running.
    case noBackgroundWork
    /// The app's last finite background task ended.
    case backgroundTasksEnded
    /// The app stopped the last continuous activity (audio, location updates, …) that kept it running.
    case activityStopped
    /// The short run time granted for a background event ran out.
    case eventWindowEnded
    /// The VoIP keep-alive handler was still running when its window
    /// (``BudgetPolicy/voipKeepAliveWindow``, 10 s) ran out: the app is suspended all the same [S33].
    case keepAliveWindowEnded
    /// The app completed its background fetch.
    case fetchCompleted
    /// The app's last `BGTaskScheduler` task completed (or was marked completed by the system).
    case scheduledTaskCompleted

    /// The reason's name.
    public var description: String { rawValue }
}
