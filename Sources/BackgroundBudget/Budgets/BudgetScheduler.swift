import Synchronization

/// Time budgets for any work, in the image of iOS's background tasks: a job asks for an allowance, gets
/// a soft warning shortly before it runs out, and a hard stop with a typed reason if it is not ended in
/// time. No app, no lifecycle: this is for job runners.
///
/// ```swift
/// let scheduler = BudgetScheduler(clock: DispatchClock())       // or a VirtualClock in tests
/// let job = try scheduler.requestBudget(
///     named: "thumbnail", allowance: .seconds(30), warningLead: .seconds(5), grace: .seconds(2),
///     onWarning: { _ in cancelSoon() },                          // at 25 s
///     onStop: { _, reason in abandon(reason) })                  // at 32 s unless ended
/// defer { scheduler.end(job) }
/// ```
///
/// Budgets nest: a child's hard stop is never later than its parent's, and when a parent stops or is
/// ended, its live children stop first (``BudgetStopReason/parentStopped`` or
/// ``BudgetStopReason/parentEnded``). Handlers run on the clock's thread (the thread advancing a
/// ``VirtualClock``), after the scheduler's lock is released, children before parents.
///
/// The scheduler keeps its own deadline heap and arms one clock timer for its earliest deadline, so a
/// live budget costs a heap entry and a record, and thousands of threads may request and end budgets
/// concurrently.
///
/// - Complexity: Requesting and ending a budget are O(log n) in the number of live budgets.
public final class BudgetScheduler: Sendable {
    private struct Record {
        var name: String
        var warnAt: BudgetInstant?
        var stopAt: BudgetInstant
        var parent: UInt64
        var firstChild: UInt64 = 0
        var previousSibling: UInt64 = 0
        var nextSibling: UInt64 = 0
        var entry: DeadlineHeap<UInt64>.Handle
        var onWarning: BudgetWarningHandler?
        var onStop: BudgetStopHandler?
    }

    private struct State {
        var records: [UInt64: Record] = [:]
        var deadlines = DeadlineHeap<UInt64>()
        var nextID: UInt64 = 1
        var timer: ScheduledWork?
        var timerAt: BudgetInstant?
    }

    /// The clock deadlines run on.
    public let clock: any BudgetClock
    private let state = Mutex(State())

    /// Creates a scheduler with no budgets.
    /// - Parameter clock: A ``VirtualClock`` for tests, a real-time clock for real work.
    public init(clock: any BudgetClock) {
        self.clock = clock
    }

    /// The number of live budgets.
    public var liveCount: Int { state.withLock { $0.records.count } }

    /// Grants a budget.
    ///
    /// - Parameters:
    ///   - name: A name for errors and debugging.
    ///   - allowance: How long the work may take before its hard stop (plus `grace`).
    ///   - warningLead: How long before the allowance runs out `onWarning` is called; zero for a
    ///     warning at the end of the allowance.
    ///   - grace: Extra time after the allowance before the hard stop.
    ///   - parent: A live budget this one belongs to; it ends no later than its parent.
    ///   - onWarning: Called once when the warning is due, if the budget is still live.
    ///   - onStop: Called once if the budget stops before it is ended, with the reason.
    /// - Returns: The budget.
    /// - Throws: ``BudgetError`` for a non-positive allowance, a warning lead outside the allowance, a
    ///   negative grace, or a parent that is not live. Nothing is scheduled then.
    /// - Complexity: O(log n) in the number of live budgets.
    public func requestBudget(
        named name: String,
        allowance: Duration,
        warningLead: Duration = .zero,
        grace: Duration = .zero,
        parent: Budget? = nil,
        onWarning: BudgetWarningHandler? = nil,
        onStop: BudgetStopHandler? = nil
    ) throws(BudgetError) -> Budget {
        guard allowance > .zero else { throw BudgetError(name: name, problem: .allowanceNotPositive(allowance)) }
        guard warningLead >= .zero, warningLead <= allowance else {
            throw BudgetError(name: name, problem: .warningLeadOutOfRange(warningLead, allowance: allowance))
        }
        guard grace >= .zero else { throw BudgetError(name: name, problem: .graceNegative(grace)) }
        let now = clock.now
        return try state.withLock { (state) throws(BudgetError) -> Budget in
            let parentID = parent?.id ?? 0
            var stopAt = now + allowance + grace
            var warnAt: BudgetInstant? = now + allowance - warningLead
            if let parent {
                guard let parentRecord = state.records[parent.id] else {
                    throw BudgetError(name: name, problem: .parentNotLive(parent))
                }
                if parentRecord.stopAt < stopAt {
                    stopAt = parentRecord.stopAt
                    warnAt = min(warnAt!, stopAt - warningLead)
                }
            }
            let id = state.nextID
            state.nextID += 1
            let first = warnAt.map { $0 < stopAt ? $0 : stopAt } ?? stopAt
            let entry = state.deadlines.insert(deadline: first.nanoseconds, payload: id)
            var record = Record(name: name, warnAt: warnAt, stopAt: stopAt, parent: parentID, entry: entry,
                                onWarning: onWarning, onStop: onStop)
            if parentID != 0 {
                record.nextSibling = state.records[parentID]!.firstChild
                if record.nextSibling != 0 { state.records[record.nextSibling]!.previousSibling = id }
                state.records[parentID]!.firstChild = id
            }
            state.records[id] = record
            rearm(&state)
            return Budget(id: id)
        }
    }

