/// A min-heap of deadlines keyed by small slot numbers the caller owns: at most one deadline per
/// slot, earliest first, and among equal deadlines the one set first. The one deadline heap of the
/// package: ``DeadlineHeap`` keeps the clocks' work over it, and the budget scheduler keys it by
/// budget slot.
///
/// ```swift
/// var heap = SlotHeap()
/// heap.set(3, to: 20)
/// heap.set(7, to: 10)
/// heap.set(5, to: 10)
/// heap.set(3, to: 5)                 // moved: now the earliest
/// heap.remove(7)
/// heap.popFirst(ifDueBy: 15)         // (5, 3)
/// heap.popFirst(ifDueBy: 15)         // (10, 5)
/// heap.popFirst(ifDueBy: 15)         // nil
/// ```
///
/// ## Layout
/// A 4-ary implicit heap of 16-byte nodes (a deadline, a sequence number and a slot), so a node's
/// four children share one cache line and a tie is broken without leaving the node; beside it, per
/// slot, the node's index plus one (4 bytes; zero while the slot has no deadline), which makes moving
/// or removing a slot's deadline O(log n) with no search. 20 bytes per slot with a deadline, plus the
/// arrays' spare capacity; the position array grows to the highest slot used and never shrinks.
///
/// The sequence is 32 bits. When it would wrap, the nodes are renumbered in their order first (a
/// sorted array is also a valid heap), so order among equal deadlines holds however many deadlines
/// were ever set.
package struct SlotHeap: Sendable {
    /// One heap node.
    package struct Node: Sendable {
        /// When the slot is due, in nanoseconds.
        package var deadline: Int64
        /// When the deadline was set: the tie-breaker among equal deadlines.
        package var sequence: UInt32
        /// The slot the deadline belongs to.
        package var slot: UInt32
    }

    /// Heap-ordered nodes: the children of `i` are `4i+1 ... 4i+4`.
    package private(set) var nodes: [Node] = []
    /// Per slot: its node's index plus one; zero when the slot has no deadline.
    private var positions: [UInt32] = []
    /// The sequence the next deadline set gets (settable so that a test can start it near wrapping).
    package var nextSequence: UInt32 = 0

    /// Creates an empty heap.
    package init() {}

    /// The number of slots with a deadline.
    /// - Complexity: O(1).
    package var count: Int { nodes.count }

    /// Whether no slot has a deadline.
    /// - Complexity: O(1).
    package var isEmpty: Bool { nodes.isEmpty }

    /// The earliest deadline, or `nil` when no slot has one.
    /// - Complexity: O(1).
    package var peekDeadline: Int64? { nodes.first?.deadline }

    /// Bytes held by the two arrays, counting spare capacity.
    /// - Complexity: O(1).
    package var allocatedByteCount: Int {
        nodes.capacity * MemoryLayout<Node>.stride + positions.capacity * MemoryLayout<UInt32>.stride
    }

    /// Whether a slot has a deadline.
    /// - Complexity: O(1).
    package func contains(_ slot: Int) -> Bool {
        slot < positions.count && positions[slot] != 0
    }

    /// A slot's deadline, or `nil` when it has none.
    /// - Complexity: O(1).
    package func deadline(of slot: Int) -> Int64? {
        guard contains(slot) else { return nil }
        return nodes[Int(positions[slot]) &- 1].deadline
    }

    /// Where a slot's deadline stands among equal deadlines: its sequence number, higher for a
    /// deadline set later; `nil` when the slot has none. Comparable between slots only while both
    /// keep their deadlines.
    /// - Complexity: O(1).
    package func sequence(of slot: Int) -> UInt32? {
        guard contains(slot) else { return nil }
        return nodes[Int(positions[slot]) &- 1].sequence
    }

    /// Sets a slot's deadline, adding the slot or moving it; it then counts as set last among equal
    /// deadlines.
    /// - Complexity: O(log n), amortised over the arrays' growth.
    package mutating func set(_ slot: Int, to deadline: Int64) {
        precondition(slot >= 0 && slot < Int(UInt32.max), "SlotHeap: slot out of range")
        if slot >= positions.count { positions.append(contentsOf: repeatElement(0, count: slot &+ 1 &- positions.count)) }
        let node = Node(deadline: deadline, sequence: takeSequence(), slot: UInt32(truncatingIfNeeded: slot))
        let position = Int(positions[slot])
        if position == 0 {
            nodes.append(node)
            siftUp(node, from: nodes.count &- 1)
        } else if Self.precedes(node, nodes[position &- 1]) {
            siftUp(node, from: position &- 1)
        } else {
            siftDown(node, from: position &- 1)
        }
    }

    /// Removes a slot's deadline.
    /// - Returns: Whether the slot had one.
    /// - Complexity: O(log n).
    @discardableResult
    package mutating func remove(_ slot: Int) -> Bool {
        guard contains(slot) else { return false }
        removeNode(at: Int(positions[slot]) &- 1)
        return true
    }

    /// Removes and returns the earliest deadline and its slot, if that deadline is at or before
    /// `limit`.
    /// - Complexity: O(log n).
    package mutating func popFirst(ifDueBy limit: Int64) -> (deadline: Int64, slot: Int)? {
        guard let first = nodes.first, first.deadline <= limit else { return nil }
        removeNode(at: 0)
        return (first.deadline, Int(first.slot))
    }

    /// Removes every deadline.
    /// - Complexity: O(n).
    package mutating func removeAll() {
        for node in nodes { positions[Int(node.slot)] = 0 }
        nodes.removeAll(keepingCapacity: true)
    }

    /// Traps if the structure is inconsistent: a node that precedes its parent, a slot that does not
    /// record its node's place, or a slot that records a place but has no node. For tests; O(n).
    package func checkInvariants() {
        for (index, node) in nodes.enumerated() {
            precondition(Int(node.slot) < positions.count && Int(positions[Int(node.slot)]) == index + 1,
                         "slot \(node.slot) does not record its node at \(index)")
            precondition(index == 0 || !Self.precedes(node, nodes[(index - 1) / 4]), "node \(index) precedes its parent")
        }
        precondition(positions.filter { $0 != 0 }.count == nodes.count, "a slot records a node it does not have")
    }

    // MARK: - Internals

    /// Whether `a` comes before `b`: earlier deadline, then set earlier.
    @inline(__always)
    private static func precedes(_ a: Node, _ b: Node) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
    }

    /// Takes the node at `index` out and clears its slot's position.
    @inline(__always)
    private mutating func removeNode(at index: Int) {
        positions[Int(nodes[index].slot)] = 0
        let last = nodes.removeLast()
        guard index < nodes.count else { return }
        if index > 0 && Self.precedes(last, nodes[(index &- 1) >> 2]) { siftUp(last, from: index) } else { fillHole(at: index, with: last) }
    }

    /// The next sequence number, renumbering the nodes first when the counter would wrap.
    @inline(__always)
    private mutating func takeSequence() -> UInt32 {
        if nextSequence == .max { renumber() }
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    /// Numbers the nodes from zero in their order (sorted, which is also a valid heap).
    private mutating func renumber() {
        nodes.sort(by: Self.precedes)
        for index in nodes.indices {
            nodes[index].sequence = UInt32(index)
            positions[Int(nodes[index].slot)] = UInt32(index + 1)
        }
        nextSequence = UInt32(nodes.count)
    }

    /// Places `node` at `start` or above, moving the parents it precedes down one level each.
    private mutating func siftUp(_ node: Node, from start: Int) {
        withBuffers { nodes, positions in
            var index = start
            while index > 0 {
                let parent = (index &- 1) >> 2
                let parentNode = nodes[parent]
                guard Self.precedes(node, parentNode) else { break }
                nodes[index] = parentNode
                positions[Int(parentNode.slot)] = UInt32(truncatingIfNeeded: index &+ 1)
                index = parent
            }
            nodes[index] = node
            positions[Int(node.slot)] = UInt32(truncatingIfNeeded: index &+ 1)
        }
    }

    /// Places `node` at `start` or below, moving the earliest child up while it precedes `node`.
    private mutating func siftDown(_ node: Node, from start: Int) {
        withBuffers { nodes, positions in
            let count = nodes.count
            var index = start
            while true {
                let first = (index << 2) &+ 1
                guard first < count else { break }
                var best = first
                var bestNode = nodes[first]
                var child = first &+ 1
                let end = Swift.min(first &+ 4, count)
                while child < end {
                    let candidate = nodes[child]
                    if Self.precedes(candidate, bestNode) {
                        best = child
                        bestNode = candidate
                    }
                    child &+= 1
                }
                guard Self.precedes(bestNode, node) else { break }
                nodes[index] = bestNode
                positions[Int(bestNode.slot)] = UInt32(truncatingIfNeeded: index &+ 1)
                index = best
            }
            nodes[index] = node
            positions[Int(node.slot)] = UInt32(truncatingIfNeeded: index &+ 1)
        }
    }

    /// Places `node`, which does not precede the parent of `start`, at `start` or below: moves the
    /// earliest child up into the hole level by level down to a leaf, then sifts `node` up from there
    /// (no higher than `start`). A removal's `node` is the heap's last, which usually belongs near
    /// the bottom again, so this makes three comparisons per level where ``siftDown(_:from:)`` makes
    /// four (the *Performance* article has what that buys the hold target).
    private mutating func fillHole(at start: Int, with node: Node) {
        withBuffers { nodes, positions in
            let count = nodes.count
            var index = start
            while true {
                let first = (index << 2) &+ 1
                guard first < count else { break }
                var best = first
                var bestNode = nodes[first]
                if first &+ 3 < count {
                    // All four children: a tournament of three comparisons.
                    let second = nodes[first &+ 1], third = nodes[first &+ 2], fourth = nodes[first &+ 3]
                    if Self.precedes(second, bestNode) { best = first &+ 1; bestNode = second }
                    let (right, rightNode) = Self.precedes(fourth, third) ? (first &+ 3, fourth) : (first &+ 2, third)
                    if Self.precedes(rightNode, bestNode) { best = right; bestNode = rightNode }
                } else {
                    var child = first &+ 1
                    while child < count {
                        if Self.precedes(nodes[child], bestNode) { best = child; bestNode = nodes[child] }
                        child &+= 1
                    }
                }
                nodes[index] = bestNode
                positions[Int(bestNode.slot)] = UInt32(truncatingIfNeeded: index &+ 1)
                index = best
            }
            while index > start {
                let parent = (index &- 1) >> 2
                let parentNode = nodes[parent]
                guard Self.precedes(node, parentNode) else { break }
                nodes[index] = parentNode
                positions[Int(parentNode.slot)] = UInt32(truncatingIfNeeded: index &+ 1)
                index = parent
            }
            nodes[index] = node
            positions[Int(node.slot)] = UInt32(truncatingIfNeeded: index &+ 1)
        }
    }

    /// Runs `body` on the nodes and positions, without bounds checks in release builds: one
    /// uniqueness check per array per sift instead of one per write (the *Performance* article has
    /// what that buys the hold target).
    @inline(__always)
    private mutating func withBuffers(_ body: (UnsafeMutableBufferPointer<Node>, UnsafeMutableBufferPointer<UInt32>) -> Void) {
        nodes.withUnsafeMutableBufferPointer { nodes in
            positions.withUnsafeMutableBufferPointer { positions in body(nodes, positions) }
        }
    }
}
