import BudgetTime

/// Why `endBackgroundTask` did nothing. Reported in the trace; never a crash.
///
/// The problems grow as the model does, so this is a struct with a static member per problem rather
/// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
/// a `default`:
///
/// ```swift
/// switch problem {
/// case .invalidIdentifier: print("invalidIdentifier")
/// default: print(problem)   // its name
/// }
/// ```
public struct BackgroundTaskEndProblem: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The problems the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case invalidIdentifier
        case unknownTask
        case alreadyEnded
    }

    /// The problem, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The problem's name, as traces and outside files spell it.
    public var rawValue: String { base.rawValue }

    /// The problem with that name, or `nil` for a name the model does not know.
    public init?(rawValue: String) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }

    /// Every problem the model knows, in declaration order.
    public static var allCases: [BackgroundTaskEndProblem] { Base.allCases.map(BackgroundTaskEndProblem.init) }

    /// The problem's name.
    public var description: String { rawValue }

    /// The identifier was ``BackgroundTaskIdentifier/invalid``.
    public static let invalidIdentifier = BackgroundTaskEndProblem(Base.invalidIdentifier)
    /// No task with this identifier was ever begun by this app.
    public static let unknownTask = BackgroundTaskEndProblem(Base.unknownTask)
    /// The task was already ended, or ended when its app terminated.
    public static let alreadyEnded = BackgroundTaskEndProblem(Base.alreadyEnded)
}
