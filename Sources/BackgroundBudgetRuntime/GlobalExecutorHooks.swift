#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import BudgetClock
import BudgetLock
import BudgetTime
#if compiler(>=6.3)
@_spi(ExperimentalScheduling) import _Concurrency
#endif

/// Plain Swift concurrency in app code, brought into the model while a system runs on a
/// ``VirtualClock``: the Swift runtime's global-executor hooks send the jobs of tasks that app code
/// starts (`Task { }`, `Task.detached`) to the app's main queue, and their sleeps to the model's time.
///
/// The hooks are process-wide variables of the Swift runtime (`swift_task_enqueueGlobal_hook` and its
/// delay, deadline and main-executor siblings, declared in the runtime's `Concurrency.h`). They are
/// installed when the first ``BackgroundSystem`` on a ``VirtualClock`` is created and restored to what
/// they were when the last one is released ("a run": a system's lifetime), and chain to any hook that
/// was installed before them. While installed, every job the runtime enqueues on the global executor
/// passes through ``route(_:original:)``, which decides whose it is:
///
/// - a task the model already routed stays the app's, wherever it is resumed from;
/// - a task the model sees for the first time, created after the run started, is the app's when the
///   code that enqueues it (its creator) is app code of an app on a ``VirtualClock``: the task-local
///   ``ProcessContext/current``, or the task running now when that is an app's task (a `Task.detached`
///   started by app code has no task-local of its own);
/// - everything else — tasks started outside app code, tasks that existed before the run, jobs from
///   apps on a real clock — goes to the executor the hook replaced, unchanged.
///
/// A job of an app runs on the app's main queue, for the process that started it: frozen while the app
/// is suspended, dropped when the process ends (the task then never resumes, as with
/// `Application.task(priority:_:)`). Routing is by job, not by run, so systems in tests that run in
/// parallel each get their own apps' jobs and no other's: there is no "current run" to serialise.
///
/// What the runtime does not send through the hooks stays outside the model, unreported (no hook sees a
/// task suspend or end); see the *App code and its process* article for the list and what to write.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
package enum GlobalExecutorHooks {
    /// The hooks' bookkeeping, under one lock. Never held while a job runs or a hook is called.
    struct State: Sendable {
        /// Systems on a ``VirtualClock`` alive now; the hooks are installed while this is above zero.
        var runs = 0
        /// The hook values replaced at installation (bit patterns of function pointers, 0 for none), by
        /// slot, restored at the end of the last run.
        var replaced: [Slot: UInt] = [:]
        /// The tasks routed to an app, by task identifier (never reused, unlike a task's address).
        var appTasks: [UInt64: ProcessContext] = [:]
        /// The tasks first seen outside app code while the hooks were installed.
        var foreignTasks: Set<UInt64> = []
        /// The highest task identifier that existed when the hooks were installed: older tasks are
        /// never the model's.
        var baseline: UInt64 = 0
    }

    /// The runtime's hook variables this file sets.
    enum Slot: String, CaseIterable, Sendable {
        case global = "swift_task_enqueueGlobal_hook"
        case delay = "swift_task_enqueueGlobalWithDelay_hook"
        case deadline = "swift_task_enqueueGlobalWithDeadline_hook"
        case main = "swift_task_enqueueMainExecutor_hook"
    }

    static let state = LockedValue(State())

    /// Bound around the probe task made at installation, whose identifier is the baseline.
    @TaskLocal static var probing = false

    // MARK: Runs

    /// A run's hold on the hooks: made when a system on a ``VirtualClock`` is created, and releases
    /// the hooks when the system is released.
    final class Run: Sendable {
        init() { GlobalExecutorHooks.beginRun() }
        deinit { GlobalExecutorHooks.endRun() }
    }

    /// A hold on the hooks for a system on `clock`, or `nil` for a real clock (or a runtime without
    /// the hooks).
    static func run(for clock: any BudgetClock) -> Run? {
        guard clock is VirtualClock, !switchedOff, slot(.global) != nil else { return nil }
        return Run()
    }

    /// `BGBUDGET_CONCURRENCY_HOOKS=off` in the environment leaves the runtime's executors alone: for
    /// measuring what app code's own tasks do without the model (read once, at the first system).
    static let switchedOff: Bool = getenv("BGBUDGET_CONCURRENCY_HOOKS").map { String(cString: $0) } == "off"

    private static func beginRun() {
        let first = state.withLock { state -> Bool in
            state.runs += 1
            guard state.runs == 1 else { return false }
            for slot in Slot.allCases {
                guard let pointer = GlobalExecutorHooks.slot(slot) else { continue }
                // Ours may still be installed (another library put it back after our last run): what it
                // replaced is still recorded, and recording ours instead would make it call itself.
                guard pointer.pointee != installedHook(slot) else { continue }
                state.replaced[slot] = pointer.pointee
                pointer.pointee = installedHook(slot)
            }
            return true
        }
        // Every task that exists now has a smaller identifier than this probe's, which the global hook
        // records as it passes the probe on.
        if first { _ = $probing.withValue(true) { Task.detached {} } }
    }

    private static func endRun() {
        state.withLock { state in
            state.runs -= 1
            guard state.runs == 0 else { return }
            for slot in Slot.allCases {
                guard let pointer = GlobalExecutorHooks.slot(slot) else { continue }
                // A hook installed over ours keeps it, and ours keeps chaining to what was there before:
                // only a slot restored here forgets what it replaced.
                if pointer.pointee == installedHook(slot) {
                    pointer.pointee = state.replaced[slot] ?? 0
                    state.replaced[slot] = nil
                }
            }
            state.appTasks = [:]
            state.foreignTasks = []
        }
    }

    // MARK: Deciding whose a job is

    /// Whose `job` is: the process of the app it belongs to, or `nil` for work outside the model. The
    /// code that enqueues a new task is app code when the task-local context says so, or when the task
    /// running now is one the model routed (a `Task.detached` has no task-local of its own).
    static func owner(of job: UnownedJob) -> ProcessContext? {
        if probing {
            let id = jobTaskID(job)
            state.withLock { $0.baseline = max($0.baseline, id) }
            return nil
        }
        let id = jobTaskID(job)
        let current = currentTaskID()
        let context = ProcessContext.current
        let owner = state.withLock { state -> ProcessContext? in
            guard state.runs > 0 else { return nil }
            // Not a task: an actor's processing job, which runs the actor for every caller; frozen or
            // dropped with an app's process it would hang code that is not the app's.
            if id == 0 { return nil }
            if let known = state.appTasks[id] { return known }
            if id <= state.baseline || state.foreignTasks.contains(id) { return nil }
            guard let made = context ?? current.flatMap({ state.appTasks[$0] }) else {
                state.foreignTasks.insert(id)
                return nil
            }
            state.appTasks[id] = made
            return made
        }
        // Only apps on a virtual clock are in a run; an app on a real clock keeps the real executor.
        guard let owner, owner.application?.system?.clock is VirtualClock else { return nil }
        return owner
    }

    // MARK: Running a job in the model

    /// Queues `job` on the app's main queue, for its process, and drains the queue (inline on a
    /// ``VirtualClock``: at once when the queue is idle, after the item it runs otherwise). A job of a
    /// process that has ended is dropped, and its task never resumes.
    static func run(_ job: UnownedJob, for process: ProcessContext) {
        guard let queue = process.executor, !process.isEnded else { return }
        remember(job, as: process)
        let executor = ProcessTaskExecutor(queue: queue, epoch: process.epoch)
        queue.enqueue({
            timed(job) { job.runSynchronously(on: executor.asUnownedTaskExecutor()) }
        }, for: process.epoch, job: true)
        queue.drain()
    }

    /// Runs `job` on the app's main queue once the model's clock has moved on by `delay`: a sleep of
    /// app code. It waits while the app is suspended and is dropped with the process.
    static func run(_ job: UnownedJob, for process: ProcessContext, after delay: Duration) {
        guard let queue = process.executor, let base = queue.application?.system?.clock, !process.isEnded else { return }
        // The runtime's sleep task resumes the sleeper: what it enqueues is the app's too.
        remember(job, as: process)
        let clock = ProcessClock(base: base, process: process, queue: queue)
        let executor = ProcessTaskExecutor(queue: queue, epoch: process.epoch)
        clock.schedule(at: clock.now + max(delay, .zero), job: true) { timed(job) { job.runSynchronously(on: executor.asUnownedTaskExecutor()) } }
    }

    /// Records that `job`'s task (if it is one) is code of `process`, while the hooks are installed.
    private static func remember(_ job: UnownedJob, as process: ProcessContext) {
        let id = jobTaskID(job)
        guard id != 0 else { return }
        state.withLock { state in
            guard state.runs > 0 else { return }
            state.appTasks[id] = process
            state.foreignTasks.remove(id)
        }
    }

    // MARK: The hooks

    /// Where a job enqueued on the global executor goes.
    static func route(_ job: UnownedJob, original: () -> Void) {
        guard let owner = owner(of: job) else { return original() }
        run(job, for: owner)
    }

    /// Where a job enqueued on the main executor goes: to the main executor, always. An app's queue
    /// drains on the thread that drives the ``/BudgetClock/VirtualClock``, which need not be the main
    /// thread: a main-actor job run there would break its isolation (and 6.3 hops call no hook).
    static func routeMain(_ job: UnownedJob, original: () -> Void) {
        original()
    }

    /// Where a job enqueued after a delay goes: app code's sleeps wait for the model's time.
    static func routeDelayed(_ job: UnownedJob, by delay: Duration, original: () -> Void) {
        guard let owner = owner(of: job) else { return original() }
        run(job, for: owner, after: delay)
    }

    /// The real time from now to a deadline of the runtime's clock `clock` (1 continuous, 2
    /// suspending), or `nil` for a clock this file does not know.
    static func realDelay(toSeconds seconds: Int64, nanoseconds: Int64, clock: Int32) -> Duration? {
        #if compiler(>=6.2)
        let deadline = Duration.seconds(seconds) + .nanoseconds(nanoseconds)
        switch clock {
        case 1: return deadline - ContinuousClock().systemEpoch.duration(to: .now)
        case 2: return deadline - SuspendingClock().systemEpoch.duration(to: .now)
        default: return nil
        }
        #else
        return nil   // the clocks' `systemEpoch` begins with Swift 6.2: such a sleep stays on real time
        #endif
    }

    /// The duration app code asked for, from the real time left to its deadline (`estimate`) and the
    /// real time its job had run for (`elapsed`, when known): the app read the clock after its job
    /// started and before the deadline reached the model, so the true duration lies in
    /// `estimate ... estimate + elapsed` (`+ 1 ms` when the job's start is not known). The roundest
    /// duration in that range is taken (the fewest significant decimal digits, then the smallest):
    /// exact for any duration rounder than the real time the job had run for.
    package static func requestedDuration(fromRealDelay estimate: Duration, elapsed: Duration? = nil) -> Duration {
        let low = min(max(estimate.wholeNanoseconds, 0), 1 << 62)
        let oneMillisecond: Int64 = 1_000_000   // the slack when the job's start is not known
        let high = low + min(max(elapsed?.wholeNanoseconds ?? oneMillisecond, 0), 1 << 60)
        func significantDigits(_ value: Int64) -> Int {
            var (rest, digits) = (value, 1)
            while rest != 0, rest % 10 == 0 { rest /= 10 }
            while rest >= 10 { (rest, digits) = (rest / 10, digits + 1) }
            return digits
        }
        // Each power of ten's smallest multiple in the range, the roundest kept (1 ns: `low` itself).
        var best = (digits: Int.max, value: low)
        var unit: Int64 = 1_000_000_000_000_000_000
        while unit >= 1 {
            let multiple = low % unit == 0 ? low : (low / unit + 1) * unit
            if multiple <= high {
                let digits = significantDigits(multiple)
                if digits < best.digits || (digits == best.digits && multiple < best.value) { best = (digits, multiple) }
            }
            unit /= 10
        }
        return .nanoseconds(best.value)
    }

    /// The real time at which the job each task runs on an app's queue started, by task identifier.
    private static let jobStarts = LockedValue<[UInt64: ContinuousClock.Instant]>([:])

    /// Runs `body`, a job of `job`'s task on an app's queue, noting the real time it starts at.
    static func timed(_ job: UnownedJob, _ body: () -> Void) {
        let id = jobTaskID(job)
        if id != 0 { jobStarts.withLock { $0[id] = .now } }
        body()
        if id != 0 { _ = jobStarts.withLock { $0.removeValue(forKey: id) } }
    }

    /// The real time the job of the task running now has run for, when it runs on an app's queue.
    static func realTimeInCurrentJob() -> Duration? {
        guard let id = currentTaskID(), let start = jobStarts.withLock({ $0[id] }) else { return nil }
        return start.duration(to: .now)
    }

    private static func installedHook(_ slot: Slot) -> UInt {
        switch slot {
        case .global:
            let hook: EnqueueHook = { job, original in
                GlobalExecutorHooks.route(job) { GlobalExecutorHooks.passOn(.global, job, original) }
            }
            return unsafeBitCast(hook, to: UInt.self)
        case .main:
            let hook: EnqueueHook = { job, original in
                GlobalExecutorHooks.routeMain(job) { GlobalExecutorHooks.passOn(.main, job, original) }
            }
            return unsafeBitCast(hook, to: UInt.self)
        case .delay:
            let hook: DelayHook = { delay, job, original in
                GlobalExecutorHooks.routeDelayed(job, by: .nanoseconds(Int64(clamping: delay))) {
                    let previous = GlobalExecutorHooks.replaced(.delay)
                    if previous != 0 { unsafeBitCast(previous, to: DelayHook.self)(delay, job, original) } else { original(delay, job) }
                }
            }
            return unsafeBitCast(hook, to: UInt.self)
        case .deadline:
            let hook: DeadlineHook = { seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original in
                let passOn = {
                    let previous = GlobalExecutorHooks.replaced(.deadline)
                    if previous != 0 {
                        unsafeBitCast(previous, to: DeadlineHook.self)(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original)
                    } else {
                        original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
                    }
                }
                guard let real = GlobalExecutorHooks.realDelay(toSeconds: seconds, nanoseconds: nanoseconds, clock: clock) else { return passOn() }
                let requested = GlobalExecutorHooks.requestedDuration(fromRealDelay: real, elapsed: GlobalExecutorHooks.realTimeInCurrentJob())
                GlobalExecutorHooks.routeDelayed(job, by: requested, original: passOn)
            }
            return unsafeBitCast(hook, to: UInt.self)
        }
    }

    /// Hands a job the model does not take to the hook that was installed before, or to the runtime.
    private static func passOn(_ slot: Slot, _ job: UnownedJob, _ original: EnqueueOriginal) {
        let previous = replaced(slot)
        if previous != 0 { unsafeBitCast(previous, to: EnqueueHook.self)(job, original) } else { original(job) }
    }

    private static func replaced(_ slot: Slot) -> UInt {
        state.withLock { $0.replaced[slot] ?? 0 }
    }

    /// The address of one of the runtime's hook variables, or `nil` when the runtime has none.
    private static func slot(_ slot: Slot) -> UnsafeMutablePointer<UInt>? {
        #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)   // RTLD_DEFAULT
        #else
        let everywhere: UnsafeMutableRawPointer? = nil              // RTLD_DEFAULT
        #endif
        return dlsym(everywhere, slot.rawValue)?.assumingMemoryBound(to: UInt.self)
    }

    /// The identifier of the task running now, if any.
    private static func currentTaskID() -> UInt64? {
        withUnsafeCurrentTask { task in task.map { jobTaskID(unsafeBitCast($0, to: UnownedJob.self)) } }
    }
}

