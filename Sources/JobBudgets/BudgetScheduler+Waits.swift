import BudgetLock
import BudgetTime
import BudgetClock

/// Waits for tests and framework code: for live budgets, for a shutdown, for job bodies, and for the
/// scheduler's clock. Each waiter is resumed by the change it waits for, never by polling.
extension BudgetScheduler {
    /// Suspends until at least `count` budgets are live; returns at once if they already are.
    ///
    /// The request that makes the count resumes the waiter. A budget is granted *before* the job's
    /// body starts; to wait for bodies, use ``waitForRunningJobs(_:)``.
    /// - Parameter count: How many live budgets to wait for.
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    public func waitForLiveBudgets(_ count: Int) async throws {
        try await waitForCount(count, in: state, current: { $0.liveCount }, waiters: \.liveWaiters)
    }

    /// Suspends until exactly `count` budgets are live; returns at once if they are.
    ///
    /// The request, end or stop that makes the count resumes the waiter, once no stop handler is left
    /// to run; a count passed within one operation (a parent ended with its children) is not seen.
    /// - Parameter count: How many live budgets to wait for.
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    public func waitForLiveBudgets(exactly count: Int) async throws {
        try await waitForExactCount(count, scope: 0)
    }

    /// Suspends until no budget is live: every one ended or stopped, and the stop handlers of the pass
    /// that stopped the last ones have returned.
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    public func waitForNoLiveBudgets() async throws {
        try await waitForExactCount(0, scope: 0)
    }

    /// Suspends until ``shutdown(grace:)`` has been called; returns at once if it has.
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    public func waitForShutdown() async throws {
        try await waitForCount(1, in: state, current: { $0.shutdownAt == nil ? 0 : 1 }, waiters: \.shutdownWaiters)
    }

    /// The number of bodies of `withBackgroundTask` on this scheduler running now (begun, not returned).
    public var runningJobCount: Int { state.withLock { $0.runningJobs } }

    /// Suspends until at least `count` bodies of `withBackgroundTask` on this scheduler are running:
    /// each has begun and not yet returned. Unlike ``waitForLiveBudgets(_:)``, this means the jobs'
    /// own code is under way, so a test may now advance the clock past their warnings.
    /// - Parameter count: How many running bodies to wait for.
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    public func waitForRunningJobs(_ count: Int) async throws {
        try await waitForCount(count, in: state, current: { $0.runningJobs }, waiters: \.runningWaiters)
    }

    /// Counts a body of `withBackgroundTask` in (+1) or out (-1).
    func countRunningJob(_ delta: Int) {
        let woken = state.withLock { state in
            state.runningJobs += delta
            return delta > 0 ? state.runningWaiters.takeSatisfied(by: state.runningJobs) : []
        }
        for waiter in woken { waiter.resume() }
    }

    /// Suspends until the scheduler's clock reaches `deadline`, for code that holds only the scheduler
    /// (a framework's retry delays and polling intervals move to virtual time with it).
    ///
    /// On a ``/BudgetClock/VirtualClock`` this is its `sleep(until:)`: the sleeper is counted, so a test
    /// can wait for it before advancing. On a ``/BudgetClock/DispatchClock``, its `sleep(until:)`
    /// (which throws at once once the clock is shut down). On any other clock, a wake-up scheduled on
    /// it. ``swiftClock`` offers the same as a Swift `Clock`.
    /// - Parameter deadline: The instant to wake at.
    /// - Throws: `CancellationError` if the task is cancelled first (the wake-up is then cancelled).
    public func sleep(until deadline: BudgetInstant) async throws {
        if let virtual = clock as? VirtualClock {
            try await virtual.sleep(until: deadline, tolerance: nil)
            return
        }
        #if canImport(Dispatch)
        if let dispatch = clock as? DispatchClock {
            try await dispatch.sleep(until: deadline, tolerance: nil)
            return
        }
        #endif
        try await clock.sleepOnSchedule(until: deadline)
    }

    /// Suspends for `duration` on the scheduler's clock: ``sleep(until:)`` at now + `duration`.
    /// - Parameter duration: How long to sleep; negative counts as zero.
    /// - Throws: `CancellationError` if the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: clock.now.advanced(by: max(duration, .zero)))
    }

    /// Suspends until the live count of `scope` (zero: the scheduler) is exactly `count`.
    func waitForExactCount(_ count: Int, scope: UInt32) async throws {
        // The waiter's identity once added; `.max` once cancelled (a cancellation may come first).
        let id = LockedValue<UInt64?>(nil)
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let ready: Bool? = state.withLock { state in
                    if state.liveCount(in: scope) == count, state.stopsInFlight == 0 { return true }
                    return id.withLock { id in
                        if id == .max { return nil }
                        id = state.exactWaiters.add(count: count, scope: scope, continuation)
                        return false
                    }
                }
                switch ready {
                case true?: continuation.resume()
                case nil: continuation.resume(throwing: CancellationError())
                case false?: break
                }
            }
        } onCancel: {
            let removed = state.withLock { state in
                id.withLock { id in
                    defer { id = .max }
                    return id.flatMap { state.exactWaiters.remove($0) }
                }
            }
            removed?.resume(throwing: CancellationError())
        }
    }
}

/// Tasks waiting for the live count of the scheduler or of a scope to be exactly a number.
struct ExactCountWaiters: Sendable {
    private var waiters: [(id: UInt64, count: Int, scope: UInt32, continuation: UnsafeContinuation<Void, any Error>)] = []
    private var nextID: UInt64 = 0

    /// Whether no task waits (the fast path of every request and removal).
    var isEmpty: Bool { waiters.isEmpty }

    /// Adds a waiter and returns its identity, for ``remove(_:)``.
    mutating func add(count: Int, scope: UInt32, _ continuation: UnsafeContinuation<Void, any Error>) -> UInt64 {
        nextID &+= 1
        waiters.append((nextID, count, scope, continuation))
        return nextID
    }

    /// Takes the waiter with this identity out, if it is still waiting.
    mutating func remove(_ id: UInt64) -> UnsafeContinuation<Void, any Error>? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).continuation
    }

    /// Takes out every waiter whose scope's count (`count(scope)`) is its number.
    mutating func takeSatisfied(count: (UInt32) -> Int) -> [UnsafeContinuation<Void, any Error>] {
        var satisfied: [UnsafeContinuation<Void, any Error>] = []
        waiters.removeAll { waiter in
            guard count(waiter.scope) == waiter.count else { return false }
            satisfied.append(waiter.continuation)
            return true
        }
        return satisfied
    }
}
