#if canImport(Dispatch)
import BudgetLock
import BudgetTime
import Dispatch

/// A clock on real time: work runs on a serial Dispatch queue when its deadline comes.
///
/// Time is monotonic uptime (`DispatchTime`), never the wall clock, so it neither jumps when the
/// user changes the date nor stops counting while the process waits. ``now`` is the time since the
/// clock was created. Any ``BudgetClock`` consumer runs on it unchanged, so a `BackgroundSystem`
/// built for unit tests on a ``VirtualClock`` runs in real time on this one:
///
/// ```swift
/// let clock = DispatchClock()
/// let done = DispatchSemaphore(value: 0)
/// let watchdog = clock.schedule(after: .seconds(10)) { print("watchdog") }
/// clock.schedule(after: .milliseconds(250)) {
///     print("expired at \(clock.now)")        // "expired at t=0.250s", or up to ~0.1 ms later
///     done.signal()
/// }
/// clock.cancel(watchdog)                      // true: it was pending
/// done.wait()
/// clock.shutdown()                            // 0: nothing was left pending
///
/// // The device from your unit tests, in real time:
/// let system = BackgroundSystem(clock: DispatchClock())
/// ```
///
/// ## One timer
/// Pending work lives in one deadline heap under one lock, watched by a single one-shot
/// `DispatchSourceTimer` with zero leeway (`.strict`, so the system does not coalesce it). The timer is
/// armed for the earliest deadline, and re-armed only when that changes: when work is scheduled
/// earlier than anything pending, or when a firing ends with work left. When it fires, the clock runs
/// every item that is due, then arms the timer for the next deadline. Scheduling a million items
/// costs one heap insertion each, not one kernel timer each. Due items are taken from the heap one
/// lock round trip at a time rather than all at once, so that work due at the same instant stays
/// cancellable until it starts.
///
/// A firing that finds the next deadline at most 20 ms away does not arm the timer: it waits for
/// that deadline on the queue's thread (a timed semaphore wait, woken early by work scheduled before
/// it or by ``shutdown()``) and runs it, and so on until the next deadline is further away. So each
/// deadline up to 20 ms after the one before costs one wake-up of one thread. A re-arm of the
/// Dispatch timer costs more: Dispatch's timer thread must be told of the new deadline and, when it
/// comes, wake a queue thread, so a deadline reached through the timer costs two or three wake-ups
/// and about 1.2× the CPU time of `asyncAfter`, which arms every deadline up front. The price of the
/// wait is a Dispatch thread held by the clock while it waits, for at most 20 ms at a time; a clock
/// released meanwhile goes away when the wait ends.
///
/// Such a wait ends late by the time the kernel takes to wake a thread, and on Linux also by the
/// thread's timer slack (50 µs by default, a window in which the kernel may batch wake-ups), as
/// `asyncAfter` does. With the default ``leeway`` (50 µs) that is all the clock does, and it costs
/// less CPU time than `asyncAfter` at every density the *Performance* article measures (one deadline
/// every 10 ms, and 400 to 100,000 deadlines over 2 s). A smaller leeway buys precision with CPU time: a
/// firing that waits then sets its thread's timer slack to the leeway (1 ns for none) for the rest of
/// the firing and puts the old value back before it returns the thread to Dispatch; below 30 µs it
/// also sleeps only until that much before the deadline and spins the rest, and arms the timer 200 µs
/// early so that the firing waits out an isolated deadline the same way. The *Performance* article
/// has the figures for both.
///
/// ## Order and lateness
/// Work runs on the clock's serial queue, one item at a time, in deadline order; work with equal
/// deadlines runs in the order it was scheduled. A deadline in the past counts as ``now``, so such
/// work runs after work already due. No work runs before its deadline. How late it runs depends on
/// the machine: with a core free, from under a microsecond (deadlines close together, while the
/// firing is running) to tens of microseconds (an isolated deadline, which wakes an idle thread);
/// milliseconds when other processes keep every core busy. Unlike on a ``VirtualClock``, ``now``
/// inside work is the time the work actually runs, not its deadline; keep the deadline if you need it.
///
/// ## Threads
/// All methods are safe to call from any thread, including from work the clock runs. Work runs
/// outside the clock's lock, one item at a time, so it may schedule or cancel other work, even
/// work due at the same instant that has not run yet. Work that blocks holds up every later
/// deadline: see ``simulateWork(for:)``.
///
/// - Complexity: Scheduling and cancelling are O(log n) in the number of pending work items, and
///   each item run costs O(log n) plus one uncontended lock round trip.
public final class DispatchClock: BudgetClock {
    /// Everything mutable, behind one lock; see ``State``.
    private let state: LockedValue<State>
    /// The serial queue that work runs on, and the timer's target.
    let queue: DispatchQueue
    /// The one timer, armed for the earliest deadline.
    private let timer: Timer
    /// Wakes a firing that waits on the queue's thread for a deadline less than
    /// ``inlineWaitLimit`` away (see ``State/nextStep(now:)``).
    private let wakeUp = DispatchSemaphore(value: 0)
    /// How near the next deadline must be for a firing to wait for it rather than arm the timer:
    /// 20 ms, so that deadlines up to 20 ms apart cost one wake-up each (see "One timer").
    static let inlineWaitLimit: Int64 = 20_000_000
    /// The most ``leeway`` a clock takes: 1 ms.
    static let maxLeeway: Int64 = 1_000_000
    /// With zero ``leeway``: how near the next deadline must be for a firing to spin for it rather
    /// than sleep, and how long before a deadline a sleeping firing wakes to spin the rest; about
    /// the time the kernel takes to wake a sleeping thread (see "One timer" above). A leeway
    /// shortens it by as much; from this much on, nothing spins.
    static let spinWindow: Int64 = 30_000
    /// With zero ``leeway``: how long before a deadline the timer fires, so that the firing waits
    /// out the rest as precisely as it waits for near deadlines (Dispatch's timer ran isolated
    /// deadlines 80–100 µs late on an idle Linux VM). A leeway shortens it by as much. Less than
    /// ``inlineWaitLimit``, so the early firing always waits rather than re-arming. Only while the
    /// clock spins (a leeway under ``spinWindow``): without the spin the early firing would only add
    /// a wake-up per deadline.
    static let timerLeadWindow: Int64 = 200_000
    /// How often a spinning firing looks, under the lock, for earlier work or a shutdown; between
    /// looks it only reads the time, so threads scheduling work meanwhile seldom wait for the lock.
    static let spinLookInterval: Int64 = 1_000
    /// How late a firing's waits may end, in nanoseconds: the thread's timer slack while it waits;
    /// `nil` leaves the thread's own slack (a leeway of ``defaultLeeway`` or more).
    let slackNanoseconds: Int64?
    /// How long before a deadline a sleeping firing wakes to spin the rest.
    let spinLimit: Int64
    /// How long before a deadline the timer fires.
    let timerLead: Int64

