import BudgetTime

/// A continued-processing task as the user sees it: its title, subtitle and progress, queued or
/// running (the system's Live Activity for the task [S54]).
public struct ContinuedProcessingActivity: Sendable, Hashable, CustomStringConvertible {
    /// Where the task is.
    ///
    /// The phases grow as the model does, so this is a struct with a static member (a static function for one with
    /// values) per phase rather than an enum: a new one is not a breaking change. Compare with `==`, or match in a
    /// `switch` that has a `default`; read a phase's values through the property of its name.
    public struct Phase: Sendable, Hashable, CustomStringConvertible {
        /// The phases the model knows, with their values, for the package's own exhaustive switches.
        package enum Base: Sendable, Hashable {
            case queued(position: Int)
            case running
            case expiring
        }

        /// The phase, for the package's own exhaustive switches.
        package let base: Base

        package init(_ base: Base) { self.base = base }

        /// Waiting in the system's queue at this position (0 is next).
        public static func queued(position: Int) -> Phase { Phase(.queued(position: position)) }
        /// What a ``queued(position:)`` phase carries; `nil` for any other phase.
        public var queued: Int? {
            if case .queued(let v0) = base { v0 } else { nil }
        }

        /// Running.
        public static let running = Phase(.running)
        /// Expired (cancelled by the user or reclaimed) and not yet completed by the app.
        public static let expiring = Phase(.expiring)

        /// `queued(position: 0)`, `running`, `expiring`.
        public var description: String {
            switch base {
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
