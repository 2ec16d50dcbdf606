/// The scheduler's deadline heap: a 4-ary min-heap of the live budgets' next deadlines, one node per
/// budget slot at most, ordered by deadline and then by when the deadline was set (so budgets due at
/// the same instant run in the order their deadlines were set).
///
/// Each node is 16 bytes (deadline, sequence, slot) and each slot has its node's index, so moving or
/// removing a slot's deadline is O(log n) with no search. Kept in this module, specialised for
/// budget slots, so that requesting and ending a budget is a few comparisons and no generic calls.
struct BudgetDeadlines: Sendable {
    struct Node: Sendable {
        var deadline: Int64
        /// When the deadline was set: the tie-breaker among equal deadlines.
        var sequence: UInt32
        var slot: UInt32
    }

    private(set) var nodes: [Node] = []
    /// Per slot: its node's index plus one; zero when the slot has no deadline.
    private var positions: [UInt32] = []
    /// The sequence the next deadline set gets (internal so that a test can start it near wrapping).
    var nextSequence: UInt32 = 0

    /// The number of deadlines.
    var count: Int { nodes.count }

    /// The earliest deadline, if any.
    var peekDeadline: Int64? { nodes.first?.deadline }

    /// Whether a slot has a deadline.
    func contains(_ slot: Int) -> Bool { slot < positions.count && positions[slot] != 0 }

    /// Sets a slot's deadline, adding the slot or moving it; it then counts as set last among equal deadlines.
    mutating func set(_ slot: Int, to deadline: Int64) {
        if slot >= positions.count { positions.append(contentsOf: repeatElement(0, count: slot + 1 - positions.count)) }
        let node = Node(deadline: deadline, sequence: takeSequence(), slot: UInt32(slot))
        let position = Int(positions[slot])
        if position == 0 {
            nodes.append(node)
            siftUp(node, from: nodes.count - 1)
        } else if Self.precedes(node, nodes[position - 1]) {
            siftUp(node, from: position - 1)
        } else {
            siftDown(node, from: position - 1)
        }
    }

    /// Removes a slot's deadline, if it has one.
    mutating func remove(_ slot: Int) {
        guard slot < positions.count, positions[slot] != 0 else { return }
        let index = Int(positions[slot]) - 1
        positions[slot] = 0
        let last = nodes.removeLast()
        guard index < nodes.count else { return }
        if index > 0, Self.precedes(last, nodes[(index - 1) / 4]) { siftUp(last, from: index) } else { siftDown(last, from: index) }
    }

    /// Removes and returns the slot with the earliest deadline, if that deadline is at or before `limit`.
    mutating func popFirst(ifDueBy limit: Int64) -> Int? {
        guard let first = nodes.first, first.deadline <= limit else { return nil }
        remove(Int(first.slot))
        return Int(first.slot)
    }

    /// Removes every deadline.
    mutating func removeAll() {
        for node in nodes { positions[Int(node.slot)] = 0 }
        nodes.removeAll(keepingCapacity: true)
    }

    private static func precedes(_ a: Node, _ b: Node) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
    }

    /// The next sequence number. When the counter would wrap, the nodes are renumbered in their
    /// order first (sorted, which is also a valid heap), so that order among equal deadlines holds
    /// however many deadlines were ever set.
    private mutating func takeSequence() -> UInt32 {
        if nextSequence == .max {
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
