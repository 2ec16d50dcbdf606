import BudgetTime

/// Everything the system did and decided, in order: callbacks, state changes and decisions with reasons.
///
/// A trace is a value: `BackgroundSystem.trace` returns a snapshot. The same inputs on a
/// ``/BudgetClock/VirtualClock`` give the same trace, byte for byte.
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
