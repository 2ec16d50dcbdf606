import BudgetLock

/// A serial executor that runs work on a calling thread, in submission order: the backend of an app's
/// queue on a ``VirtualClock``.
///
/// It behaves like a serial `DispatchQueue` without a thread. ``enqueue(_:)`` only appends (it never
/// runs user code, so it is safe under a lock); ``drain()`` runs what is queued on the calling thread
/// unless another drain is already running, in which case that drain picks the work up. Work
/// enqueued while a drain runs therefore runs after the current item, never nested inside it.
/// ``suspend()`` stops the drain after the current item until ``resume()``, like
/// `DispatchQueue.suspend()`.
final class InlineSerialExecutor: Sendable {
    struct State {
        var pending: [@Sendable () -> Void] = []
        var head = 0
        var draining = false
        var suspended = false

        mutating func next() -> (@Sendable () -> Void)? {
            guard !suspended, head < pending.count else {
                draining = false
                return nil
            }
            let work = pending[head]
            head += 1
            if head == pending.count {
                pending.removeAll(keepingCapacity: true)
                head = 0
            }
            return work
        }
    }

    let state = LockedValue(State())

    /// Appends work without running anything.
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.pending.append(work) }
    }

    /// Holds queued work after the current item until ``resume()``.
    func suspend() {
        state.withLock { $0.suspended = true }
    }

    /// Lets queued work run again at the next ``drain()``.
    func resume() {
        state.withLock { $0.suspended = false }
    }

    /// Runs queued work on the calling thread until the queue is empty or suspended, unless a drain is
    /// already under way (on this thread further up the stack, or on another thread).
    func drain() {
        let shouldDrain = state.withLock { state -> Bool in
            guard !state.draining, !state.suspended, state.head < state.pending.count else { return false }
            state.draining = true
            return true
        }
        guard shouldDrain else { return }
        while let work = state.withLock({ $0.next() }) {
            work()
        }
    }
}
