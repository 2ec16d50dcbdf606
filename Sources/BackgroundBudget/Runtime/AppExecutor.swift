#if canImport(Dispatch)
@preconcurrency import Dispatch
#endif
import Synchronization

/// An app's own serial queue: every callback, expiration handler and piece of app work runs here, one
/// at a time, and nothing runs while the app is suspended.
///
/// On a ``VirtualClock`` the queue runs inline (deterministic, on the thread that drives the clock);
/// on a real clock it is a serial `DispatchQueue` that is really suspended with
/// `DispatchQueue.suspend()` while the app is suspended.
///
/// Every method is non-blocking and runs no user code except ``drain()``, so the system calls them
/// while it holds its lock, which keeps the order of decisions and the order of work identical.
///
/// - When the app terminates, ``terminate()`` drops everything not yet started and says how much
///   that was: work is tagged with the epoch it was queued in and skipped if the epoch has moved on.
/// - Suspension is decided by the system and carried out by the queue itself when it reaches the
///   suspension step, so work queued before the decision still runs. A resume decided after the
///   suspension decision but before the queue reached it cancels it (``suspend(unlessResumedAfter:)``).
final class AppExecutor: Sendable {
    enum Backend: Sendable {
        case inline(InlineSerialExecutor)
        #if canImport(Dispatch)
        case dispatch(DispatchQueue)
        #endif
    }

    private struct State {
        var epoch: UInt64 = 0
        var queued = 0
        var resumes: UInt64 = 0
        var suspended = false
    }

    private let backend: Backend
    private let state = Mutex(State())

    init(backend: Backend) {
        self.backend = backend
    }

    /// Increases each time the app terminates; work from an earlier epoch is skipped.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// The number of resumes so far; a suspension decided now passes it to ``suspend(unlessResumedAfter:)``.
    var resumeCount: UInt64 { state.withLock { $0.resumes } }

    /// Queues work; it runs after everything queued before it, unless the app terminates first.
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        let epoch = state.withLock { state -> UInt64 in
            state.queued += 1
            return state.epoch
        }
        let guarded: @Sendable () -> Void = { [self] in
            let current = state.withLock { state -> Bool in
                guard state.epoch == epoch else { return false }
                state.queued -= 1
                return true
            }
            if current { work() }
        }
        switch backend {
        case .inline(let executor): executor.enqueue(guarded)
        #if canImport(Dispatch)
        case .dispatch(let queue): queue.async(execute: guarded)
        #endif
        }
    }

    /// Suspends the queue after the current item, unless it was resumed after `resumes` was read.
    /// Called by the queue itself, at the suspension step.
    func suspend(unlessResumedAfter resumes: UInt64) {
        let suspend = state.withLock { state -> Bool in
            guard state.resumes == resumes, !state.suspended else { return false }
            state.suspended = true
            return true
        }
        guard suspend else { return }
        switch backend {
        case .inline(let executor): executor.suspend()
        #if canImport(Dispatch)
        case .dispatch(let queue): queue.suspend()
        #endif
        }
    }

    /// Lets held work run again; cancels a suspension decided before this call but not yet reached.
    func resume() {
        let resume = state.withLock { state -> Bool in
            state.resumes += 1
            guard state.suspended else { return false }
            state.suspended = false
            return true
        }
        guard resume else { return }
        switch backend {
        case .inline(let executor): executor.resume()
        #if canImport(Dispatch)
        case .dispatch(let queue): queue.resume()
        #endif
        }
    }

    /// Drops all work not yet started, resumes the queue if suspended, and returns how many items were
    /// dropped. Work queued afterwards runs normally (the app may be launched again).
    func terminate() -> Int {
        let dropped = state.withLock { state -> Int in
            let dropped = state.queued
            state.queued = 0
            state.epoch += 1
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
