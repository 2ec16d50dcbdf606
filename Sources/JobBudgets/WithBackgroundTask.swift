import BudgetClock

/// Runs async work under a time budget: the work's task is cancelled at the warning, and the call
/// returns at the hard stop at the latest, throwing ``BudgetStoppedError``.
///
/// ```swift
/// let thumbnails = try await withBackgroundTask(name: "thumbnails", allowance: .seconds(30),
///                                               warningLead: .seconds(5), scheduler: scheduler) {
///     try await renderAll()            // sees Task.isCancelled at 25 s
/// }
/// ```
///
/// Calls nest: a `withBackgroundTask` inside another (same scheduler) gets a child budget, which never
/// outlives its parent (``Budget/current``). Cancelling the calling task cancels the work too.
///
/// - Parameters:
///   - name: A name for errors and debugging.
///   - allowance: How long the work may take.
///   - warningLead: How long before the allowance runs out the work is cancelled.
///   - grace: Extra time after the allowance before the call gives up on the work.
///   - scheduler: The scheduler that keeps the budget.
///   - operation: The work; it runs in a new child task.
/// - Returns: What the work returned, if it finished before the hard stop.
/// - Throws: ``BudgetError`` for a bad request; ``BudgetStoppedError`` at the hard stop (the work
///   keeps running, cancelled, but its result is dropped); or whatever the work threw.
public func withBackgroundTask<T: Sendable>(
    name: String,
    allowance: Duration,
    warningLead: Duration = .zero,
    grace: Duration = .zero,
    scheduler: BudgetScheduler,
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = Outcome<T>()
    let parent = Budget.current.flatMap { $0.scheduler === scheduler ? $0.budget : nil }
    let budget = try scheduler.requestBudget(
        named: name, allowance: allowance, warningLead: warningLead, grace: grace, parent: parent,
        onWarning: { _ in outcome.cancelWork() },
        onStop: { budget, reason in
            outcome.cancelWork()
            outcome.finish(.failure(BudgetStoppedError(budget: budget, reason: reason)))
        }
    )
    let work = Task {
        let result: Result<T, any Error>
        do {
            result = .success(try await Budget.$current.withValue((budget, scheduler)) { try await operation() })
        } catch {
            result = .failure(error)
        }
        scheduler.end(budget)
        outcome.finish(result)
    }
    outcome.setWork(work)
    return try await withTaskCancellationHandler {
        try await outcome.value()
    } onCancel: {
        outcome.cancelWork()
    }
}

/// The one result of a budgeted operation, delivered exactly once to the one waiter.
private final class Outcome<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<T, any Error>?
        var work: Task<Void, Never>?
        var cancelRequested = false
    }

    private let state = LockedValue(State())

    func setWork(_ work: Task<Void, Never>) {
        let cancel = state.withLock { state -> Bool in
            state.work = work
            return state.cancelRequested
        }
        if cancel { work.cancel() }
    }

    func cancelWork() {
        let work = state.withLock { state -> Task<Void, Never>? in
            state.cancelRequested = true
            return state.work
        }
        work?.cancel()
    }

    /// Records the result if none was recorded yet, and hands it to the waiter if there is one.
    func finish(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<T, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<T, any Error>? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
