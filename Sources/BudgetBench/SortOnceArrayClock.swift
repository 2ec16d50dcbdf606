import BackgroundBudget

/// The strongest simple alternative to ``VirtualClock``'s deadline heap, for comparison only: a
/// virtual clock over one array sorted once.
///
/// Scheduling appends to an unsorted batch (O(1)). The first advance after a batch sorts it (one
/// `sort`, O(k log k)) and merges it into the sorted pending items (O(n)); a batch of one is put in
/// place by binary search instead. Running takes items from a cursor (O(1)); cancelling marks a
/// tombstone by sequence number (O(1)) that the cursor skips. It runs items in the same order as
/// ``VirtualClock`` (deadline, then scheduling order), takes one lock round trip per item run and runs
/// work outside the lock, as the clock does, so the two differ only in their data structure.
final class SortOnceArrayClock: Sendable {
    private struct Item {
        var deadline: Int64
        var sequence: Int
        var work: ClockWork
    }

    private struct State {
        var now: Int64 = 0
        /// Sorted by (deadline, sequence) from `head` on; earlier indices have run.
        var items: [Item] = []
        var head = 0
        /// Scheduled since the last advance, unsorted.
        var batch: [Item] = []
        /// Per sequence number: `true` once the item has run or been cancelled.
        var gone: [Bool] = []
        var pending = 0

        mutating func sortBatch() {
            if batch.count == 1 {
                let item = batch.removeLast()
                var low = head, high = items.count
                while low < high {
                    let middle = (low + high) / 2
                    if (items[middle].deadline, items[middle].sequence) < (item.deadline, item.sequence) { low = middle + 1 } else { high = middle }
                }
                items.insert(item, at: low)
                return
            }
            batch.sort { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
            if head == items.count {
                swap(&items, &batch)
                head = 0
                batch.removeAll(keepingCapacity: true)
                return
            }
            var merged: [Item] = []
            merged.reserveCapacity(items.count - head + batch.count)
            var a = head, b = 0
            while a < items.count && b < batch.count {
                if (items[a].deadline, items[a].sequence) < (batch[b].deadline, batch[b].sequence) {
                    merged.append(items[a]); a += 1
                } else {
                    merged.append(batch[b]); b += 1
                }
            }
            merged.append(contentsOf: items[a...])
            merged.append(contentsOf: batch[b...])
            items = merged
            head = 0
            batch.removeAll(keepingCapacity: true)
        }

        /// Takes the next item due by `limit`, skipping tombstones.
        mutating func pop(dueBy limit: Int64) -> ClockWork? {
            if !batch.isEmpty { sortBatch() }
            while head < items.count && gone[items[head].sequence] { head += 1 }
            guard head < items.count, items[head].deadline <= limit else { return nil }
            let item = items[head]
            head += 1
            gone[item.sequence] = true
            pending -= 1
            now = max(now, item.deadline)
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            }
            return item.work
        }
    }

    private let state = LockedValue(State())

    /// Number of items neither run nor cancelled.
    var pendingCount: Int { state.withLock { $0.pending } }

    /// Schedules work at a deadline in nanoseconds (a past deadline counts as now); returns a handle
    /// for ``cancel(_:)``.
    @discardableResult
    func schedule(at deadline: Int64, _ work: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            let sequence = state.gone.count
            state.batch.append(Item(deadline: max(deadline, state.now), sequence: sequence, work: ClockWork(work)))
            state.gone.append(false)
            state.pending += 1
            return sequence
        }
    }

    /// Schedules work `delay` nanoseconds after now.
    @discardableResult
    func schedule(after delay: Int64, _ work: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            let sequence = state.gone.count
            state.batch.append(Item(deadline: state.now + max(delay, 0), sequence: sequence, work: ClockWork(work)))
            state.gone.append(false)
            state.pending += 1
            return sequence
        }
    }

    /// Cancels pending work: `true` if it was pending.
    @discardableResult
    func cancel(_ handle: Int) -> Bool {
        state.withLock { state in
            guard handle < state.gone.count, !state.gone[handle] else { return false }
            state.gone[handle] = true
            state.pending -= 1
            return true
        }
    }

    /// Advances by `nanoseconds`, running due work; returns how many items ran.
    @discardableResult
    func advance(by nanoseconds: Int64) -> Int {
        let target = state.withLock { $0.now + nanoseconds }
        var ran = 0
        while let work = state.withLock({ $0.pop(dueBy: target) }) {
            work()
            ran += 1
        }
        state.withLock { $0.now = max($0.now, target) }
        return ran
    }

    /// Runs the earliest pending item, whatever its deadline; `false` when none is pending.
    @discardableResult
    func runNext() -> Bool {
        guard let work = state.withLock({ $0.pop(dueBy: .max) }) else { return false }
        work()
        return true
    }
}
