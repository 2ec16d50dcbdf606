import BudgetTime

/// Why the system expired a running task.
///
/// The reasons grow as the model does, so this is a struct with a static member per reason rather
/// than an enum: a new one is not a breaking change. Compare with `==`, or match in a `switch` that has
/// a `default`:
///
/// ```swift
/// switch reason {
/// case .runtimeEnding: print("runtimeEnding")
/// default: print(reason)   // its name
/// }
/// ```
public struct TaskExpiryReason: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The reasons the model knows, for the package's own exhaustive switches.
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case runtimeEnding
        case runtimeCap
        case deviceInUse
        case networkLost
        case externalPowerLost
        case cancelledByUser
        case resourcesReclaimed
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
    public static var allCases: [TaskExpiryReason] { Base.allCases.map(TaskExpiryReason.init) }

    /// The reason's name.
    public var description: String { rawValue }

    /// A refresh task's runtime is about to run out (``BudgetPolicy/expirationWarningLead`` before it).
    public static let runtimeEnding = TaskExpiryReason(Base.runtimeEnding)
    /// A processing task reached ``BudgetPolicy/processingTaskRuntimeCap``.
    public static let runtimeCap = TaskExpiryReason(Base.runtimeCap)
    /// The device stopped being idle (the user opened an app).
    public static let deviceInUse = TaskExpiryReason(Base.deviceInUse)
    /// The network connection a processing task requires was lost.
    public static let networkLost = TaskExpiryReason(Base.networkLost)
    /// The external power a processing task requires was lost.
    public static let externalPowerLost = TaskExpiryReason(Base.externalPowerLost)
    /// The user cancelled a continued-processing task from the system's interface [S54].
    public static let cancelledByUser = TaskExpiryReason(Base.cancelledByUser)
    /// The system reclaimed resources from the continued-processing task with the least progress [S54].
    public static let resourcesReclaimed = TaskExpiryReason(Base.resourcesReclaimed)
}
