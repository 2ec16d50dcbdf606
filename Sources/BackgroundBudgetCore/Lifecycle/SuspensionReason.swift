import BudgetTime

/// Why the system suspended a background app.
///
/// The reasons grow as the model does, so this is a struct with a static member per reason rather
/// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
/// a `default`:
///
/// ```swift
/// switch reason {
/// case .noBackgroundWork: print("noBackgroundWork")
/// default: print(reason)   // its name
/// }
/// ```
public struct SuspensionReason: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The reasons the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case noBackgroundWork
        case backgroundTasksEnded
        case activityStopped
        case eventWindowEnded
        case keepAliveWindowEnded
        case fetchCompleted
        case scheduledTaskCompleted
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
    public static var allCases: [SuspensionReason] { Base.allCases.map(SuspensionReason.init) }

    /// The reason's name.
    public var description: String { rawValue }

    /// The app returned from its background callbacks with nothing keeping it running.
    public static let noBackgroundWork = SuspensionReason(Base.noBackgroundWork)
    /// The app's last finite background task ended.
    public static let backgroundTasksEnded = SuspensionReason(Base.backgroundTasksEnded)
    /// The app stopped the last continuous activity (audio, location updates, …) that kept it running.
    public static let activityStopped = SuspensionReason(Base.activityStopped)
    /// The short run time granted for a background event ran out.
    public static let eventWindowEnded = SuspensionReason(Base.eventWindowEnded)
    /// The VoIP keep-alive handler was still running when its window
    /// (``BudgetPolicy/voipKeepAliveWindow``, 10 s) ran out: the app is suspended all the same [S33].
    public static let keepAliveWindowEnded = SuspensionReason(Base.keepAliveWindowEnded)
    /// The app completed its background fetch.
    public static let fetchCompleted = SuspensionReason(Base.fetchCompleted)
    /// The app's last `BGTaskScheduler` task completed (or was marked completed by the system).
    public static let scheduledTaskCompleted = SuspensionReason(Base.scheduledTaskCompleted)
}
