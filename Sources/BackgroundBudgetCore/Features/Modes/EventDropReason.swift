import BudgetTime

/// Why the system did not deliver a background event.
///
/// The reasons grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`:
///
/// ```swift
/// switch reason {
/// case .modeNotDeclared: print("modeNotDeclared")
/// default: print(reason)   // its name
/// }
/// ```
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum EventDropReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The app does not declare the event's mode.
    case modeNotDeclared
    /// The user killed the app from the app switcher; it is not relaunched until the user opens it.
    case killedByUser
    /// The app sets `UIApplicationExitsOnSuspend` and is never run in the background.
    case exitsOnSuspend
    /// The app is not monitoring significant changes or regions.
    case notMonitoring
    /// Too many silent pushes within ``BudgetPolicy/silentPushWindow`` (``BudgetPolicy/silentPushesPerHour``).
    case throttled
    /// Background App Refresh is off for the app (denied or restricted) [S59][S62].
    case backgroundAppRefreshOff
    /// The battery is critically low, which stops silent-push wakes like Low Power Mode [S59].
    case criticallyLowBattery
    /// The app failed to report ``BudgetPolicy/voipUnreportedPushLimit`` VoIP pushes as calls; the
    /// system no longer launches it for VoIP pushes until the user opens it [S35][S22].
    case voipLaunchesStopped
    /// The app is terminating.
    case terminating
    /// The launch for the event failed: the app has not adopted the scene-based life cycle and the
    /// policy requires it (``BudgetPolicy/requiresSceneLifecycle``, TN3187 [S99]).
    case sceneLifecycleRequired

    /// The reason's name.
    public var description: String { rawValue }
}
