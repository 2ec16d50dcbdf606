import BudgetLock

#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif

/// An app's serial queue: its main queue (every callback, expiration handler and piece of app work runs
/// there, one at a time) or a queue the app made (``Application/makeQueue(label:)``). Nothing new starts
/// on it while the app is suspended.
///
/// On a ``VirtualClock`` the queue runs inline (deterministic, on the thread that drives the clock);
/// on a real clock it is a serial `DispatchQueue` that is really suspended with
/// `DispatchQueue.suspend()` while the app is suspended.
///
/// Every method is non-blocking and runs no user code except ``drain()``, so the system calls them
/// while it holds its lock, in the order it takes its decisions:
/// - ``suspend()`` takes effect at once: work queued but not started waits (the item running now, if
///   any, finishes), as a process that the system suspends stops between instructions.
/// - ``resume()`` lets it run again. Both are idempotent, and the dispatch queue's own counted
///   `suspend()`/`resume()` calls are made under this executor's lock, so they always balance.
/// - ``terminate()`` drops everything not yet started and says how much that was: work is tagged with
///   the epoch it was queued in and skipped if the epoch has moved on.
///
/// For an app whose code runs on the main actor (``setRunsOnMainActor(_:for:)``), the queue still orders,
/// holds and drops the work, but each item runs on the main thread: inline, the driving thread must be
/// it (``onMainActor(_:file:line:)`` checks); on Dispatch, the item hands itself to the main queue with
/// `DispatchQueue.main.sync` and the app's queue waits for it, as the app's main thread would be busy.
final class AppExecutor: Sendable {
    enum Backend: Sendable {
        case inline(InlineSerialExecutor)
        #if canImport(Dispatch)
        case dispatch(DispatchQueue)
        #endif
    }

    package struct State {
        var epoch: UInt64 = 0
        var queued = 0
        /// Timed work and sleeps of the current epoch not yet due (``ProcessClock``): dropped, and
        /// counted, with the queued work when the process ends.
        var timers = 0
        /// Jobs of Swift tasks among the queued and timed work (`job: true`): a job runs once, so the
        /// explorer saves no state while any is held (``BackgroundSystem/saveState(discardingTrace:)``).
        var jobs = 0
        var suspended = false
        /// What asks for the app's work to run on the main actor (its app delegate, a scene's
        /// delegate…): it does while any does.
        var mainActorHolders: Set<String> = []
        /// The app whose main queue this is, for ``ProcessContext/application``; `nil` for a queue the
        /// app made, whose work runs as code of ``AppExecutor/owner``.
        weak var application: Application?
    }

    let backend: Backend
    package let state = LockedValue(State())
    /// For a queue the app made: the process that made it, whose code its work is. `nil` for the app's
    /// main queue, whose work belongs to the process of the epoch it was queued in.
    let owner: ProcessContext?

    init(backend: Backend, owner: ProcessContext? = nil) {
        self.backend = backend
        self.owner = owner
    }

    deinit {
        // A dispatch queue released while suspended crashes; let stale work drain and skip instead.
        state.withLock { state in
            state.epoch &+= 1
            if state.suspended {
                state.suspended = false
                resumeBackend()
            }
        }
    }

    /// Increases each time the app terminates; work from an earlier epoch is skipped.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// The app whose main queue this is (`nil` for a queue the app made).
    var application: Application? { state.withLock { $0.application } }

