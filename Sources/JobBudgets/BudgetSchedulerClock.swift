import BudgetTime
import BudgetClock

/// A scheduler's clock as a Swift `Clock`, for code that holds only a ``BudgetScheduler``: hand it
/// to a framework's timers, retry delays and polling loops (`Task.sleep(for:clock:)`, `clock.sleep(for:)`,
/// any API generic over `Clock`), and they run on the scheduler's time — virtual time in tests.
///
/// ```swift
/// func pollEvery<C: Clock>(_ interval: Duration, on clock: C) async throws where C.Duration == Duration {
///     while !Task.isCancelled { try await clock.sleep(for: interval); poll() }
/// }
/// try await pollEvery(.seconds(5), on: scheduler.swiftClock)   // a VirtualClock in tests
/// ```
///
/// Its instants are ``/BudgetTime/BudgetInstant``s, the same as the scheduler's deadlines
/// (``BudgetScheduler/deadline(of:)``). Sleeping is ``BudgetScheduler/sleep(until:)``: on a
/// ``/BudgetClock/VirtualClock``, a counted sleeper that a test waits for with
/// ``/BudgetClock/VirtualClock/waitForSleepers(_:)`` before advancing; on a
/// ``/BudgetClock/DispatchClock``, its own `sleep(until:tolerance:)`.
public struct BudgetSchedulerClock: Clock, Sendable {
    /// The scheduler whose clock this is.
    public let scheduler: BudgetScheduler

    /// A view of `scheduler`'s clock.
    /// - Parameter scheduler: The scheduler.
    public init(_ scheduler: BudgetScheduler) {
        self.scheduler = scheduler
    }

    /// The clock's current instant.
    public var now: BudgetInstant { scheduler.clock.now }

    /// One nanosecond: the clocks count whole nanoseconds.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until the clock reaches `deadline` (at once if it has).
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored: the clocks wake at the deadline itself.
    /// - Throws: `CancellationError` if the task is cancelled first.
    public func sleep(until deadline: BudgetInstant, tolerance: Duration? = nil) async throws {
        try await scheduler.sleep(until: deadline)
    }
}

extension BudgetScheduler {
    /// The scheduler's clock as a Swift `Clock` (see ``BudgetSchedulerClock``), to hand to code
    /// that takes any `Clock`.
    public var swiftClock: BudgetSchedulerClock { BudgetSchedulerClock(self) }
}
