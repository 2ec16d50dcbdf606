import BudgetTime

/// Why an app stopped running.
///
/// The reasons grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`:
///
/// ```swift
/// switch reason {
/// case .watchdog: print("too slow")
/// case .memoryPressure: print("purged")
/// default: print(reason)   // its name, as in traces
/// }
/// ```
///
/// ``defaultCode`` is the termination code a crash report shows for kills that produce one.
/// Sources: [S22][S23].
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum TerminationReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A callback or launch took longer than its watchdog limit (`0x8badf00d`).
    case watchdog
    /// Finite background tasks were still open when the allowance ran out (`0x2182bad2`).
    case backgroundTaskExpired
    /// A background fetch did not call its completion handler in time (`0x2182bad4`).
    case backgroundFetchNotCompleted
    /// More background-task assertions were requested than the cap allows (`0xbada5e47`).
    case tooManyBackgroundTasks
    /// A VoIP push was not reported to CallKit (`0xbaadca11`).
    case voipPushNotReported
    /// The app was suspended while it held a file lock or an SQLite database lock (for example on a
    /// database in a shared container): the system kills it at the suspension (`0xdead10cc`) [S22].
    /// The app says when it holds one with `Application.acquireFileLock(_:)`.
    case fileLockHeldAtSuspension
    /// The system needed the memory (jetsam); suspended apps are purged silently.
    case memoryPressure
    /// The user swiped the app away in the app switcher.
    case userKill
    /// The app opts out of background execution with `UIApplicationExitsOnSuspend`.
    case exitsOnSuspend
    /// The app registered a launch handler for the same task identifier twice in one process, which
    /// `BGTaskScheduler` answers with an exception [S46][S51].
    case taskRegisteredTwice
    /// The app raised an exception it did not catch and crashed: `BGTaskScheduler` raises
    /// `NSInternalInconsistencyException` ("All launch handlers must be registered before application
    /// finishes launching") when a launch handler is registered after the app finished launching
    /// [S51][S98]. A crash leaves no termination code.
    case uncaughtException
    /// The device restarted (`BackgroundSystem.reboot()`): every process ends,
    /// with no callback and no termination code.
    case reboot
    /// The app has not adopted the scene-based life cycle and was built with an SDK that requires it:
    /// UIKit asserts at launch and the app does not launch (TN3187 [S99]; see
    /// ``BudgetPolicy/requiresSceneLifecycle``). No callback runs and no termination code is left.
    case sceneLifecycleRequired
    /// Any other orderly termination by the system.
    case system

    /// The reason's name.
    public var description: String { rawValue }

    /// The crash-report termination code for this reason, or `nil` when the exit leaves none.
    ///
    /// Sources: [S22][S23]. Policies for older iOS versions may report a different code
    /// for the same reason (for example `0x8badf00d` for unfinished tasks before iOS 13).
    public var defaultCode: UInt32? {
        switch self {
        case .watchdog: 0x8bad_f00d
        case .backgroundTaskExpired: 0x2182_bad2
        case .backgroundFetchNotCompleted: 0x2182_bad4
        case .tooManyBackgroundTasks: 0xbada_5e47
        case .voipPushNotReported: 0xbaad_ca11
        case .fileLockHeldAtSuspension: 0xdead_10cc
        case .memoryPressure, .userKill, .exitsOnSuspend, .taskRegisteredTwice, .uncaughtException, .reboot, .sceneLifecycleRequired, .system: nil
        }
    }
}