    /// Ends a budget: its work is done. Its live children stop with ``BudgetStopReason/parentEnded``.
    /// - Parameter budget: The budget.
    /// - Returns: `true` if the budget was live; `false` if it had already ended or stopped (nothing
    ///   happens then).
    @discardableResult
    public func end(_ budget: Budget) -> Bool {
        let (wasLive, stopped) = state.withLock { state -> (Bool, [(Budget, BudgetStopReason, BudgetStopHandler?)]) in
            guard state.records[budget.id] != nil else { return (false, []) }
            var stopped: [(Budget, BudgetStopReason, BudgetStopHandler?)] = []
            stopChildren(of: budget.id, reason: .parentEnded, in: &state, into: &stopped)
            remove(budget.id, in: &state)
            rearm(&state)
            return (true, stopped)
        }
        for (child, reason, handler) in stopped { handler?(child, reason) }
        return wasLive
    }

    /// Whether a budget is still live (neither ended nor stopped).
    public func isLive(_ budget: Budget) -> Bool {
        state.withLock { $0.records[budget.id] != nil }
    }

    /// Time left before the budget's hard stop, or `nil` if it is not live.
    public func timeRemaining(_ budget: Budget) -> Duration? {
        let now = clock.now
        return state.withLock { state in state.records[budget.id].map { max(.zero, $0.stopAt - now) } }
    }

    // MARK: Deadlines

    /// Runs every deadline due by now: warnings, then stops (children first), handlers after unlocking.
    private func fire() {
        let now = clock.now
        var warnings: [(Budget, BudgetWarningHandler?)] = []
        var stopped: [(Budget, BudgetStopReason, BudgetStopHandler?)] = []
        state.withLock { state in
            state.timer = nil
            state.timerAt = nil
            while let (_, id) = state.deadlines.popFirst(ifDueBy: now.nanoseconds) {
                guard var record = state.records[id] else { continue }
                if let warnAt = record.warnAt, warnAt <= now, warnAt < record.stopAt {
                    record.warnAt = nil
                    warnings.append((Budget(id: id), record.onWarning))
                    record.entry = state.deadlines.insert(deadline: record.stopAt.nanoseconds, payload: id)
                    state.records[id] = record
                    continue
                }
                if record.warnAt != nil { warnings.append((Budget(id: id), record.onWarning)) }
                stopChildren(of: id, reason: .parentStopped, in: &state, into: &stopped)
                stopped.append((Budget(id: id), .expired, record.onStop))
                remove(id, in: &state)
            }
            rearm(&state)
        }
        for (budget, handler) in warnings { handler?(budget) }
        for (budget, reason, handler) in stopped { handler?(budget, reason) }
    }

    /// Removes every live descendant of a budget, deepest first, recording each with `reason`.
    private func stopChildren(of id: UInt64, reason: BudgetStopReason, in state: inout State,
                              into stopped: inout [(Budget, BudgetStopReason, BudgetStopHandler?)]) {
        while let child = state.records[id]?.firstChild, child != 0 {
            stopChildren(of: child, reason: .parentStopped, in: &state, into: &stopped)
            stopped.append((Budget(id: child), reason, state.records[child]?.onStop))
            remove(child, in: &state)
        }
    }

    /// Unlinks a budget from its parent and siblings and drops its deadline.
    private func remove(_ id: UInt64, in state: inout State) {
        guard let record = state.records.removeValue(forKey: id) else { return }
        state.deadlines.remove(record.entry)
        if record.previousSibling != 0 {
            state.records[record.previousSibling]?.nextSibling = record.nextSibling
        } else if record.parent != 0 {
            state.records[record.parent]?.firstChild = record.nextSibling
        }
        if record.nextSibling != 0 { state.records[record.nextSibling]?.previousSibling = record.previousSibling }
    }

    /// Keeps exactly one clock timer armed, for the earliest deadline.
    private func rearm(_ state: inout State) {
        let earliest = state.deadlines.peekDeadline.map(BudgetInstant.init(nanoseconds:))
        guard earliest != state.timerAt else { return }
        if let timer = state.timer { clock.cancel(timer) }
        state.timerAt = earliest
        state.timer = earliest.map { clock.schedule(at: $0) { [weak self] in self?.fire() } }
    }
}
