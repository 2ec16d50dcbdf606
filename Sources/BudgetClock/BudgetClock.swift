/// A clock the runtime can run on: it tells the time, runs work at deadlines, and lets work take time.
///
/// Two clocks ship with the package: ``VirtualClock`` for tests and examples (time moves only when you
/// advance it; everything is synchronous and deterministic) and ``DispatchClock``, on real time, for
/// programs that run for real. Both count ``BudgetInstant``s from their own origin.
import BudgetTime

public protocol BudgetClock: AnyObject, Sendable {
    /// The current time.
    var now: BudgetInstant { get }

    /// Runs `work` once, at or after `deadline`; work due at the same instant runs in the order it was
    /// scheduled.
    /// - Returns: A handle for ``cancel(_:)``.
    @discardableResult
    func schedule(at deadline: BudgetInstant, _ work: @escaping @Sendable () -> Void) -> ScheduledWork

    /// Cancels scheduled work that has not started.
    /// - Returns: `true` if the work was still pending and will now never run.
    @discardableResult
    func cancel(_ work: ScheduledWork) -> Bool

    /// Lets the calling code take `duration`, as real work would: a virtual clock advances (running
    /// whatever falls due meanwhile, such as a watchdog); a real clock blocks the calling thread.
    func simulateWork(for duration: Duration)
}
