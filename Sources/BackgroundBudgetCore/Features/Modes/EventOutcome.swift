import BudgetTime

/// What the system did with a ``BackgroundEvent``.
///
/// The outcomes grow as the model does, so this is a struct with a static member (a static function for one with
/// values) per outcome rather than an enum: a new one is not a breaking change. Compare with `==`, or match in a
/// `switch` that has a `default`; read an outcome's values through the property of its name.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum EventOutcome: Sendable, Hashable, CustomStringConvertible {
    /// Delivered to the app, which was launched, woken or already running.
    case delivered
    /// Held until the app next runs (the app does not declare the mode; events are queued) [S36][S37].
    case queued
    /// Not delivered, for a reason.
    case dropped(EventDropReason)

    /// `delivered`, `queued` or `dropped(reason)`.
    public var description: String {
        switch self {
        case .delivered: "delivered"
        case .queued: "queued"
        case .dropped(let reason): "dropped(\(reason.rawValue))"
        }
    }
}