    /// How late the clock may let a deadline it waits for run, to save CPU time; see
    /// ``init(label:qos:leeway:)``.
    public let leeway: Duration

    /// The leeway a clock has unless told otherwise: 50 µs, Linux's default timer slack, so that the
    /// clock waits as `asyncAfter` does and spends no CPU time on precision.
    public static let defaultLeeway: Duration = .microseconds(50)
    /// Uptime in nanoseconds at the clock's origin, ``BudgetInstant/zero``.
    private let origin: UInt64
    /// Distinguishes this clock's handles from other clocks'.
    private let identity: UInt64

    /// Creates a running clock with no pending work, its ``now`` starting at ``/BudgetTime/BudgetInstant/zero``.
    /// - Parameters:
    ///   - label: The label of the serial queue the clock's work runs on, as debuggers show it.
    ///   - qos: The quality of service of that queue. Deadlines are the system's decisions (a
    ///     watchdog, a background-time expiry), so the default is `.userInteractive`.
    ///   - leeway: How much later than its deadline the clock may run work it waits for, in
    ///     exchange for CPU time; `nil` for ``defaultLeeway``. The default, 50 µs, is Linux's
    ///     default timer slack: a firing waits for a deadline at most 20 ms away as `asyncAfter`
    ///     would, with the thread's own slack. Less buys precision with CPU time (see "One timer"): the firing's waits run with
    ///     the leeway as the thread's timer slack (1 ns for zero); under 30 µs it also spins the last
    ///     30 µs less the leeway and arms the timer 200 µs less the leeway early. Negative counts as
    ///     zero, more than 1 ms as 1 ms. Work never runs early, and the timer itself always fires
    ///     with zero leeway.
    public init(label: String = "BackgroundBudget.DispatchClock", qos: DispatchQoS = .userInteractive,
                leeway: Duration? = nil) {
        let asked = (leeway ?? Self.defaultLeeway).nanosecondsSaturating
        let leewayNanoseconds = min(max(asked, 0), Self.maxLeeway)
        self.leeway = .nanoseconds(leewayNanoseconds)
        slackNanoseconds = leewayNanoseconds < Self.defaultLeeway.nanosecondsSaturating ? max(leewayNanoseconds, 1) : nil
        spinLimit = max(Self.spinWindow - leewayNanoseconds, 0)
        timerLead = spinLimit > 0 ? Self.timerLeadWindow - leewayNanoseconds : 0
        state = LockedValue(State(inlineWaitLimit: Self.inlineWaitLimit, spinLimit: spinLimit))
        let queue = DispatchQueue(label: label, qos: qos)
        self.queue = queue
        let timer = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
        self.timer = Timer(source: timer)
        origin = DispatchTime.now().uptimeNanoseconds
        identity = ScheduledWork.nextClockIdentity()
        // The handler holds the clock weakly, so a clock nobody holds is released (see `deinit`).
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.activate()
    }

