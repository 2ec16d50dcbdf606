import BudgetLock
import BudgetTime

/// A clock whose time moves only when you advance it, for deterministic unit tests of code that
/// schedules work in time.
///
/// Work is scheduled at an instant (or after a delay) and runs when a call to ``advance(by:)``,
/// ``advance(to:)`` or ``runUntilIdle(maxSteps:)`` reaches its deadline. Each work item runs
/// synchronously on the thread that advances the clock, with ``now`` set to the item's own deadline,
/// so code under test sees exactly the time it was scheduled for.
///
/// ```swift
/// let clock = VirtualClock()
/// clock.schedule(after: .seconds(30)) { print("expired at \(clock.now)") }
/// let watchdog = clock.schedule(after: .seconds(10)) { print("watchdog") }
/// clock.cancel(watchdog)            // true: it was pending
/// clock.advance(by: .seconds(29))   // 0: nothing due; clock.now is t=29.000s
/// clock.advance(by: .seconds(1))    // prints "expired at t=30.000s"; returns 1
/// clock.pendingCount                // 0
/// ```
///
/// ## Order
/// Work runs in deadline order; work with equal deadlines runs in the order it was scheduled. Work
/// that running work schedules inside the window being advanced runs in the same call, in that same
/// order, so work scheduled *at* ``now`` runs after everything already due at that instant. The same
/// calls in the same order therefore always produce the same run order.
///
/// ## Time never goes backwards
/// ``now`` only increases. Advancing to a past instant leaves ``now`` alone (but still runs work
/// due at ``now``); scheduling at a past instant schedules at ``now``.
///
/// ## Re-entrancy and threads
/// The clock's state sits behind one lock, and work runs after the lock is released, so work may
/// call any method of the clock: schedule or cancel work, read ``now``, or advance the clock
/// itself (see ``advance(to:)``). All methods are safe to call from any thread; when several
/// threads use one clock, the order between their calls is theirs to arrange, and work taken by
/// two threads advancing at once may run concurrently.
///
/// - Complexity: Scheduling and cancelling are O(log n) amortised in the number of pending work
///   items, and each item run costs O(log n) amortised plus one uncontended lock round trip.
public final class VirtualClock: Sendable {
    /// The work the clock runs.
    package typealias Work = ClockWork

    /// Everything the lock protects.
    package struct State: Sendable {
        /// The current instant, in nanoseconds.
        var now: Int64
        /// Pending work by deadline.
        var queue = DeadlineHeap<Work>()
        /// Asked after each work item a call runs, outside the lock; `false` halts the clock.
        var runGuard: (@Sendable () -> Bool)?
        /// Once set, no more work runs and ``now`` no longer moves (see ``VirtualClock/installRunGuard(_:)``).
        var halted = false
    }

    let state: LockedValue<State>
    /// Distinguishes this clock's handles from other clocks'.
    private let identity: UInt64
    /// The tasks suspended in `sleep(until:)` (see `VirtualClock+Clock.swift`).
    package let sleepers = SleeperRegistry()

    /// Creates a clock with no pending work.
    /// - Parameter start: The clock's initial ``now``; ``/BudgetTime/BudgetInstant/zero`` by default.
    public init(startingAt start: BudgetInstant = .zero) {
        state = LockedValue(State(now: start.nanoseconds))
        identity = ScheduledWork.nextClockIdentity()
    }

    /// The clock's current instant.
    ///
    /// While work runs, this is that work's deadline (or later, if the work advanced the clock).
    public var now: BudgetInstant {
        BudgetInstant(nanoseconds: state.withLock { $0.now })
    }

    /// The earliest deadline of pending work, or `nil` when no work is pending.
    ///
    /// Never earlier than ``now``: work scheduled in the past is pending at ``now``.
    /// - Complexity: O(1).
    public var nextDeadline: BudgetInstant? {
        state.withLock { $0.queue.peekDeadline }.map(BudgetInstant.init(nanoseconds:))
    }

    /// The number of work items scheduled and neither run nor cancelled.
    /// - Complexity: O(1).
    public var pendingCount: Int {
        state.withLock { $0.queue.count }
    }

    /// Schedules work to run when the clock reaches an instant.
    ///
    /// A deadline earlier than ``now`` is treated as ``now``: the work runs on the next call that
    /// advances the clock (even by zero), after work already due at ``now``.
    /// - Parameters:
    ///   - deadline: When the work should run.
    ///   - work: The work; it runs once, on the thread that advances the clock, outside the
    ///     clock's lock.
    /// - Returns: A handle for ``cancel(_:)``.
    /// - Complexity: O(log n), amortised.
    @discardableResult
    public func schedule(at deadline: BudgetInstant, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let entry = state.withLock { state in
            state.queue.insert(deadline: max(deadline.nanoseconds, state.now), payload: ClockWork(work))
        }
        return ScheduledWork(clock: identity, entry: entry)
    }

