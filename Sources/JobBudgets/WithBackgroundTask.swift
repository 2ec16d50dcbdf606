import BudgetClock

/// Runs async work under a time budget, as a child task, and returns when the work has finished, with
/// what happened.
///
/// What the work sees, in order:
/// 1. It starts at once, with ``BackgroundTask/current`` set and the ``BackgroundTask`` passed in.
/// 2. At allowance − `warningLead` (or at once on ``BudgetScheduler/shutdown(grace:)``), the warning:
///    ``BackgroundTask/isWarned`` turns `true` and ``BackgroundTask/waitForWarning()`` returns. Nothing
///    is cancelled: clean-up may still `await`.
/// 3. At allowance + `grace` (or the shutdown's hard stop), if it has not finished: the hard stop.
///    Its task is cancelled and ``BackgroundTask/stopReason`` is set.
/// 4. The call returns only once the work has returned or thrown: no work outlives it. If the hard
///    stop was due by then (even if the clock had not run it yet, or an ancestor's stop came first),
///    the outcome says so: ``BackgroundTaskOutcome/stopReason`` is set, never a success in time.
///
/// ```swift
/// let outcome = try await withBackgroundTask(named: "thumbnails", allowance: .seconds(30),
///                                            warningLead: .seconds(5), scheduler: scheduler) { task in
///     try await renderAll(until: { task.isWarned })   // sees isWarned at 25 s, cancellation at 30 s
/// }
/// let thumbnails = try outcome.get()
/// ```
///
/// Calls nest: a `withBackgroundTask` inside another (same scheduler) gets a child budget, which never
/// outlives its parent. Cancelling the calling task cancels the work too (the outcome then has no
/// ``BackgroundTaskOutcome/stopReason``, and the budget is ended).
///
/// - Parameters:
///   - name: A name for errors, logs and the outcome.
///   - allowance: How long the work may take before the warning's lead and grace are counted.
///   - warningLead: How long before the allowance runs out the work is warned.
///   - grace: Extra time after the allowance before the hard stop.
///   - maximumAllowance: How long ``BackgroundTask/extend(by:)`` may take the allowance.
///   - scheduler: The scheduler that keeps the budget.
///   - operation: The work; it runs in a child task, and the call does not return before it has.
/// - Returns: The ``BackgroundTaskOutcome``: what the work returned or threw, whether it was warned
///   and whether the hard stop cancelled it.
/// - Throws: ``BudgetError`` only, for a request that cannot be granted (the work does not run then).
public func withBackgroundTask<Success: Sendable>(
    named name: String,
    allowance: Duration,
    warningLead: Duration = .zero,
    grace: Duration = .zero,
    maximumAllowance: Duration? = nil,
    scheduler: BudgetScheduler,
    operation: @Sendable (BackgroundTask) async throws -> Success
) async throws(BudgetError) -> BackgroundTaskOutcome<Success> {
    try await runBackgroundTask(named: name, allowance: allowance, warningLead: warningLead, grace: grace,
                                maximumAllowance: maximumAllowance, scheduler: scheduler, scope: 0, operation: operation)
}

/// Runs async work under a time budget in a ``BudgetScope``: the same as
/// ``withBackgroundTask(named:allowance:warningLead:grace:maximumAllowance:scheduler:operation:)`` on the
/// scope's scheduler, except that the scope's ``BudgetScope/shutdown(grace:)`` reaches the work too.
///
/// - Parameters:
///   - name: A name for errors, logs and the outcome.
///   - allowance: How long the work may take before the warning's lead and grace are counted.
///   - warningLead: How long before the allowance runs out the work is warned.
///   - grace: Extra time after the allowance before the hard stop.
///   - maximumAllowance: How long ``BackgroundTask/extend(by:)`` may take the allowance.
///   - scope: The scope the budget belongs to.
///   - operation: The work; it runs in a child task, and the call does not return before it has.
/// - Returns: The ``BackgroundTaskOutcome``.
/// - Throws: ``BudgetError`` only, for a request that cannot be granted (the work does not run then).
public func withBackgroundTask<Success: Sendable>(
    named name: String,
    allowance: Duration,
    warningLead: Duration = .zero,
    grace: Duration = .zero,
    maximumAllowance: Duration? = nil,
    scope: BudgetScope,
    operation: @Sendable (BackgroundTask) async throws -> Success
) async throws(BudgetError) -> BackgroundTaskOutcome<Success> {
    scope.calls.enter()                                    // counted until the call returns: see `waitUntilDrained`
    defer { scope.calls.leave() }
    return try await runBackgroundTask(named: name, allowance: allowance, warningLead: warningLead, grace: grace,
                                maximumAllowance: maximumAllowance, scheduler: scope.scheduler, scope: scope.id,
                                operation: operation)
}

/// The body of both `withBackgroundTask` functions.
func runBackgroundTask<Success: Sendable>(
    named name: String, allowance: Duration, warningLead: Duration, grace: Duration, maximumAllowance: Duration?,
    scheduler: BudgetScheduler, scope: UInt32, operation: @Sendable (BackgroundTask) async throws -> Success
) async throws(BudgetError) -> BackgroundTaskOutcome<Success> {
    let parent = BackgroundTask.current.flatMap { $0.scheduler === scheduler ? $0.budget : nil }
    let signals = BackgroundTask.Signals()
    let budget = try scheduler.request(
        named: name, allowance: allowance, warningLead: warningLead, grace: grace,
        maximumAllowance: maximumAllowance, parent: parent, scope: scope,
        onWarning: { _ in signals.warn() },
        onStop: { _, reason in signals.stop(reason) })
    let task = BackgroundTask(budget: budget, scheduler: scheduler, signals: signals)
    // The work runs in a child task, which the hard stop cancels directly (see `Signals`).
    let result = await withoutActuallyEscaping(operation) { operation in
        await withTaskGroup(of: Result<Success, any Error>.self) { group in
            group.addTask {
                scheduler.countRunningJob(1)
                defer { scheduler.countRunningJob(-1) }
                withUnsafeCurrentTask { current in
                    if let current, signals.workStarted(current) { current.cancel() }
                }
                let result: Result<Success, any Error>
                do {
                    result = .success(try await BackgroundTask.$current.withValue(task) { try await operation(task) })
                } catch {
                    result = .failure(error)
                }
                await signals.workFinished()
                return result
            }
            guard let result = await group.next() else { fatalError("withBackgroundTask: the work's child task returned no result") }
            return result
        }
    }
    let stoppedFirst = !scheduler.end(budget)
    return BackgroundTaskOutcome(budget: budget, result: result, wasWarned: task.isWarned,
                                 stopReason: stoppedFirst ? task.stopReason : nil)
}
