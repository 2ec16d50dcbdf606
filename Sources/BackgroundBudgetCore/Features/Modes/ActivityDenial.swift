import BudgetTime

/// Why an activity could not start keeping the app running.
///
/// The denials grow as the model does, so this is a struct with a static member per denial rather
/// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
/// a `default`:
///
/// ```swift
/// switch denial {
/// case .modeNotDeclared: print("modeNotDeclared")
/// default: print(denial)   // its name
/// }
/// ```
public struct ActivityDenial: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible, Error {
    /// The denials the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case modeNotDeclared
        case notRunning
        case exitsOnSuspend
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
    public static var allCases: [ActivityDenial] { Base.allCases.map(ActivityDenial.init) }

    /// The app does not declare the activity's mode in `UIBackgroundModes`.
    public static let modeNotDeclared = ActivityDenial(Base.modeNotDeclared)
    /// The app is not running or is suspended.
    public static let notRunning = ActivityDenial(Base.notRunning)
    /// The app sets `UIApplicationExitsOnSuspend` and never runs in the background.
    public static let exitsOnSuspend = ActivityDenial(Base.exitsOnSuspend)

    /// A sentence saying why.
    public var description: String {
        switch base {
        case .modeNotDeclared: "the app does not declare the background mode"
        case .notRunning: "the app is not running"
        case .exitsOnSuspend: "the app exits on suspend"
        }
    }
}
