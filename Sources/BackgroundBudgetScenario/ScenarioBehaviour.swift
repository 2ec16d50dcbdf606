import BackgroundBudget

/// What a scenario app does in each lifecycle callback: the steps, in order, per callback.
///
/// A callback with no steps returns at once.
public struct ScenarioBehaviour: Sendable, Hashable {
    /// The steps for each callback.
    public var steps: [AppCallback: [ScenarioStep]]
    /// The steps the app takes for every system event it receives (`application:didReceive` in
    /// scenario files).
    public var onEvent: [ScenarioStep]

    /// How the app answers background fetches (`application:performFetchWithCompletionHandler`).
    public var fetch: ScenarioFetch?

    /// The behaviour key for ``onEvent``.
    static let onEventKey = "application:didReceive"
    /// The behaviour key for ``fetch``.
    static let fetchKey = "application:performFetchWithCompletionHandler"

    /// Creates a behaviour.
    /// - Parameters:
    ///   - steps: The steps for each callback; callbacks left out do nothing.
    ///   - onEvent: The steps for each system event.
    ///   - fetch: How the app answers background fetches; `nil` answers `noData` at once.
    public init(_ steps: [AppCallback: [ScenarioStep]] = [:], onEvent: [ScenarioStep] = [], fetch: ScenarioFetch? = nil) {
        self.steps = steps
        self.onEvent = onEvent
        self.fetch = fetch
    }
}