    /// Queues work; it runs after everything queued before it, unless the app terminates first.
    /// - Parameter process: The epoch of the process the work belongs to, when it must not outlive it:
    ///   work for a process that has already ended is dropped at once. `nil` queues for the current one.
    /// - Parameter job: Whether the work runs a Swift task's job (counted in ``State/jobs`` until it starts).
    func enqueue(_ work: @escaping @Sendable () -> Void, for process: UInt64? = nil, job: Bool = false) {
        if let owner, owner.isEnded { return }
        let queuedEpoch = state.withLock { state -> UInt64? in
            if let process, process != state.epoch { return nil }
            state.queued += 1
            if job { state.jobs += 1 }
            return state.epoch
        }
        guard let epoch = queuedEpoch else { return }
        // Weak, so that work held by a suspended queue does not keep the executor (and the queue) alive
        // after the app is gone: the executor's deinit then resumes the queue and the work is skipped.
        let guarded: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            let (current, mainActor) = state.withLock { state -> (Bool, Bool) in
                guard state.epoch == epoch else { return (false, false) }
                state.queued -= 1
                if job { state.jobs = max(0, state.jobs - 1) }
                return (true, !state.mainActorHolders.isEmpty)
            }
            guard current else { return }
            // The work runs as code of the process it was queued in (see `ProcessContext`), which is
            // bound again on the main thread: a task-local value does not cross threads.
            let context = owner ?? ProcessContext(executor: self, epoch: epoch)
            // Counted as the app's code while it runs: a suspension decided meanwhile waits for it
            // to return (see `DeviceCore.appCodeStarted`).
            let app = context.isEnded ? nil : context.application
            let incarnation = app.flatMap { app in app.system?.appCodeStarted(app) }
            if mainActor { self.onMainThread { context.run(work) } } else { context.run(work) }
            if let app, let incarnation { app.system?.appCodeReturned(app, incarnation: incarnation) }
        }
        switch backend {
        case .inline(let executor): executor.enqueue(guarded)
        #if canImport(Dispatch)
        case .dispatch(let queue): queue.async(execute: guarded)
        #endif
        }
    }

    /// Says whether `holder` (`"appDelegate"`, a scene's identifier…) has a delegate isolated to the
    /// main actor. Work that starts from now on runs on the main actor while any holder says so, on
    /// the queue's own thread otherwise (the default).
    func setRunsOnMainActor(_ mainActor: Bool, for holder: String) {
        state.withLock { state in
            if mainActor { state.mainActorHolders.insert(holder) } else { state.mainActorHolders.remove(holder) }
        }
    }

    /// Runs `work` on the main thread and waits for it: on Dispatch, through the main queue; inline,
    /// where the driving thread runs the work, in place (the delegate adapter checks the thread).
    private func onMainThread(_ work: () -> Void) {
        switch backend {
        case .inline: work()
        #if canImport(Dispatch)
        case .dispatch: DispatchQueue.main.sync(execute: work)
        #endif
        }
    }

    /// Stops starting queued work until ``resume()``. Idempotent.
    func suspend() {
        state.withLock { state in
            guard !state.suspended else { return }
            state.suspended = true
            switch backend {
            case .inline(let executor): executor.suspend()
            #if canImport(Dispatch)
            case .dispatch(let queue): queue.suspend()
            #endif
            }
        }
    }

    /// Lets held work run again. Idempotent.
    func resume() {
        state.withLock { state in
            guard state.suspended else { return }
            state.suspended = false
            resumeBackend()
        }
    }

    private func resumeBackend() {
        switch backend {
        case .inline(let executor): executor.resume()
        #if canImport(Dispatch)
        case .dispatch(let queue): queue.resume()
        #endif
        }
    }

    /// Drops all work not yet started, resumes the queue if suspended (so stale work drains and is
    /// skipped), and returns how many items were dropped. Work queued afterwards runs normally.
    func terminate() -> Int {
        let dropped = state.withLock { state -> Int in
            let dropped = state.queued + state.timers
            state.queued = 0
            state.timers = 0
            state.jobs = 0
            state.epoch &+= 1
            return dropped
        }
        resume()
        return dropped
    }

    /// Runs queued work now on the calling thread, for the inline backend; a dispatch queue runs on its
    /// own threads, so this does nothing there.
    func drain() {
        if case .inline(let executor) = backend { executor.drain() }
    }
}
