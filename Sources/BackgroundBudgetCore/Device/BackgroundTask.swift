import BudgetClock

/// Identifies one finite background task, as `UIBackgroundTaskIdentifier` does.
///
/// Identifiers are unique per app for the life of the ``BackgroundSystem``: a task begun after a
/// relaunch never reuses an old number, so ending a stale identifier is reported, not misapplied.
public struct BackgroundTaskIdentifier: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number; `0` is ``invalid``.
    public var rawValue: UInt64

    /// Creates an identifier from its number.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// The identifier `beginBackgroundTask` returns when no task was granted (`UIBackgroundTaskInvalid`).
    public static let invalid = BackgroundTaskIdentifier(rawValue: 0)

    /// Orders identifiers by number, which is the order the tasks were begun.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The number, or `"invalid"`.
    public var description: String { self == .invalid ? "invalid" : String(rawValue) }
}

/// Why `beginBackgroundTask` returned ``BackgroundTaskIdentifier/invalid``.
///
/// Source: IOS-FACTS Part 1 and §3 ([S14][S17]).
public enum BackgroundTaskDenial: String, Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
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

/// Why `endBackgroundTask` did nothing. Reported in the trace; never a crash.
public enum BackgroundTaskEndProblem: String, Sendable, Hashable, CaseIterable {
    /// The identifier was ``BackgroundTaskIdentifier/invalid``.
    case invalidIdentifier
    /// No task with this identifier was ever begun by this app.
    case unknownTask
    /// The task was already ended, or ended when its app terminated.
    case alreadyEnded
}