// The runtime's hook and original-function types (`Concurrency.h`): Swift calling convention, no context.
typealias EnqueueOriginal = @convention(thin) (UnownedJob) -> Void
typealias EnqueueHook = @convention(thin) (UnownedJob, EnqueueOriginal) -> Void
typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
typealias DeadlineHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void

/// The identifier of a job's task (0 for a job that is not a task), from the runtime; with the hooks'
/// availability, so weakly linked where an older OS runtime may lack it.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@_silgen_name("swift_task_getJobTaskId")
private func jobTaskID(_ job: UnownedJob) -> UInt64

extension Duration {
    /// The duration in whole nanoseconds, saturating.
    fileprivate var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).overflow ? .max : scaled + attoseconds / 1_000_000_000
    }
}

#if compiler(>=6.3)
/// On Swift 6.3 and later `Task.sleep` no longer calls the delay hooks: it asks the sleeping task's
/// scheduling executor — its executor preference, else the runtime's default executor. An app's task
/// executor is one, so a sleep in a task that prefers it (`Application.task(priority:_:)`) waits for
/// the model's time, frozen while the app is suspended.
@available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
extension ProcessTaskExecutor: SchedulingExecutor {
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        GlobalExecutorHooks.run(UnownedJob(job), for: ProcessContext(executor: queue, epoch: epoch), after: delay as? Duration ?? .zero)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        var delay = clock.now.duration(to: instant) as? Duration ?? .zero
        // The app read the clock a moment before: on virtual time, the duration it asked for.
        if queue.application?.system?.clock is VirtualClock {
            delay = GlobalExecutorHooks.requestedDuration(fromRealDelay: delay, elapsed: GlobalExecutorHooks.realTimeInCurrentJob())
        }
        GlobalExecutorHooks.run(UnownedJob(job), for: ProcessContext(executor: queue, epoch: epoch), after: delay)
    }
}
#endif

extension BackgroundSystem {
    /// The system's hold on the global-executor hooks (see `GlobalExecutorHooks`): on a
    /// ``VirtualClock``, where the runtime has them, `nil` otherwise.
    static func concurrencyRun(for clock: any BudgetClock) -> (any Sendable)? {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return nil }
        return GlobalExecutorHooks.run(for: clock)
    }
}
