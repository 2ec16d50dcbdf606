/// The system's clock as an app's code uses it: a Swift `Clock` on ``BudgetInstant``s whose time is the
/// system's, so `Task.sleep(for:clock:)` and `clock.sleep(for:)` wait for the model's time on any
/// ``BudgetClock`` — on a ``VirtualClock``, until an advance reaches the deadline.
///
/// A sleep belongs to the process of the code that sleeps: it is woken through the app's main queue,
/// so a sleep that falls due while the app is suspended wakes when the app next runs, and one of a
/// process that has ended never wakes (the task stays suspended for good, as a killed process's
/// threads do). Cancelling the sleeping task ends the sleep at once with `CancellationError`.
///
/// ```swift
/// application.task {
///     while true {
///         try await Task.sleep(for: .seconds(60), clock: application.clock)
///         await refreshFeed()
///     }
/// }
/// ```
import BudgetClock
import BudgetTime

public struct ApplicationClock: Clock {
    /// The app whose code sleeps.
    public let application: Application

    /// The system's current instant (``BudgetInstant/zero`` for an app no longer on a system).
    public var now: BudgetInstant { application.system?.clock.now ?? .zero }

    /// One nanosecond, the unit of ``BudgetInstant``.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until the system's clock reaches `deadline`, then resumes once the app's process runs.
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored.
    /// - Throws: `CancellationError` if the task is cancelled first, when the app is no longer on a
    ///   system, or when code outside the app sleeps while the app is not running.
    public func sleep(until deadline: BudgetInstant, tolerance: Duration? = nil) async throws {
        guard let clock = application.processClock() else {
            // Code of an ended process never wakes again; an app without a system has no time to wait
            // for, and a sleep from outside the app while it is not running has no process to wake in.
            if application.system == nil || !application.isCallerAppCode { throw CancellationError() }
            return try await withUnsafeThrowingContinuation { (_: UnsafeContinuation<Void, any Error>) in }
        }
        try await clock.sleepOnSchedule(until: deadline, counting: (clock.base as? VirtualClock)?.sleepers)
    }
}
