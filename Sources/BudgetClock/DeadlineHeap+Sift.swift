extension DeadlineHeap {
    /// Whether node `a` comes before node `b`: earlier deadline, then earlier insertion.
    @inline(__always)
    func precedes(_ a: Node, _ b: Node) -> Bool {
        if a.deadline != b.deadline { return a.deadline < b.deadline }
        return slots[Int(a.slot)].sequence < slots[Int(b.slot)].sequence
    }

    /// Places `node` at `index` or above, moving the parents it precedes down one level each.
    mutating func siftUp(_ node: Node, from index: Int) {
        withBuffers { nodes, slots in
            var hole = index
            while hole > 0 {
                let parentIndex = (hole &- 1) >> 2
                let parent = nodes[parentIndex]
                guard Self.precedes(node, parent, UnsafeBufferPointer(slots)) else { break }
                nodes[hole] = parent
                slots[Int(parent.slot)].position = Int32(truncatingIfNeeded: hole)
                hole = parentIndex
            }
            nodes[hole] = node
            slots[Int(node.slot)].position = Int32(truncatingIfNeeded: hole)
        }
    }

    /// Places `node` at `index` or below, moving the earliest child up while it precedes `node`.
    mutating func siftDown(_ node: Node, from index: Int) {
        withBuffers { nodes, slots in
            let count = nodes.count
            var hole = index
            while true {
                let first = (hole << 2) &+ 1
                guard first < count else { break }
                var best = first
                var bestNode = nodes[first]
                var child = first &+ 1
                let end = Swift.min(first &+ 4, count)
                while child < end {
                    let candidate = nodes[child]
                    if Self.precedes(candidate, bestNode, UnsafeBufferPointer(slots)) {
                        best = child
                        bestNode = candidate
                    }
                    child &+= 1
                }
                guard Self.precedes(bestNode, node, UnsafeBufferPointer(slots)) else { break }
                nodes[hole] = bestNode
                slots[Int(bestNode.slot)].position = Int32(truncatingIfNeeded: hole)
                hole = best
            }
            nodes[hole] = node
            slots[Int(node.slot)].position = Int32(truncatingIfNeeded: hole)
        }
    }

    /// ``precedes(_:_:)`` on the sift loops' raw slots.
    @inline(__always)
    static func precedes(_ a: Node, _ b: Node, _ slots: UnsafeBufferPointer<Slot>) -> Bool {
        if a.deadline != b.deadline { return a.deadline < b.deadline }
        return slots[Int(a.slot)].sequence < slots[Int(b.slot)].sequence
    }

    /// Runs `body` on the nodes and slots, without bounds checks in release builds.
    @inline(__always)
    private mutating func withBuffers(_ body: (UnsafeMutableBufferPointer<Node>, UnsafeMutableBufferPointer<Slot>) -> Void) {
        nodes.withUnsafeMutableBufferPointer { nodes in
            slots.withUnsafeMutableBufferPointer { slots in
                body(nodes, slots)
            }
        }
    }
}
