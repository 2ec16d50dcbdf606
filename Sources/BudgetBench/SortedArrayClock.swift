import BackgroundBudget

/// The obvious alternative to a deadline heap, for comparison only: a virtual clock that keeps its
/// work in an array and, like swift-clocks' `TestClock.advance(by:)`, sorts the array and takes its
/// first element for every item it runs (`sort` then `removeFirst`, under the lock).
///
/// Sorting an already sorted array is linear in Swift's sort, and so is `removeFirst`, so each item
/// run costs O(n): n items cost O(n²). It gives the same order as ``VirtualClock`` (deadline, then
/// scheduling order) and runs work outside the lock, so the two differ only in their data structure.
final class SortedArrayClock: Sendable {
    private struct Item {
        var deadline: Int64
        var sequence: UInt64
        var work: @Sendable () -> Void
    }

    private struct State {
        var now: Int64 = 0
        var nextSequence: UInt64 = 0
        var items: [Item] = []
    }

    private let state = LockedValue(State())

    /// Number of items not yet run.
    var pendingCount: Int { state.withLock { $0.items.count } }

    /// Schedules work at a deadline in nanoseconds (a past deadline counts as now).
    func schedule(at deadline: Int64, _ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.items.append(Item(deadline: max(deadline, state.now), sequence: state.nextSequence, work: work))
            state.nextSequence += 1
        }
    }

    /// Advances by `nanoseconds`, running due work; returns how many items ran.
    @discardableResult
    func advance(by nanoseconds: Int64) -> Int {
        let target = state.withLock { $0.now + nanoseconds }
        var ran = 0
        while let work = state.withLock({ state -> (@Sendable () -> Void)? in
            state.items.sort { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
            guard let first = state.items.first, first.deadline <= target else {
                state.now = max(state.now, target)
                return nil
            }
            state.now = first.deadline
            return state.items.removeFirst().work
        }) {
            work()
            ran += 1
        }
        return ran
    }
}
