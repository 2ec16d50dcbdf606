import BudgetTime

/// Something that keeps a pending ``TaskRequest`` from running now.
///
/// The blockers grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`:
///
/// ```swift
/// switch blocker {
/// case .lowPowerMode: print("charge the phone")
/// case .notBefore(let instant): print("not before \(instant)")
/// default: print(blocker)   // `@unknown default` outside this package
/// }
/// ```
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum TaskRequestBlocker: Sendable, Hashable, CustomStringConvertible {
    /// The app's own Background App Refresh switch is off.
    case backgroundAppRefreshOff
    /// Background App Refresh is off for the whole device.
    case backgroundAppRefreshOffForDevice
    /// Low Power Mode is on, which turns Background App Refresh off for every app [S60][S66].
    case lowPowerMode
    /// The device forbids Background App Refresh (for example parental controls) [S61].
    case backgroundAppRefreshRestricted
    /// The battery is critically low, which stops background tasks like Low Power Mode [S59].
    case criticallyLowBattery
    /// The request may not run before this instant (its earliest begin date, or for a refresh the
    /// submit time plus ``BudgetPolicy/minimumFetchInterval``).
    case notBefore(BudgetInstant)
    /// The user killed the app from the app switcher and has not opened it since.
    case killedByUser
    /// The app exits on suspend: it is never woken in the background, and tasks never start on screen.
    case exitsOnSuspend
    /// The app is in the foreground: the system starts refresh and processing tasks only by taking an
    /// app from suspended or not running to running in the background [S87], so the request waits
    /// until the app has left the foreground and is suspended or terminated.
    case appInForeground
    /// The app runs in the background for something other than a task of this launch (a finite task,
    /// an activity, an event): the request waits until the app is suspended or terminated [S87].
    case appRunningInBackground
    /// The device is not idle (processing only).
    case deviceNotIdle
    /// The request requires external power and the device is not connected (processing only).
    case noExternalPower
    /// The request requires a network connection and there is none (processing only).
    case noNetwork
    /// The running process has no launch handler for the identifier: the request is dropped when it runs.
    case notRegistered
    /// A task with this identifier is running.
    case alreadyRunning
    /// A queued continued-processing request: this many continued-processing tasks run, the most the
    /// system allows (``BudgetPolicy/continuedProcessingTaskLimit``).
    case continuedProcessingLimit(Int)
    /// A queued continued-processing request: this many requests are ahead of it in the system's queue.
    case queuedBehind(Int)
    /// The app is terminating (its `applicationWillTerminate` runs).
    case appTerminating
    /// A queued continued-processing request: the system is under load
    /// (`BackgroundSystem.setSystemUnderLoad(_:)`).
    case systemUnderLoad

    /// A sentence.
    public var description: String {
        switch self {
        case .backgroundAppRefreshOff: "Background App Refresh is off for the app."
        case .backgroundAppRefreshOffForDevice: "Background App Refresh is off for the whole device."
        case .lowPowerMode: "Low Power Mode is on, which turns Background App Refresh off for every app."
        case .backgroundAppRefreshRestricted: "Background App Refresh is restricted on this device (for example by parental controls)."
        case .criticallyLowBattery: "The battery is critically low, which stops background activity like Low Power Mode."
        case .notBefore(let instant): "It may not begin before \(instant)."
        case .killedByUser: "The user killed the app from the app switcher and has not opened it since."
        case .exitsOnSuspend: "The app exits on suspend, so it is never woken in the background, and tasks never start while it is on screen."
        case .appInForeground: "The app is in the foreground; the task starts once the app has left it and is suspended or terminated."
        case .appRunningInBackground: "The app is running in the background for other work; the task starts once the app is suspended or terminated."
        case .deviceNotIdle: "The device is not idle."
        case .noExternalPower: "It requires external power and the device is not connected to power."
        case .noNetwork: "It requires a network connection and there is none."
        case .notRegistered: "The running app registered no launch handler for it, so it will be dropped when it runs."
        case .alreadyRunning: "A task with this identifier is running."
        case .continuedProcessingLimit(let limit):
            "\(limit) continued-processing task\(limit == 1 ? " runs" : "s run"), the most the system allows at once."
        case .queuedBehind(let count): "\(count) continued-processing request\(count == 1 ? " is" : "s are") ahead of it in the queue."
        case .systemUnderLoad: "The system is under load and starts no continued-processing task."
        case .appTerminating: "The app is terminating."
        }
    }
}
