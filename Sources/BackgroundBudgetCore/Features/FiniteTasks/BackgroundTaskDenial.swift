import BudgetTime

/// Why `beginBackgroundTask` returned ``BackgroundTaskIdentifier/invalid``.
///
/// The denials grow as the model does, so this is a struct with a static member per denial rather
/// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
/// a `default`:
///
/// ```swift
/// switch denial {
/// case .allowanceSpent: print("allowanceSpent")
/// default: print(denial)   // its name
/// }
/// ```
///
/// Sources: [S14][S17].
public struct BackgroundTaskDenial: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible, Error {
    /// The denials the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case allowanceSpent
        case suspended
        case notRunning
        case exitsOnSuspend
        case terminating
        case tooManyTasks
    }

    /// The denial, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The denial's name, as traces and outside files spell it.
    public var rawValue: String { base.rawValue }

    /// The denial with that name, or `nil` for a name the model does not know.
    public init?(rawValue: String) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }

    /// Every denial the model knows, in declaration order.
    public static var allCases: [BackgroundTaskDenial] { Base.allCases.map(BackgroundTaskDenial.init) }

    /// The app's background allowance is used up.
    public static let allowanceSpent = BackgroundTaskDenial(Base.allowanceSpent)
    /// The app is suspended and executes no code.
    public static let suspended = BackgroundTaskDenial(Base.suspended)
    /// The app is not running.
    public static let notRunning = BackgroundTaskDenial(Base.notRunning)
    /// The app sets `UIApplicationExitsOnSuspend` and never runs in the background.
    public static let exitsOnSuspend = BackgroundTaskDenial(Base.exitsOnSuspend)
    /// The app is being terminated (`applicationWillTerminate` is running).
    public static let terminating = BackgroundTaskDenial(Base.terminating)
    /// The app already holds the maximum number of task assertions; asking for one more terminated it
    /// (`0xbada5e47`).
    public static let tooManyTasks = BackgroundTaskDenial(Base.tooManyTasks)

    /// A sentence saying why.
    public var description: String {
        switch base {
        case .allowanceSpent: "the background allowance is used up"
        case .suspended: "the app is suspended"
        case .notRunning: "the app is not running"
        case .exitsOnSuspend: "the app exits on suspend and never runs in the background"
        case .terminating: "the app is terminating"
        case .tooManyTasks: "too many background task assertions; the app was terminated"
        }
    }
}
