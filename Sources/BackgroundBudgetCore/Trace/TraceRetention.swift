import BudgetTime

/// How much of the trace a `BackgroundSystem` keeps.
///
/// The default, ``automatic``, keeps everything on a ``/BudgetClock/VirtualClock`` (tests, examples and scenarios
/// see the whole trace) and only the latest ``defaultLatestCount`` entries on any other clock, such as
/// ``/BudgetClock/DispatchClock``: a program that runs for hours in real time does not grow without bound. Choose
/// ``all``, ``latest(_:)`` or ``none`` to decide yourself.
///
/// The set is closed: every entry, the latest ones, none, or the clock's choice; a `switch` over it needs no
/// `default`.
public enum TraceRetention: Sendable, Hashable {
    /// Keep every entry.
    case all
    /// Keep at least the latest `count` entries (at most twice as many); older ones are discarded in
    /// batches and counted in ``Trace/discardedCount``.
    case latest(Int)
    /// Record nothing.
    case none
    /// ``all`` on a ``/BudgetClock/VirtualClock``; ``latest(_:)`` with ``defaultLatestCount`` on any other clock.
    case automatic

    /// How many entries ``automatic`` keeps on a real clock: 10,000 (a few megabytes).
    public static let defaultLatestCount = 10_000
}
