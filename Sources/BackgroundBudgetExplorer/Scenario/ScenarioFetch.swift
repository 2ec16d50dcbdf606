import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// How a scenario app answers a background fetch: it works for `work`, then completes with `result`
/// (`never` in scenario files: it never calls the completion handler, and is killed after 30 s).
///
/// ```json
/// "application:performFetchWithCompletionHandler": {"result": "newData", "work": 3}
/// ```
public struct ScenarioFetch: Sendable, Hashable {
    /// The result; `nil` for a completion that is never called.
    public var result: BackgroundFetchResult?
    /// How long the fetch takes.
    public var work: Duration

    /// Creates a fetch behaviour.
    public init(result: BackgroundFetchResult?, work: Duration = .zero) {
        self.result = result
        self.work = work
    }
}