    /// Schedules work to run once the clock has advanced by a delay from ``now``.
    ///
    /// A negative delay is treated as zero (see ``schedule(at:_:)``).
    /// - Parameters:
    ///   - delay: How long after ``now`` the work should run.
    ///   - work: The work; it runs once, on the thread that advances the clock, outside the
    ///     clock's lock.
    /// - Returns: A handle for ``cancel(_:)``.
    /// - Complexity: O(log n), amortised.
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let nanoseconds = Swift.max(delay.nanosecondsSaturating, 0)
        let entry = state.withLock { state in
            let (sum, overflow) = state.now.addingReportingOverflow(nanoseconds)
            return state.queue.insert(deadline: overflow ? .max : sum, payload: ClockWork(work))
        }
        return ScheduledWork(clock: identity, entry: entry)
    }

    /// Cancels pending work so it never runs.
    ///
    /// Work running now may cancel other work, including work due at the same instant that has not
    /// run yet. The cancelled closure is released after the clock's lock is, so its captures' `deinit`s
    /// may use the clock.
    /// - Parameter work: A handle from ``schedule(at:_:)`` or ``schedule(after:_:)``.
    /// - Returns: `true` if the work was pending and is now cancelled; `false` if it had already run
    ///   or been cancelled, or the handle belongs to another clock.
    /// - Complexity: O(log n) amortised.
    @discardableResult
    public func cancel(_ work: ScheduledWork) -> Bool {
        guard work.clock == identity else { return false }
        let removed = state.withLock { $0.queue.remove(work.entry) }
        return removed != nil
    }

    /// Moves the clock forward by a duration, running the work that falls due on the way.
    ///
    /// The same as ``advance(to:)`` with ``now`` plus `duration`; a negative duration is treated
    /// as zero, which runs the work already due at ``now``.
    /// - Parameter duration: How far to move the clock.
    /// - Returns: How many work items ran during this call, including work they scheduled; work run
    ///   by nested advances inside it is not counted here.
    @discardableResult
    public func advance(by duration: Duration) -> Int {
        let target = state.withLock { state in
            BudgetInstant(nanoseconds: state.now).advanced(by: max(duration, .zero)).nanoseconds
        }
        return runDue(through: target)
    }

    /// Moves the clock forward to an instant, running the work that falls due on the way.
    ///
    /// Repeatedly takes the earliest pending item due at or before `deadline`, sets ``now`` to the
    /// item's deadline and runs it, until none is due; then sets ``now`` to `deadline`. Work scheduled
    /// by running work at or before `deadline` runs in the same call.
    ///
    /// If `deadline` is before ``now``, ``now`` stays where it is and the call runs only the work due
    /// at ``now``. Work may itself advance the clock, to model a callback that takes time (a watchdog
    /// due meanwhile fires inside it); the outer call then carries on from the later ``now`` and
    /// never moves time back.
    ///
    /// Work that keeps scheduling work at ``now`` (`schedule(after: .zero)` from inside itself)
    /// keeps this call running for ever.
    /// - Parameter deadline: The instant to move to.
    /// - Returns: How many work items ran during this call, including work they scheduled; work run
    ///   by nested advances inside it is not counted here.
    @discardableResult
    public func advance(to deadline: BudgetInstant) -> Int {
        runDue(through: deadline.nanoseconds)
    }

    /// Runs pending work, moving ``now`` to each item's deadline, until no work is pending.
    ///
    /// Work that always schedules more work never lets the clock go idle, so this call would not
    /// return; pass `maxSteps` to bound it. When the call returns with work left, ``pendingCount``
    /// is above zero.
    /// - Parameter maxSteps: The most work items to run; unbounded by default.
    /// - Returns: How many work items ran during this call.
    @discardableResult
    public func runUntilIdle(maxSteps: Int = .max) -> Int {
        var ran = 0
        while ran < maxSteps, let (work, runGuard) = state.withLock({ state in state.popNext().map { ($0, state.runGuard) } }) {
            work()
            ran += 1
            if let runGuard, !runGuard() { state.withLock { $0.halted = true } }
        }
        return ran
    }

    /// Runs work due at or before `target` (or ``now``, if later), one item per lock round trip.
    private func runDue(through target: Int64) -> Int {
        var ran = 0
        while let (work, runGuard) = state.withLock({ state in state.popDue(through: target).map { ($0, state.runGuard) } }) {
            work()
            ran += 1
            if let runGuard, !runGuard() { state.withLock { $0.halted = true } }
        }
        return ran
    }

    /// Bounds a run: after each work item any call runs (nested advances included), `runGuard` is
    /// asked, outside the clock's lock, whether the run may go on; once it says `false`, the clock is
    /// halted for good: no more work runs, ``now`` stays where it is, and every advance returns at
    /// once. ``Scenario/run(limits:)`` uses it to stop a run that would not end.
    /// - Parameter runGuard: The check; it must not advance this clock.
    package func installRunGuard(_ runGuard: @escaping @Sendable () -> Bool) {
        state.withLock { $0.runGuard = runGuard }
    }

    /// Removes the run guard (and with it what it captured); a halted clock stays halted.
    package func removeRunGuard() {
        let removed = state.withLock { state -> (@Sendable () -> Bool)? in
            defer { state.runGuard = nil }
            return state.runGuard
        }
        withExtendedLifetime(removed) {}   // released here, outside the lock
    }

    /// Whether a run guard has halted the clock.
    package var isHalted: Bool {
        state.withLock { $0.halted }
    }
}

extension VirtualClock.State {
    /// Takes the earliest work due at or before `target` (or `now`, if later) and moves `now` to its
    /// deadline; when none is due, moves `now` to `target` if that is later and returns `nil`.
    package mutating func popDue(through target: Int64) -> VirtualClock.Work? {
        if halted { return nil }
        let limit = Swift.max(target, now)
        guard let (deadline, work) = queue.popFirst(ifDueBy: limit) else {
            now = limit
            return nil
        }
        now = Swift.max(now, deadline)
        return work
    }

    /// Takes the earliest pending work, whatever its deadline, and moves `now` to its deadline.
    package mutating func popNext() -> VirtualClock.Work? {
        if halted { return nil }
        guard let (deadline, work) = queue.popFirst(ifDueBy: .max) else { return nil }
        now = Swift.max(now, deadline)
        return work
    }
}
