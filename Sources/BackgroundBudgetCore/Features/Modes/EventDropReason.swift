import BudgetTime

/// Why the system did not deliver a background event.
///
/// The reasons grow as the model does, so this is a struct with a static member per reason rather
/// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
/// a `default`:
///
/// ```swift
/// switch reason {
/// case .modeNotDeclared: print("modeNotDeclared")
/// default: print(reason)   // its name
/// }
/// ```
public struct EventDropReason: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The reasons the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case modeNotDeclared
        case killedByUser
        case exitsOnSuspend
        case notMonitoring
        case throttled
        case backgroundAppRefreshOff
        case criticallyLowBattery
        case voipLaunchesStopped
        case terminating
        case sceneLifecycleRequired
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
    public static var allCases: [EventDropReason] { Base.allCases.map(EventDropReason.init) }

    /// The reason's name.
    public var description: String { rawValue }

    /// The app does not declare the event's mode.
    public static let modeNotDeclared = EventDropReason(Base.modeNotDeclared)
    /// The user killed the app from the app switcher; it is not relaunched until the user opens it.
    public static let killedByUser = EventDropReason(Base.killedByUser)
    /// The app sets `UIApplicationExitsOnSuspend` and is never run in the background.
    public static let exitsOnSuspend = EventDropReason(Base.exitsOnSuspend)
    /// The app is not monitoring significant changes or regions.
    public static let notMonitoring = EventDropReason(Base.notMonitoring)
    /// Too many silent pushes within ``BudgetPolicy/silentPushWindow`` (``BudgetPolicy/silentPushesPerHour``).
    public static let throttled = EventDropReason(Base.throttled)
    /// Background App Refresh is off for the app (denied or restricted) [S59][S62].
    public static let backgroundAppRefreshOff = EventDropReason(Base.backgroundAppRefreshOff)
    /// The battery is critically low, which stops silent-push wakes like Low Power Mode [S59].
    public static let criticallyLowBattery = EventDropReason(Base.criticallyLowBattery)
    /// The app failed to report ``BudgetPolicy/voipUnreportedPushLimit`` VoIP pushes as calls; the
    /// system no longer launches it for VoIP pushes until the user opens it [S35][S22].
    public static let voipLaunchesStopped = EventDropReason(Base.voipLaunchesStopped)
    /// The app is terminating.
    public static let terminating = EventDropReason(Base.terminating)
    /// The launch for the event failed: the app has not adopted the scene-based life cycle and the
    /// policy requires it (``BudgetPolicy/requiresSceneLifecycle``, TN3187 [S99]).
    public static let sceneLifecycleRequired = EventDropReason(Base.sceneLifecycleRequired)
}
