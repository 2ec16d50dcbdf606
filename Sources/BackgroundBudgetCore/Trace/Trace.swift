import BudgetClock

/// Everything the system did and decided, in order: callbacks, state changes and decisions with reasons.
///
/// A trace is a value: ``BackgroundSystem/trace`` returns a snapshot. The same inputs on a
/// ``VirtualClock`` give the same trace, byte for byte.
///
/// ```swift
/// #expect(system.trace.callbacks(for: app.id) == [
///     .willFinishLaunching, .didFinishLaunching, .didBecomeActive,
/// ])
/// print(system.trace.jsonLines())
/// ```
public struct Trace: Sendable, Hashable {
    /// The entries in the order they happened.
    public var events: [TraceEvent]

    /// How many earlier entries were discarded under a ``TraceRetention`` limit.
    public var discardedCount = 0

    /// Creates a trace from entries.
    public init(events: [TraceEvent] = []) {
        self.events = events
    }

    /// The entries concerning one app.
    /// - Parameter app: The app's identifier.
    public func events(for app: AppID) -> [TraceEvent] {
        events.filter { $0.app == app }
    }

    /// The delegate callbacks one app received, in order.
    /// - Parameter app: The app's identifier.
    public func callbacks(for app: AppID) -> [AppCallback] {
        events.compactMap { $0.app == app ? $0.callback : nil }
    }

    /// The states one app went through, in order (not counting the initial ``ApplicationState/notRunning``).
    /// - Parameter app: The app's identifier.
    public func states(for app: AppID) -> [ApplicationState] {
        events.compactMap { $0.app == app ? $0.state : nil }
    }

    /// The trace as JSON Lines: one ``TraceEvent/jsonLine`` per entry, each ending in a newline.
    public func jsonLines() -> String {
        var text = ""
        for event in events { text += event.jsonLine + "\n" }
        return text
    }

    /// The trace as log lines in the style of `NSLog`, one per entry, each ending in a newline.
    /// - Parameter style: Dates, process names and identifiers to print.
    public func logLines(_ style: LogLineStyle = LogLineStyle()) -> String {
        var processIdentifiers: [AppID: Int] = [:]
        var text = ""
        for event in events {
            let pid = processIdentifiers[event.app] ?? (style.firstProcessIdentifier + processIdentifiers.count)
            processIdentifiers[event.app] = pid
            if let line = style.line(for: event, processIdentifier: pid) { text += line + "\n" }
        }
        return text
    }
}

extension TraceEvent {
    /// The callback, when this entry is one.
    public var callback: AppCallback? {
        if case .callback(let callback) = kind { return callback }
        return nil
    }
}

/// How much of the trace a ``BackgroundSystem`` keeps.
///
/// The default, ``automatic``, keeps everything on a ``VirtualClock`` (tests, examples and scenarios
/// see the whole trace) and only the latest ``defaultLatestCount`` entries on any other clock, such as
/// ``DispatchClock``: a program that runs for hours in real time does not grow without bound. Choose
/// ``all``, ``latest(_:)`` or ``none`` to decide yourself.
public enum TraceRetention: Sendable, Hashable {
    /// Keep every entry.
    case all
    /// Keep at least the latest `count` entries (at most twice as many); older ones are discarded in
    /// batches and counted in ``Trace/discardedCount``.
    case latest(Int)
    /// Record nothing.
    case none
    /// ``all`` on a ``VirtualClock``; ``latest(_:)`` with ``defaultLatestCount`` on any other clock.
    case automatic

    /// How many entries ``automatic`` keeps on a real clock: 10,000 (a few megabytes).
    public static let defaultLatestCount = 10_000
}

extension Trace {
    /// Appends an entry, honouring a retention limit (amortised O(1)).
    mutating func append(_ event: TraceEvent, retention: TraceRetention) {
        switch retention {
        case .all, .automatic:   // a system resolves `automatic` before it records anything
            events.append(event)
        case .latest(let count):
            events.append(event)
            let keep = max(count, 0)
            if events.count >= 2 * keep + 1 {
                let drop = events.count - keep
                events.removeFirst(drop)
                discardedCount += drop
            }
        case .none:
            discardedCount += 1
        }
    }
}
