import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetRuntime

/// What a delegate made for one explored run is given: the app it serves, installed on that run's
/// system, and the run's virtual clock.
///
/// ```swift
/// let target = try ExplorerTarget(json: text, delegates: ["com.example.feed": { context in
///     FeedDelegate(clock: context.clock)   // reads the model's time, not the wall clock
/// }])
/// ```
public struct ExplorerAppContext: Sendable {
    /// The app, installed on ``system``: what a delegate calls (`beginBackgroundTask`, the task
    /// scheduler, …) and reads (its state, and whatever else ``/BackgroundBudget/Application`` offers).
    public let application: Application
    /// The run's device.
    public let system: BackgroundSystem
    /// The run's clock: ``/BudgetClock/VirtualClock/now`` is the model's current instant.
    public let clock: VirtualClock

    /// The app's identifier.
    public var app: AppID {
        application.id
    }
}
