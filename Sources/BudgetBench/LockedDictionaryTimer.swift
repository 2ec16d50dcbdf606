#if canImport(Dispatch)
@preconcurrency import Dispatch
import BackgroundBudget

/// The simplest real-time alternative to a budget scheduler, for comparison only: a dictionary of
/// pending work by id under one lock, and one Dispatch timer armed for the earliest deadline.
///
/// Scheduling inserts and re-arms the timer only when the new deadline is the earliest; cancelling
/// removes and leaves the timer as it is (it fires once for nothing). A firing scans the whole
/// dictionary for what is due and for the next deadline, O(n), which a heap exists to avoid: with
/// few deadlines firing, that never matters.
final class LockedDictionaryTimer: Sendable {
    private struct State {
        var pending: [Int: (deadline: UInt64, work: ClockWork)] = [:]
        var nextID = 0
        var armed: UInt64 = .max
    }

    private let state = LockedValue(State())
    private let queue = DispatchQueue(label: "bench.locked-dictionary", qos: .userInteractive)
    private let timer: TimerBox

    /// `@unchecked` is safe: a Dispatch source may be used from any thread.
    private struct TimerBox: @unchecked Sendable { let source: any DispatchSourceTimer }

    init() {
        let source = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
        timer = TimerBox(source: source)
        source.setEventHandler { [weak self] in self?.fire() }
        source.activate()
    }

    deinit { timer.source.cancel() }

    /// Number of items neither run nor cancelled.
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Schedules work `delay` from now; returns the id for ``cancel(_:)``.
    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Int {
        let deadline = nowNanoseconds() + UInt64(delay.components.seconds) * 1_000_000_000 + UInt64(delay.components.attoseconds / 1_000_000_000)
        return state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.pending[id] = (deadline, ClockWork(work))
            if deadline < state.armed {
                state.armed = deadline
                timer.source.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .nanoseconds(0))
            }
            return id
        }
    }

    /// Cancels pending work: `true` if it was pending.
    @discardableResult
    func cancel(_ id: Int) -> Bool {
        let removed = state.withLock { $0.pending.removeValue(forKey: id) }
        return removed != nil
    }

    private func fire() {
        let now = nowNanoseconds()
        let due: [ClockWork] = state.withLock { state in
            var due: [ClockWork] = []
            var next = UInt64.max
            for (id, entry) in state.pending {
                if entry.deadline <= now {
                    due.append(entry.work)
                    state.pending[id] = nil
                } else {
                    next = min(next, entry.deadline)
                }
            }
            state.armed = next
            if next != .max { timer.source.schedule(deadline: DispatchTime(uptimeNanoseconds: next), leeway: .nanoseconds(0)) }
            return due
        }
        for work in due { work() }
    }
}
#endif
