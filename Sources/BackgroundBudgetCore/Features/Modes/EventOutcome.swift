import BudgetTime

/// What the system did with a ``BackgroundEvent``.
///
/// The outcomes grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`.
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
