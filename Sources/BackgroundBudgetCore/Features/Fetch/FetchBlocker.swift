import BudgetTime

/// Something that keeps an app from getting a background fetch now.
///
/// The blockers grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`:
///
/// ```swift
/// switch blocker {
/// case .killedByUser: print("open the app")
/// default: print(blocker)
/// }
/// ```
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum FetchBlocker: Sendable, Hashable, CustomStringConvertible {
    /// `UIBackgroundModes` does not declare `fetch`.
    case fetchModeMissing
    /// The app has `BGTaskSchedulerPermittedIdentifiers`, which turn legacy fetch off [S44].
    case usesTaskScheduler
    /// The app exits on suspend: it is never woken in the background.
    case exitsOnSuspend
    /// The app's minimum fetch interval is `never` (the default).
    case intervalNever
    /// The app's own Background App Refresh switch is off.
    case backgroundAppRefreshOff
    /// Background App Refresh is off for the whole device (Settings › General › Background App Refresh).
    case backgroundAppRefreshOffForDevice
    /// Low Power Mode is on, which turns Background App Refresh off for every app [S60][S66].
    case lowPowerMode
    /// The device forbids Background App Refresh (for example parental controls) [S61].
    case backgroundAppRefreshRestricted
    /// The battery is critically low, which stops background fetches like Low Power Mode [S59].
    case criticallyLowBattery
    /// The user killed the app from the app switcher and has not opened it since.
    case killedByUser
    /// The app is on screen; opportunities while it is are skipped.
    case inForeground
    /// A fetch is running.
    case fetchInProgress
    /// The next opportunity the fetch model planned is at this instant.
    case notBefore(BudgetInstant)
    /// Recent `noData`, `failed` or slow fetches stretched the gap between opportunities by this
    /// factor (the fetch model's factor); `newData` shrinks it again.
    case throttled(factor: Double)

    /// A sentence.
    public var description: String {
        switch self {
        case .fetchModeMissing: "UIBackgroundModes does not declare \"fetch\"."
        case .usesTaskScheduler: "The app has BGTaskSchedulerPermittedIdentifiers, which turn legacy background fetch off."
        case .exitsOnSuspend: "The app exits on suspend, so it is never woken in the background."
        case .intervalNever: "The app's minimum background fetch interval is \"never\"."
        case .backgroundAppRefreshOff: "Background App Refresh is off for the app."
        case .backgroundAppRefreshOffForDevice: "Background App Refresh is off for the whole device."
        case .lowPowerMode: "Low Power Mode is on, which turns Background App Refresh off for every app."
        case .backgroundAppRefreshRestricted: "Background App Refresh is restricted on this device (for example by parental controls)."
        case .criticallyLowBattery: "The battery is critically low, which stops background activity like Low Power Mode."
        case .killedByUser: "The user killed the app from the app switcher and has not opened it since."
        case .inForeground: "The app is on screen."
        case .fetchInProgress: "A fetch is running."
        case .notBefore(let instant): "The next fetch opportunity is at \(instant)."
        case .throttled(let factor):
            "Recent fetches found nothing, failed or were slow: the gap between opportunities is stretched ×\(Self.format(factor))."
        }
    }

    private static func format(_ factor: Double) -> String {
        let hundredths = (factor * 100).rounded()
        return hundredths.truncatingRemainder(dividingBy: 100) == 0 ? String(Int(hundredths / 100)) : String(hundredths / 100)
    }
}
