/// `VirtualClock` is a Swift `Clock` on ``BudgetInstant``s: `Task.sleep(for:clock:)`,
/// `clock.sleep(for:)` and timers built on `Clock` (swift-async-algorithms' `AsyncTimerSequence`,
/// `debounce`) run on virtual time.
///
/// A sleeping task is woken, on the thread that advances the clock, when an advance reaches its
/// deadline; it then runs on its own executor, after the advance has returned, so a task that sleeps in
/// a loop is woken once per advance. A test waits for the tasks it drives to be asleep with
/// ``waitForSleepers(_:)``, which is resumed by the sleeps themselves (no polling, no yields):
///
/// ```swift
/// let clock = VirtualClock()
/// let job = Task { try await clock.sleep(for: .seconds(10)); return clock.now }
/// try await clock.waitForSleepers(1)   // the job is suspended in `sleep`
/// clock.advance(by: .seconds(10))      // wakes it
/// try await job.value                  // t=10.000s
/// ```
import BudgetLock
import BudgetTime

extension VirtualClock: Clock {
    /// One nanosecond, the unit of ``/BudgetTime/BudgetInstant``.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until an advance of the clock reaches `deadline` (at once, on the next advance, if it
    /// has passed).
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored: virtual time is exact.
    /// - Throws: `CancellationError` if the task is cancelled first; the wake-up is then cancelled
    ///   too, so ``pendingCount`` does not count it.
    public func sleep(until deadline: BudgetInstant, tolerance: Duration? = nil) async throws {
        try await sleepOnSchedule(until: deadline, counting: sleepers)
    }

    /// The number of tasks suspended in ``sleep(until:tolerance:)`` on this clock.
    public var sleeperCount: Int {
        sleepers.state.withLock { $0.count }
    }

    /// Suspends until at least `count` tasks are suspended in ``sleep(until:tolerance:)`` on this
    /// clock; returns at once if they already are.
    ///
    /// The sleep that makes the count resumes the waiter, so a test advances the clock only once the
    /// tasks it drives have reached their sleeps: no polling, no `Task.yield()` loops.
    /// - Parameter count: How many sleepers to wait for.
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    public func waitForSleepers(_ count: Int) async throws {
        try await waitForCount(count, in: sleepers.state, current: { $0.count }, waiters: \.waiters)
    }
}

/// The sleepers of one ``VirtualClock``: how many, and who waits for how many.
package final class SleeperRegistry: SleeperCounting {
    package struct State: Sendable {
        var count = 0
        var waiters = CountWaiters()
    }

    let state = LockedValue(State())

    package init() {}

    package func sleeperAdded() {
        let satisfied = state.withLock { state in
            state.count += 1
            return state.waiters.takeSatisfied(by: state.count)
        }
        for waiter in satisfied { waiter.resume() }
    }

    package func sleeperRemoved() {
        state.withLock { $0.count -= 1 }
    }
}
