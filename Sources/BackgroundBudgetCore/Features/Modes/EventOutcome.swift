import BudgetTime

/// What the system did with a ``BackgroundEvent``.
///
/// The outcomes grow as the model does, so this is a struct with a static member (a static function for one with
/// values) per outcome rather than an enum: a new one is not a breaking change. Compare with `==`, or match in a
/// `switch` that has a `default`; read an outcome's values through the property of its name.
public struct EventOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The outcomes the model knows, with their values, for the package's own exhaustive switches.
    package enum Base: Sendable, Hashable {
        case delivered
        case queued
        case dropped(EventDropReason)
    }

    /// The outcome, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// Delivered to the app, which was launched, woken or already running.
    public static let delivered = EventOutcome(.delivered)
    /// Held until the app next runs (the app does not declare the mode; events are queued) [S36][S37].
    public static let queued = EventOutcome(.queued)

    /// Not delivered, for a reason.
    public static func dropped(_ eventDropReason: EventDropReason) -> EventOutcome {
        EventOutcome(.dropped(eventDropReason))
    }
    /// What a ``dropped(_:)`` outcome carries; `nil` for any other outcome.
    public var dropped: EventDropReason? {
        if case .dropped(let v0) = base { v0 } else { nil }
    }

    /// `delivered`, `queued` or `dropped(reason)`.
    public var description: String {
        switch base {
        case .delivered: "delivered"
        case .queued: "queued"
        case .dropped(let reason): "dropped(\(reason.rawValue))"
        }
    }
}
