import BudgetTime

/// Why the system launched or woke an app into the background.
///
/// The reasons grow as the model does, so this is a struct with a static member per reason rather
/// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
/// a `default`:
///
/// ```swift
/// switch reason {
/// case .backgroundFetch: print("backgroundFetch")
/// default: print(reason)   // its name
/// }
/// ```
///
/// Source: Apple's documented background launch and wake sequences (see the policy reference's bibliography).
public struct LaunchReason: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The reasons the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case backgroundFetch
        case remoteNotification
        case location
        case backgroundTask
        case voip
        case bluetooth
        case externalAccessory
        case newsstandContent
        case system
    }

    /// The reason, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The reason's name, as traces and outside files spell it.
    public var rawValue: String { base.rawValue }

    /// The reason with that name, or `nil` for a name the model does not know.
    public init?(rawValue: String) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }

    /// Every reason the model knows, in declaration order.
    public static var allCases: [LaunchReason] { Base.allCases.map(LaunchReason.init) }

    /// The reason's name.
    public var description: String { rawValue }

    /// A legacy background fetch (`performFetchWithCompletionHandler`).
    public static let backgroundFetch = LaunchReason(Base.backgroundFetch)
    /// A silent remote notification (`content-available`).
    public static let remoteNotification = LaunchReason(Base.remoteNotification)
    /// A location event: significant change, region monitoring or a visit.
    public static let location = LaunchReason(Base.location)
    /// A `BGTaskScheduler` refresh or processing task.
    public static let backgroundTask = LaunchReason(Base.backgroundTask)
    /// A VoIP push or the legacy VoIP keep-alive handler.
    public static let voip = LaunchReason(Base.voip)
    /// A Core Bluetooth event for a central or peripheral role.
    public static let bluetooth = LaunchReason(Base.bluetooth)
    /// An External Accessory event.
    public static let externalAccessory = LaunchReason(Base.externalAccessory)
    /// A finished Newsstand download.
    public static let newsstandContent = LaunchReason(Base.newsstandContent)
    /// Some other system reason.
    public static let system = LaunchReason(Base.system)
}
