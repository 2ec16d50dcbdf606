import BudgetTime

/// The five execution states of an iOS app.
///
/// UIKit's `UIApplication.State` reports only the first three running states; the system also knows
/// whether a background app is still executing or has been suspended, and whether it runs at all.
/// The raw values are the names written to traces.
///
/// Source: Apple's app-state table ([S90][S1]).
///
/// The set is closed: every state Apple's app-state table gives a process, so a `switch` over it needs no `default`.
public enum ApplicationState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The app has not been launched, or was terminated by itself or the system.
    case notRunning
    /// In the foreground but not receiving events: launching, or covered by an alert or the app switcher.
    case inactive
    /// In the foreground and receiving events.
    case active
    /// In the background and executing code.
    case background
    /// In memory but executing no code; entered silently, without a callback.
    case suspended

    /// The state's trace name, e.g. `"background"`.
    public var description: String { rawValue }

    /// Whether the app is on screen (``inactive`` or ``active``).
    public var isForeground: Bool { self == .inactive || self == .active }

    /// Whether the app's process exists and executes code (every state but ``notRunning`` and ``suspended``).
    public var isExecuting: Bool { self == .inactive || self == .active || self == .background }
}
