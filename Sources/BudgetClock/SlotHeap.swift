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
/// ## Bulks
/// Deadlines set into an empty heap are appended unsorted until the next pop or move, which sorts
/// them once: from 256 on by a radix sort on the deadline into a *run*, an array read from a cursor
/// (fewer are sorted into the heap itself, a sorted array being a valid heap); ``peekDeadline`` meanwhile reports the smallest seen. Later deadlines
/// go into the heap, and a pop takes the earlier of the run's cursor and the heap's root. A bulk of
/// scheduling then costs one sort instead of a sift per deadline. Removing a bulk entry that is not
/// the earliest, or a run entry, leaves a tombstone (the sort drops it, the cursor skips it): O(1);
/// removing the bulk's earliest sorts it first. An emptied run frees its array. The run's pops
/// prefetch the position 16 entries ahead. The *Performance* article has what this carries (the
/// bulk target).
///
/// The sequence is 32 bits. When it would wrap, the nodes and the run's entries are renumbered in their
/// order into the heap first (a sorted array is also a valid heap), so order among equal deadlines holds
/// however many deadlines were ever set.
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

    /// Heap-ordered nodes: the children of `i` are `4i+1 ... 4i+4`; while ``bulkIsPending``, the
    /// bulk, unsorted.
    var nodes: [Node] = []
    /// Per slot: its node's index plus one, or ``runFlag`` plus its run index; zero when the slot
    /// has no deadline.
    var positions: [UInt32] = []
    /// A bulk sorted by deadline then sequence, live from ``runHead`` on except for tombstones
    /// (slot ``tombstone``); empty once it holds no live entry.
    var run: [Node] = []
    /// The run's earliest live entry while ``runCount`` is above zero.
    var runHead = 0
    /// The run's live entries.
    package internal(set) var runCount = 0
    /// Whether `nodes` holds a bulk set into an empty heap, not sorted yet.
    package internal(set) var bulkIsPending = false
    /// While ``bulkIsPending``: the bulk's earliest deadline.
    var bulkMinimum: Int64 = .max
    /// While ``bulkIsPending``: how many of its nodes were removed (tombstones, dropped by the sort).
    var bulkRemoved = 0
    /// Marks a position as a run index.
    static var runFlag: UInt32 { 1 << 31 }
    /// The slot of a removed run entry.
    static var tombstone: UInt32 { .max }
    /// The sequence the next deadline set gets (settable so that a test can start it near wrapping).
    package var nextSequence: UInt32 = 0

    /// Creates an empty heap.
    package init() {}

    /// The number of slots with a deadline.
    /// - Complexity: O(1).
    package var count: Int { nodes.count &- bulkRemoved &+ runCount }

    /// Whether no slot has a deadline.
    /// - Complexity: O(1).
    package var isEmpty: Bool { count == 0 }

    /// The earliest deadline, or `nil` when no slot has one.
    /// - Complexity: O(1).
    package var peekDeadline: Int64? {
        if bulkIsPending { return bulkMinimum }
        guard runCount > 0 else { return nodes.first?.deadline }
        let runFirst = run[runHead].deadline
        return nodes.first.map { Swift.min($0.deadline, runFirst) } ?? runFirst
    }

    /// Bytes held by the two arrays, counting spare capacity.
    /// - Complexity: O(1).
    package var allocatedByteCount: Int {
        (nodes.capacity &+ run.capacity) * MemoryLayout<Node>.stride + positions.capacity * MemoryLayout<UInt32>.stride
    }

    /// Whether a slot has a deadline.
    /// - Complexity: O(1).
    package func contains(_ slot: Int) -> Bool {
        slot < positions.count && positions[slot] != 0
    }

    /// A slot's deadline, or `nil` when it has none.
    /// - Complexity: O(1).
    package func deadline(of slot: Int) -> Int64? {
        node(of: slot)?.deadline
    }

    /// Where a slot's deadline stands among equal deadlines: its sequence number, higher for a
    /// deadline set later; `nil` when the slot has none. Comparable between slots only while both
    /// keep their deadlines.
    /// - Complexity: O(1).
    package func sequence(of slot: Int) -> UInt32? {
        node(of: slot)?.sequence
    }

    /// The slots that have a deadline, in no particular order.
    /// - Complexity: O(n).
    package var slotsWithDeadline: [Int] {
        nodes.lazy.filter { $0.slot != Self.tombstone }.map { Int($0.slot) } + run[runHead...].lazy.filter { $0.slot != Self.tombstone }.map { Int($0.slot) }
    }

    /// Sets a slot's deadline, adding the slot or moving it; it then counts as set last among equal
    /// deadlines.
    /// - Complexity: O(log n), amortised over the arrays' growth.
    package mutating func set(_ slot: Int, to deadline: Int64) {
        precondition(slot >= 0 && slot < Int(Self.runFlag) &- 1, "SlotHeap: slot out of range")
        if slot == positions.count { positions.append(0) } else if slot > positions.count {
            positions.append(contentsOf: repeatElement(0, count: slot &+ 1 &- positions.count))
        }
        let node = Node(deadline: deadline, sequence: takeSequence(), slot: UInt32(truncatingIfNeeded: slot))
        var position = Int(positions[slot])
        if _slowPath(bulkIsPending || (position == 0 && nodes.isEmpty && runCount == 0)) {
            if position == 0 {
                // Into an empty heap, or onto its pending bulk: append unsorted.
                if !bulkIsPending { bulkIsPending = true; bulkMinimum = deadline }
                nodes.append(node)
                positions[slot] = UInt32(truncatingIfNeeded: nodes.count)
                bulkMinimum = Swift.min(bulkMinimum, deadline)
                return
            }
            sortIntoRun()
            position = Int(positions[slot])
        }
        if position >= Int(Self.runFlag) {
            removeFromRun(at: position &- Int(Self.runFlag))
            position = 0
        }
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
        if bulkIsPending {
            if nodes.count == 1 {
                // The bulk's only entry (a tombstone needs a live earliest beside it): empty again.
                positions[slot] = 0
                nodes.removeAll(keepingCapacity: true)
                bulkIsPending = false
                return true
            }
            let index = Int(positions[slot]) &- 1
            guard nodes[index].deadline <= bulkMinimum else {
                // Not the earliest: a tombstone the sort drops, so the bulk's minimum still holds.
                nodes[index].slot = Self.tombstone
                positions[slot] = 0
                bulkRemoved &+= 1
                return true
            }
            sortIntoRun()
        }
        let position = Int(positions[slot])
        if position >= Int(Self.runFlag) { removeFromRun(at: position &- Int(Self.runFlag)) } else { removeNode(at: position &- 1) }
        return true
    }

    /// Removes and returns the earliest deadline and its slot, if that deadline is at or before
    /// `limit`.
    /// - Complexity: O(log n).
    package mutating func popFirst(ifDueBy limit: Int64) -> (deadline: Int64, slot: Int)? {
        if _slowPath(runCount > 0 || bulkIsPending) { return popFirstWithRun(ifDueBy: limit) }
        guard let first = nodes.first, first.deadline <= limit else { return nil }
        removeNode(at: 0)
        return (first.deadline, Int(first.slot))
    }

    /// Removes every deadline.
    /// - Complexity: O(n).
    package mutating func removeAll() {
        for slot in slotsWithDeadline { positions[slot] = 0 }
        nodes.removeAll(keepingCapacity: true)
        run = []
        runHead = 0
        runCount = 0
        bulkIsPending = false
        bulkRemoved = 0
    }

    /// Traps if the structure is inconsistent: a node that precedes its parent, a slot that does not
    /// record its node's place, or a slot that records a place but has no node. For tests; O(n).
    package func checkInvariants() {
        for (index, node) in nodes.enumerated() where !bulkIsPending || node.slot != Self.tombstone {
            precondition(Int(node.slot) < positions.count && Int(positions[Int(node.slot)]) == index + 1,
                         "slot \(node.slot) does not record its node at \(index)")
            precondition(bulkIsPending || index == 0 || !Self.precedes(node, nodes[(index - 1) / 4]), "node \(index) precedes its parent")
        }
        if bulkIsPending {
            let live = nodes.filter { $0.slot != Self.tombstone }
            precondition(runCount == 0 && !live.isEmpty && bulkMinimum == live.map(\.deadline).min()
                         && nodes.count - live.count == bulkRemoved, "a pending bulk out of step")
        } else {
            precondition(bulkRemoved == 0, "tombstones outside a pending bulk")
        }
        var live = 0
        var previous: Node?
        for index in run.indices.dropFirst(runHead) where run[index].slot != Self.tombstone {
            let node = run[index]
            precondition(live > 0 || index == runHead, "the run's cursor is on a tombstone")
            precondition(Int(positions[Int(node.slot)]) == Int(Self.runFlag) + index, "slot \(node.slot) does not record its run entry at \(index)")
            precondition(previous.map { Self.precedes($0, node) } ?? true, "run entry \(index) is out of order")
            previous = node
            live += 1
        }
        precondition(live == runCount && (runCount > 0 || run.isEmpty), "the run's count is out of step")
        precondition(positions.filter { $0 != 0 }.count == count, "a slot records a node it does not have")
    }

    // MARK: - Internals

    /// A slot's node, in the heap or the run.
    @inline(__always)
    private func node(of slot: Int) -> Node? {
        guard contains(slot) else { return nil }
        let position = Int(positions[slot])
        return position >= Int(Self.runFlag) ? run[position &- Int(Self.runFlag)] : nodes[position &- 1]
    }

    /// Whether `a` comes before `b`: earlier deadline, then set earlier.
    @inline(__always)
    static func precedes(_ a: Node, _ b: Node) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
    }

    /// Takes the node at `index` out and clears its slot's position.
    @inline(__always)
    mutating func removeNode(at index: Int) {
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

    /// Numbers the nodes and the run's entries from zero in their order, all into the heap (sorted,
    /// which is also a valid heap).
    private mutating func renumber() {
        nodes = nodes.filter { $0.slot != Self.tombstone } + run[runHead...].filter { $0.slot != Self.tombstone }
        bulkRemoved = 0
        run = []
        runHead = 0
        runCount = 0
        bulkIsPending = false
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
