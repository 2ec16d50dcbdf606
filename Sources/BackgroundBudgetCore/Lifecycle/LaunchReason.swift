import BudgetTime

/// Why the system launched or woke an app into the background.
///
/// The reasons grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`:
///
/// ```swift
/// switch reason {
/// case .backgroundFetch: print("backgroundFetch")
/// default: print(reason)   // its name
/// }
/// ```
///
/// Source: Apple's documented background launch and wake sequences (see the policy reference's bibliography).
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum LaunchReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A legacy background fetch (`performFetchWithCompletionHandler`).
    case backgroundFetch
    /// A silent remote notification (`content-available`).
    case remoteNotification
    /// A location event: significant change, region monitoring or a visit.
    case location
    /// A `BGTaskScheduler` refresh or processing task.
    case backgroundTask
    /// A VoIP push or the legacy VoIP keep-alive handler.
    case voip
    /// A Core Bluetooth event for a central or peripheral role.
    case bluetooth
    /// An External Accessory event.
    case externalAccessory
    /// A finished Newsstand download.
    case newsstandContent
    /// Some other system reason.
    case system

    /// The reason's name.
    public var description: String { rawValue }
}
