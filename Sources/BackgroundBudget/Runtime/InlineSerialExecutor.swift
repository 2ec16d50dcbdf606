import Synchronization

/// A serial executor that runs work on the calling thread, in submission order, for virtual time.
///
/// It behaves like an app's serial queue without a thread: the first `submit` drains the queue; work
/// submitted while it drains (for example by a delegate callback) runs after the current item, never
/// nested inside it. `suspend()` holds submitted work until `resume()`, like `DispatchQueue.suspend()`.
/// Work runs outside the lock, so it may submit, suspend or resume freely.
final class InlineSerialExecutor: Sendable {
    private struct State {
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

    private let state = Mutex(State())

    /// Whether the executor is suspended.
    var isSuspended: Bool { state.withLock { $0.suspended } }

    /// Runs `work` now if nothing is running, otherwise after everything submitted before it.
    func submit(_ work: @escaping @Sendable () -> Void) {
        let shouldDrain = state.withLock { state -> Bool in
            state.pending.append(work)
            guard !state.draining, !state.suspended else { return false }
            state.draining = true
            return true
        }
        if shouldDrain { drain() }
    }

    /// Holds work submitted from now on (and work not yet started) until ``resume()``.
    func suspend() {
        state.withLock { $0.suspended = true }
    }

    /// Runs held work, in order.
    func resume() {
        let shouldDrain = state.withLock { state -> Bool in
            state.suspended = false
            guard !state.draining, state.head < state.pending.count else { return false }
            state.draining = true
            return true
        }
        if shouldDrain { drain() }
    }

    /// Drops work that has not started and returns how many items were dropped.
    @discardableResult
    func dropPending() -> Int {
        state.withLock { state in
            let dropped = state.pending.count - state.head
            state.pending.removeAll()
            state.head = 0
            return dropped
        }
    }

    private func drain() {
        while let work = state.withLock({ $0.next() }) {
            work()
        }
    }
}
