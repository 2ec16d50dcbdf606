/// The scheduler's deadline heap: a 4-ary min-heap of the live budgets' next deadlines, one node per
/// budget slot at most, ordered by deadline and then by when the deadline was set (so budgets due at
/// the same instant run in the order their deadlines were set).
///
/// Each node is 16 bytes (deadline, sequence, slot) and each slot has its node's index, so moving or
/// removing a slot's deadline is O(log n) with no search. Kept in this module, specialised for
/// budget slots, so that requesting and ending a budget is a few comparisons and no generic calls.
///
/// Deadlines at or after ``floor`` (the instant the clock timer is armed for) wait unsorted in a
/// pending list instead: the timer fires before any of them is due, and ``flush()`` then moves them
/// into the heap. Most budgets end before their deadline, so a request and its end each cost O(1)
/// (an append and a swap-remove) instead of two sifts.
struct BudgetDeadlines: Sendable {
    struct Node: Sendable {
        var deadline: Int64
        /// When the deadline was set: the tie-breaker among equal deadlines.
        var sequence: UInt32
        var slot: UInt32
    }

    private(set) var nodes: [Node] = []
    /// Deadlines at or after ``floor``, in no order.
    private var pending: [Node] = []
    /// Per slot: its node's index plus one in the heap, or `pendingBit` with its index in `pending`;
    /// zero when the slot has no deadline.
    private var positions: [UInt32] = []
    private static let pendingBit: UInt32 = 0x8000_0000
    /// The sequence the next deadline set gets (internal so that a test can start it near wrapping).
    var nextSequence: UInt32 = 0
    /// Deadlines at or after this instant go to the pending list; `Int64.max` for none. The owner sets
    /// it to the instant its clock timer is armed for, and calls ``flush()`` before that timer's work
    /// pops due deadlines; it may lower it at any time, and raise it only right after a flush.
    var floor = Int64.max

    /// The number of deadlines.
    var count: Int { nodes.count + pending.count }

    /// The earliest deadline in the heap, if any: pending deadlines are all at or after ``floor``.
    var peekDeadline: Int64? { nodes.first?.deadline }

    /// Whether a slot has a deadline.
    func contains(_ slot: Int) -> Bool { slot < positions.count && positions[slot] != 0 }

    /// Sets a slot's deadline, adding the slot or moving it; it then counts as set last among equal deadlines.
    mutating func set(_ slot: Int, to deadline: Int64) {
        if slot >= positions.count { positions.append(contentsOf: repeatElement(0, count: slot + 1 - positions.count)) }
        let node = Node(deadline: deadline, sequence: takeSequence(), slot: UInt32(slot))
        let position = positions[slot]
        if position & Self.pendingBit != 0 {
            if deadline >= floor {
                pending[Int(position & ~Self.pendingBit)] = node
                return
            }
            removePending(at: Int(position & ~Self.pendingBit))
        } else if position != 0 {
            if Self.precedes(node, nodes[Int(position) - 1]) { siftUp(node, from: Int(position) - 1) } else { siftDown(node, from: Int(position) - 1) }
            return
        }
        if deadline >= floor {
            positions[slot] = Self.pendingBit | UInt32(pending.count)
            pending.append(node)
        } else {
            nodes.append(node)
            siftUp(node, from: nodes.count - 1)
        }
    }

    /// Removes a slot's deadline, if it has one.
    mutating func remove(_ slot: Int) {
        guard slot < positions.count, case let position = positions[slot], position != 0 else { return }
        if position & Self.pendingBit != 0 {
            removePending(at: Int(position & ~Self.pendingBit))
            return
        }
        let index = Int(position) - 1
        positions[slot] = 0
        let last = nodes.removeLast()
        guard index < nodes.count else { return }
        if index > 0, Self.precedes(last, nodes[(index - 1) / 4]) { siftUp(last, from: index) } else { siftDown(last, from: index) }
    }

    /// Moves every pending deadline into the heap and sets ``floor`` to none: done before popping.
    mutating func flush() {
        mergePending()
        floor = .max
    }

    /// Removes and returns the slot with the earliest deadline, if that deadline is at or before
    /// `limit`. Pending deadlines are not looked at: ``flush()`` first.
    mutating func popFirst(ifDueBy limit: Int64) -> Int? {
        guard let first = nodes.first, first.deadline <= limit else { return nil }
        remove(Int(first.slot))
        return Int(first.slot)
    }

    /// Removes every deadline.
    mutating func removeAll() {
        for node in nodes { positions[Int(node.slot)] = 0 }
        for node in pending { positions[Int(node.slot)] = 0 }
        nodes.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func removePending(at index: Int) {
        positions[Int(pending[index].slot)] = 0
        let last = pending.removeLast()
        guard index < pending.count else { return }
        pending[index] = last
        positions[Int(last.slot)] = Self.pendingBit | UInt32(index)
    }

    private mutating func mergePending() {
        guard !pending.isEmpty else { return }
        nodes.reserveCapacity(nodes.count + pending.count)
        for node in pending {
            nodes.append(node)
            siftUp(node, from: nodes.count - 1)
        }
        pending.removeAll(keepingCapacity: true)
    }

    private static func precedes(_ a: Node, _ b: Node) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
    }

    /// The next sequence number. When the counter would wrap, the nodes are renumbered in their
    /// order first (sorted, which is also a valid heap), so that order among equal deadlines holds
    /// however many deadlines were ever set.
    private mutating func takeSequence() -> UInt32 {
        if nextSequence == .max {
            mergePending()
            nodes.sort(by: Self.precedes)
            for index in nodes.indices {
                nodes[index].sequence = UInt32(index)
                positions[Int(nodes[index].slot)] = UInt32(index + 1)
            }
            nextSequence = UInt32(nodes.count)
        }
        defer { nextSequence += 1 }
        return nextSequence
    }

    private mutating func place(_ node: Node, at index: Int) {
        nodes[index] = node
        positions[Int(node.slot)] = UInt32(index + 1)
    }

    private mutating func siftUp(_ node: Node, from start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 4
            guard Self.precedes(node, nodes[parent]) else { break }
            place(nodes[parent], at: index)
            index = parent
        }
        place(node, at: index)
    }

    private mutating func siftDown(_ node: Node, from start: Int) {
        var index = start
        let count = nodes.count
        while true {
            let first = 4 * index + 1
            guard first < count else { break }
            var best = first
            var child = first + 1
            while child < min(first + 4, count) {
                if Self.precedes(nodes[child], nodes[best]) { best = child }
                child += 1
            }
            guard Self.precedes(nodes[best], node) else { break }
            place(nodes[best], at: index)
            index = best
        }
        place(node, at: index)
    }
}
