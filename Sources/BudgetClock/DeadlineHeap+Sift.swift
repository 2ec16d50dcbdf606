extension DeadlineHeap {
    /// Whether node `a` comes before node `b`: earlier deadline, then earlier insertion.
    @inline(__always)
    func precedes(_ a: Node, _ b: Node) -> Bool {
        if a.deadline != b.deadline { return a.deadline < b.deadline }
        return sequences[Int(a.slot)] < sequences[Int(b.slot)]
    }

    /// Places `node` at `index` or above, moving the parents it precedes down one level each.
    mutating func siftUp(_ node: Node, from index: Int) {
        withBuffers { nodes, positions, sequences in
            var hole = index
            while hole > 0 {
                let parentIndex = (hole &- 1) >> 2
                let parent = nodes[parentIndex]
                guard Self.precedes(node, parent, sequences) else { break }
                nodes[hole] = parent
                positions[Int(parent.slot)] = Int32(truncatingIfNeeded: hole)
                hole = parentIndex
            }
            nodes[hole] = node
            positions[Int(node.slot)] = Int32(truncatingIfNeeded: hole)
        }
    }

    /// Places `node` at `index` or below, moving the earliest child up while it precedes `node`.
    mutating func siftDown(_ node: Node, from index: Int) {
        withBuffers { nodes, positions, sequences in
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
                    if Self.precedes(candidate, bestNode, sequences) {
                        best = child
                        bestNode = candidate
                    }
                    child &+= 1
                }
                guard Self.precedes(bestNode, node, sequences) else { break }
                nodes[hole] = bestNode
                positions[Int(bestNode.slot)] = Int32(truncatingIfNeeded: hole)
                hole = best
            }
            nodes[hole] = node
            positions[Int(node.slot)] = Int32(truncatingIfNeeded: hole)
        }
    }

    /// ``precedes(_:_:)`` on the sift loops' raw sequences.
    @inline(__always)
    static func precedes(_ a: Node, _ b: Node, _ sequences: UnsafeBufferPointer<UInt64>) -> Bool {
        if a.deadline != b.deadline { return a.deadline < b.deadline }
        return sequences[Int(a.slot)] < sequences[Int(b.slot)]
    }

    /// Runs `body` on the nodes, node indices and sequences, without bounds checks in release builds.
    @inline(__always)
    private mutating func withBuffers(
        _ body: (UnsafeMutableBufferPointer<Node>, UnsafeMutableBufferPointer<Int32>, UnsafeBufferPointer<UInt64>) -> Void
    ) {
        nodes.withUnsafeMutableBufferPointer { nodes in
            positions.withUnsafeMutableBufferPointer { positions in
                sequences.withUnsafeBufferPointer { sequences in
                    body(nodes, positions, sequences)
                }
            }
        }
    }
}
