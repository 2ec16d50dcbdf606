import BudgetTime

/// Steps the system has decided for one app, to be delivered on that app's queue in order.
package struct Delivery: Hashable, Sendable {
    /// The app.
    package private(set) var app: AppID
    /// The app's incarnation (launch count) the steps belong to.
    package internal(set) var incarnation: UInt64
    /// The event that caused the steps (it carries the launch reason for launch options).
    package private(set) var event: LifecycleEvent
    /// The steps, in order.
    package internal(set) var steps: [LifecycleStep]
    /// Whether the shell reports back with `settle` once the steps have run (they contain callbacks).
    package private(set) var settles: Bool
}
