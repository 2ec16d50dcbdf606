import BackgroundBudget

/// The plain alternative to ``VirtualClock``'s deadline heap that a skeptic would write in an
/// afternoon, for comparison only: a 4-ary min-heap of `(deadline, sequence, slot)` nodes with the
/// node index kept per slot, so cancelling is O(log n); slots are reused through a free list and a
/// generation makes a handle stale once its work has left.
///
/// It takes one lock round trip per operation and per item run and runs work outside the lock,
/// as the clock does, so the two differ only in their data structure.
final class PlainHeapClock: Sendable {
    private struct Node {
        var deadline: Int64
        var sequence: UInt64
        var slot: Int32
    }

    private struct State {
        var now: Int64 = 0
        var nodes: [Node] = []
        var work: [ClockWork?] = []
        var positions: [Int32] = []
        var generations: [UInt32] = []
        var free: [Int32] = []
        var sequence: UInt64 = 0

        static func precedes(_ a: Node, _ b: Node) -> Bool {
            a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
        }

        mutating func place(_ node: Node, at index: Int) {
            nodes[index] = node
            positions[Int(node.slot)] = Int32(index)
        }

        mutating func siftUp(_ node: Node, from start: Int) {
            var index = start
            while index > 0 {
                let parent = (index - 1) / 4
                guard Self.precedes(node, nodes[parent]) else { break }
                place(nodes[parent], at: index)
                index = parent
            }
            place(node, at: index)
        }

        mutating func siftDown(_ node: Node, from start: Int) {
            var index = start
            while true {
                let first = 4 * index + 1
                guard first < nodes.count else { break }
                var best = first
                for child in (first + 1)..<min(first + 4, nodes.count) where Self.precedes(nodes[child], nodes[best]) {
                    best = child
                }
                guard Self.precedes(nodes[best], node) else { break }
                place(nodes[best], at: index)
                index = best
            }
            place(node, at: index)
        }

        mutating func push(_ deadline: Int64, _ item: ClockWork) -> UInt64 {
            let slot: Int
            if let reused = free.popLast() {
                slot = Int(reused)
                generations[slot] &+= 1
                work[slot] = item
            } else {
                slot = positions.count
                positions.append(0)
                generations.append(0)
                work.append(item)
            }
            sequence += 1
            nodes.append(Node(deadline: deadline, sequence: sequence, slot: Int32(slot)))
            siftUp(nodes[nodes.count - 1], from: nodes.count - 1)
            return UInt64(generations[slot]) << 32 | UInt64(slot)
        }

        mutating func remove(at index: Int) -> ClockWork {
            let slot = Int(nodes[index].slot)
            let last = nodes.removeLast()
            if index < nodes.count {
                if index > 0 && Self.precedes(last, nodes[(index - 1) / 4]) { siftUp(last, from: index) } else { siftDown(last, from: index) }
            }
            positions[slot] = -1
            free.append(Int32(slot))
            defer { work[slot] = nil }
            return work[slot]!
        }

        mutating func pop(dueBy limit: Int64) -> ClockWork? {
            guard let first = nodes.first, first.deadline <= limit else { return nil }
            now = max(now, first.deadline)
            return remove(at: 0)
        }
    }

    private let state = LockedValue(State())

    /// Number of items neither run nor cancelled.
    var pendingCount: Int { state.withLock { $0.nodes.count } }

    /// Schedules work at a deadline in nanoseconds (a past deadline counts as now); returns a handle
    /// for ``cancel(_:)``.
    @discardableResult
    func schedule(at deadline: Int64, _ work: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in state.push(max(deadline, state.now), ClockWork(work)) }
    }

    /// Schedules work `delay` nanoseconds after now.
    @discardableResult
    func schedule(after delay: Int64, _ work: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in state.push(state.now + max(delay, 0), ClockWork(work)) }
    }

    /// Cancels pending work: `true` if it was pending. The work is released after the lock is.
    @discardableResult
    func cancel(_ handle: UInt64) -> Bool {
        let removed: ClockWork? = state.withLock { state in
            let slot = Int(handle & 0xFFFF_FFFF)
            guard slot < state.positions.count, state.generations[slot] == UInt32(handle >> 32), state.positions[slot] >= 0 else {
                return nil
            }
            return state.remove(at: Int(state.positions[slot]))
        }
        return removed != nil
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
