import BudgetTime

/// A continued-processing task as the user sees it: its title, subtitle and progress, queued or
/// running (the system's Live Activity for the task [S54]).
public struct ContinuedProcessingActivity: Sendable, Hashable, CustomStringConvertible {
    /// Where the task is.
    ///
    /// The phases grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or
    /// in the `switch`.
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Phase: Sendable, Hashable, CustomStringConvertible {
        /// Waiting in the system's queue at this position (0 is next).
        case queued(position: Int)
        /// Running.
        case running
        /// Expired (cancelled by the user or reclaimed) and not yet completed by the app.
        case expiring

        /// `queued(position: 0)`, `running`, `expiring`.
        public var description: String {
            switch self {
            case .queued(let position): "queued(position: \(position))"
            case .running: "running"
            case .expiring: "expiring"
            }
        }
    }

    /// The app.
    public var app: AppID
    /// The task identifier.
    public var identifier: String
    /// The title shown.
    public var title: String
    /// The subtitle shown.
    public var subtitle: String
    /// Where the task is.
    public var phase: Phase
    /// Units done, as last reported.
    public var completedUnitCount: Int64
    /// Units in all, as last reported; 0 while unknown.
    public var totalUnitCount: Int64

    /// Progress from 0 to 1; 0 while the total is unknown.
    public var fractionCompleted: Double {
        totalUnitCount > 0 ? min(1, Double(completedUnitCount) / Double(totalUnitCount)) : 0
    }

    /// `com.example.photos: "Exporting 12 photos" (Album Summer) running 40%`.
    public var description: String {
        "\(app): \"\(title)\" (\(subtitle)) \(phase) \(Int((fractionCompleted * 100).rounded(.down)))%"
    }
}