    /// Stops the timer. Pending work is released without running.
    deinit {
        timer.source.cancel()
    }

    /// The time since the clock was created, from monotonic uptime.
    public var now: BudgetInstant {
        BudgetInstant(nanoseconds: uptimeSinceOrigin())
    }

    /// The earliest deadline of pending work, or `nil` when no work is pending.
    /// - Complexity: O(1).
    public var nextDeadline: BudgetInstant? {
        state.withLock { $0.queue.peekDeadline }.map(BudgetInstant.init(nanoseconds:))
    }

    /// The number of work items scheduled and neither started nor cancelled.
    /// - Complexity: O(1).
    public var pendingCount: Int {
        state.withLock { $0.queue.count }
    }

    /// Whether ``shutdown()`` has been called.
    public var isShutDown: Bool {
        state.withLock { $0.isShutDown }
    }

    /// Schedules work to run on the clock's queue at an instant.
    ///
    /// A deadline earlier than ``now`` is treated as ``now``: the work runs as soon as the queue
    /// is free, after work already due. After ``shutdown()`` the work is released without running.
    /// - Parameters:
    ///   - deadline: When the work should run, on this clock's time line.
    ///   - work: The work; it runs once, on the clock's serial queue, outside the clock's lock.
    /// - Returns: A handle for ``cancel(_:)``.
    /// - Complexity: O(log n), amortised.
    @discardableResult
    public func schedule(at deadline: BudgetInstant, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let now = uptimeSinceOrigin()
        let entry = state.withLock { state in
            let (entry, arm, wake) = state.schedule(work, at: deadline.nanoseconds, now: now)
            if let arm { armTimer(for: arm) }
            if wake { wakeUp.signal() }
            return entry
        }
        return ScheduledWork(clock: identity, entry: entry ?? Self.neverPending)
    }

