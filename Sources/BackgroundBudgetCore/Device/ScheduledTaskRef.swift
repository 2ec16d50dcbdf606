import BudgetTime

/// A running `BGTaskScheduler` task as the core names it: values only. The shell makes the
/// ``ScheduledTask`` object the app sees from it and keeps that object by ``number``.
package struct ScheduledTaskRef: Hashable, Sendable {
    /// The task's number, unique on the device (the core hands them out in start order).
    package private(set) var number: UInt64
    /// The request's identifier.
    package private(set) var identifier: String
    /// The kind of request that started it.
    package private(set) var kind: TaskRequest.Kind
}
