import BudgetTime

/// Why `beginBackgroundTask` returned ``BackgroundTaskIdentifier/invalid``.
///
/// The denials grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`:
///
/// ```swift
/// switch denial {
/// case .allowanceSpent: print("allowanceSpent")
/// default: print(denial)   // its name
/// }
/// ```
///
/// Sources: [S14][S17].
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum BackgroundTaskDenial: String, Sendable, Hashable, CaseIterable, CustomStringConvertible, Error {
    /// The app's background allowance is used up.
    case allowanceSpent
    /// The app is suspended and executes no code.
    case suspended
    /// The app is not running.
    case notRunning
    /// The app sets `UIApplicationExitsOnSuspend` and never runs in the background.
    case exitsOnSuspend
    /// The app is being terminated (`applicationWillTerminate` is running).
    case terminating
    /// The app already holds the maximum number of task assertions; asking for one more terminated it
    /// (`0xbada5e47`).
    case tooManyTasks

    /// A sentence saying why.
    public var description: String {
        switch self {
        case .allowanceSpent: "the background allowance is used up"
        case .suspended: "the app is suspended"
        case .notRunning: "the app is not running"
        case .exitsOnSuspend: "the app exits on suspend and never runs in the background"
        case .terminating: "the app is terminating"
        case .tooManyTasks: "too many background task assertions; the app was terminated"
        }
    }
}