    /// Schedules work to run on the clock's queue after a delay from ``now``.
    ///
    /// A negative delay is treated as zero (see ``schedule(at:_:)``).
    /// - Parameters:
    ///   - delay: How long after ``now`` the work should run.
    ///   - work: The work; it runs once, on the clock's serial queue, outside the clock's lock.
    /// - Returns: A handle for ``cancel(_:)``.
    /// - Complexity: O(log n), amortised.
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        schedule(at: now.advanced(by: max(delay, .zero)), work)
    }

    /// Cancels pending work so it never runs.
    ///
    /// Work that has started cannot be cancelled; work running on the clock's queue may cancel work
    /// due at the same instant that has not started. The cancelled closure is released after the
    /// clock's lock is, so its captures' `deinit`s may use the clock.
    /// - Parameter work: A handle from ``schedule(at:_:)`` or ``schedule(after:_:)``.
    /// - Returns: `true` if the work was pending and will now never run; `false` if it has started
    ///   or finished, was cancelled or dropped by ``shutdown()``, or belongs to another clock.
    /// - Complexity: O(log n).
    @discardableResult
    public func cancel(_ work: ScheduledWork) -> Bool {
        guard work.clock == identity else { return false }
        let removed = state.withLock { $0.cancel(work.entry) }
        return removed != nil
    }

    /// Blocks the calling thread for `duration`, as a callback that takes that long would.
    ///
    /// Unlike ``VirtualClock/simulateWork(for:)``, nothing runs on the calling thread meanwhile.
    /// Called from work on the clock's own queue, it holds up every deadline that falls due in the
    /// meantime until it returns, like a busy main thread holding up its timers; run long callbacks
    /// on queues of their own so that a watchdog on the clock can still fire during them.
    /// - Parameter duration: How long to block; zero or negative returns at once.
    public func simulateWork(for duration: Duration) {
        let nanoseconds = duration.nanosecondsSaturating
        guard nanoseconds > 0 else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        let (end, overflow) = start.addingReportingOverflow(UInt64(nanoseconds))
        let wakeUp = overflow || end >= UInt64(Int64.max) ? DispatchTime.distantFuture
            : DispatchTime(uptimeNanoseconds: end)
        let neverSignalled = DispatchSemaphore(value: 0)
        while DispatchTime.now().uptimeNanoseconds < end {
            _ = neverSignalled.wait(timeout: wakeUp)
        }
    }

    /// Stops the clock: cancels the timer and drops every pending work item without running it.
    ///
    /// Work already started finishes; the call does not wait for it, so it is safe from work on the
    /// clock's own queue. Work scheduled afterwards is released without running, and ``now`` keeps
    /// telling the time. Calling it again does nothing. Releasing the last reference to the clock
    /// has the same effect.
    /// - Returns: How many pending work items were dropped.
    @discardableResult
    public func shutdown() -> Int {
        let (dropped, wasWaiting) = state.withLock { state in
            let wasWaiting = state.waitingUntil != nil && !state.isSpinning
            return (state.shutDown(), wasWaiting)
        }
        if wasWaiting { wakeUp.signal() }
        timer.source.cancel()
        return dropped?.count ?? 0
    }

    // MARK: - Internals

    /// The timer source, made `Sendable`.
    ///
    /// `@unchecked` is safe: a Dispatch source is a reference to a libdispatch object whose methods
    /// (`schedule`, `cancel`, `activate`, setting handlers) may be called from any thread; libdispatch
    /// applies them atomically. The Linux overlay's `DispatchSourceTimer` protocol does not declare
    /// `Sendable`, which is the only reason this box exists. The clock sets the handler and activates
    /// the source once, in `init`, before the clock is shared.
    private struct Timer: @unchecked Sendable {
        let source: any DispatchSourceTimer
    }

    /// A handle that names no entry, for work refused after shutdown.
    private static let neverPending = DeadlineHeap<Work>.Handle(slot: .max, generation: .max)

    /// Nanoseconds of uptime since the clock's origin.
    @inline(__always)
    private func uptimeSinceOrigin() -> Int64 {
        Int64(bitPattern: DispatchTime.now().uptimeNanoseconds &- origin)
    }

    /// Arms the one-shot timer for a deadline on the clock's time line, ``timerLead`` early: the
    /// firing finds the deadline less than ``inlineWaitLimit`` away and waits for it itself.
    ///
    /// Called with the lock held, so that the order of the timer's arms is the order of the state's
    /// decisions: arming outside it would let an older, later deadline overwrite a newer, earlier one.
    /// Arming only records the new deadline and wakes Dispatch's timer machinery; it never runs work.
    private func armTimer(for deadline: Int64) {
        let early = deadline > Int64.min + timerLead ? deadline - timerLead : deadline
        timer.source.schedule(deadline: dispatchTime(of: early), repeating: .never, leeway: .nanoseconds(0))
    }

    /// A deadline on the clock's time line as a `DispatchTime`.
    private func dispatchTime(of deadline: Int64) -> DispatchTime {
        let (uptime, overflow) = origin.addingReportingOverflow(UInt64(max(deadline, 0)))
        return overflow || uptime >= UInt64(Int64.max) ? DispatchTime.distantFuture : DispatchTime(uptimeNanoseconds: uptime)
    }

    /// How many times a firing has spun for a deadline.
    var spins: Int { state.withLock { $0.spins } }

    /// The timer's handler: runs every due item, one lock round trip each, waits on this thread for
    /// deadlines less than ``inlineWaitLimit`` away (spinning for the last ``spinLimit``), then
    /// re-arms.
    private func fire() {
        dispatchPrecondition(condition: .onQueue(queue))
        state.withLock { $0.beginFiring() }
        var slack: TimerSlack?
        defer { slack?.restore() }
        var limit = uptimeSinceOrigin()
        while true {
            if let work = state.withLock({ $0.popDue(through: limit) }) {
                work()
                continue
            }
            limit = uptimeSinceOrigin()
            let step = state.withLock { state in
                let step = state.nextStep(now: limit)
                if case .finish(let arm?) = step { armTimer(for: arm) }
                return step
            }
            switch step {
            case .run(let work):
                work()
            case .wait(let until):
                if slack == nil, let slackNanoseconds { slack = .lowered(to: slackNanoseconds) }
                _ = wakeUp.wait(timeout: dispatchTime(of: until - spinLimit))
            case .spin(let until):
                // Earlier work or a shutdown changes `waitingUntil`; no signal, no system call.
                var nextLook = Int64.min
                while true {
                    let now = uptimeSinceOrigin()
                    if now >= until { break }
                    if now >= nextLook {
                        guard state.withLock({ $0.waitingUntil == until }) else { break }
                        nextLook = now + Self.spinLookInterval
                    }
                }
            case .finish:
                return
            }
        }
    }
}
#endif
