import BudgetLock
import BudgetTime
import BudgetClock

/// What work running under ``withBackgroundTask(named:allowance:warningLead:grace:maximumAllowance:scheduler:operation:)``
/// sees of its budget: whether the warning has come, how long is left, and a way to ask for more.
///
/// The warning is a soft signal: it never cancels the work. Check ``isWarned`` between steps, or
/// wait for it with ``waitForWarning()`` beside the work; then checkpoint and return. Only the hard
/// stop cancels the work (`Task.isCancelled`, `CancellationError` from `Task.sleep` and friends),
/// and ``stopReason`` then says why.
///
/// ```swift
/// let outcome = try await withBackgroundTask(named: "resize", allowance: .seconds(30),
///                                            warningLead: .seconds(5), scheduler: scheduler) { task in
///     for image in images[progress...] {
///         if task.isWarned { return try checkpoint(progress) }   // at 25 s: wrap up
///         try await resize(image)                                // cancelled at 30 s
///         progress += 1
///     }
///     return .done
/// }
/// ```
public final class BackgroundTask: Sendable {
    /// The budget the work runs under.
    public let budget: Budget
    /// The scheduler that keeps the budget.
    public let scheduler: BudgetScheduler
    /// The warning and the hard stop, made before the budget so that its handlers can reach them.
    let signals: Signals

    init(budget: Budget, scheduler: BudgetScheduler, signals: Signals) {
        self.budget = budget
        self.scheduler = scheduler
        self.signals = signals
    }

    /// A task with a budget of its own but no work around it: a test double, so that a job function
    /// taking a `BackgroundTask` can be unit-tested alone, on a ``/BudgetClock/VirtualClock``.
    ///
    /// The budget is granted on `scheduler` as for `withBackgroundTask`; advancing the clock warns it
    /// (``isWarned``, ``waitForWarning()``) and stops it (``stopReason``). No task is cancelled at the
    /// hard stop (there is none to cancel): check ``stopReason``. End the budget with
    /// ``BudgetScheduler/end(_:)`` when the test is done with it.
    ///
    /// ```swift
    /// let clock = VirtualClock()
    /// let scheduler = BudgetScheduler(clock: clock)
    /// let task = try BackgroundTask.forTesting(named: "resize", allowance: .seconds(30),
    ///                                          warningLead: .seconds(5), scheduler: scheduler)
    /// clock.advance(by: .seconds(25))
    /// #expect(try await resizeAll(images, task: task) == .checkpointed)   // the job saw the warning
    /// ```
    /// - Parameters:
    ///   - name: The budget's name.
    ///   - allowance: Its allowance.
    ///   - warningLead: How long before the allowance runs out it is warned.
    ///   - grace: Extra time after the allowance before the hard stop.
    ///   - parent: A live budget it belongs to.
    ///   - scheduler: The scheduler (usually on a virtual clock).
    /// - Returns: The task.
    /// - Throws: ``BudgetError`` for a request that cannot be granted.
    public static func forTesting(
        named name: String = "test", allowance: Duration, warningLead: Duration = .zero, grace: Duration = .zero,
        parent: Budget? = nil, scheduler: BudgetScheduler
    ) throws(BudgetError) -> BackgroundTask {
        let signals = Signals()
        let budget = try scheduler.requestBudget(
            named: name, allowance: allowance, warningLead: warningLead, grace: grace, parent: parent,
            onWarning: { _ in signals.warn() }, onStop: { _, reason in signals.stop(reason) })
        return BackgroundTask(budget: budget, scheduler: scheduler, signals: signals)
    }

    /// The innermost background task running in the current Swift task, if any: a
    /// `withBackgroundTask` inside it (on the same scheduler) gets a child budget.
    @TaskLocal public static var current: BackgroundTask?

    /// The budget's name.
    public var name: String { budget.name }

    /// Whether the warning has come: the allowance is running out, or the scheduler is shutting down.
    public var isWarned: Bool { signals.isWarned }

    /// Why the budget stopped, once it has (the work is then cancelled); `nil` before.
    public var stopReason: BudgetStopReason? { signals.reason }

    /// Time left before the hard stop; `nil` once the budget has ended or stopped.
    public var timeRemaining: Duration? { scheduler.timeRemaining(budget) }

    /// Suspends until the warning has come; returns at once if it has.
    /// - Throws: `CancellationError` if the task is cancelled first (by the hard stop, or by whoever
    ///   cancels the caller).
    public func waitForWarning() async throws {
        try await signals.waitForWarning()
    }

    /// Moves the hard stop later (see ``BudgetScheduler/extend(_:by:)``).
    /// - Parameter extra: How much later.
    /// - Returns: The new hard stop.
    /// - Throws: ``BudgetError`` if the budget is not live or the extension passes a limit.
    @discardableResult
    public func extend(by extra: Duration) throws(BudgetError) -> BudgetInstant {
        try scheduler.extend(budget, by: extra)
    }
}
