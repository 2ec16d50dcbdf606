extension DeadlineHeap {
    /// Traps if the structure is inconsistent. For tests; O(n).
    ///
    /// Checks that, when ordered, no node precedes its parent (and otherwise that the recorded
    /// minimum is the smallest deadline and the run is empty); that the run's live entries are in
    /// order from its cursor and number ``runCount``; that every node's and live run entry's slot
    /// holds a payload and records where it is; and that the free list holds exactly the
    /// other slots, each marked free and without a payload.
    package func checkInvariants() {
        let positions = slots.map(\.position)
        var named = [Bool](repeating: false, count: slots.count)
        for (index, node) in nodes.enumerated() {
            let slot = Int(node.slot)
            precondition(slot < positions.count, "node \(index) names slot \(slot) past the end")
            precondition(!named[slot], "slot \(slot) is named twice")
            named[slot] = true
            precondition(slots[slot].payload != nil, "node \(index) has no payload")
            precondition(Int(positions[slot]) == index, "slot \(slot) records \(positions[slot]), its node is at \(index)")
            if isOrdered && index > 0 {
                precondition(!precedes(node, nodes[(index - 1) >> 2]), "node \(index) precedes its parent")
            }
        }
        if !isOrdered {
            precondition(runCount == 0, "a bulk is unordered while the run holds entries")
            precondition(peekDeadline == nodes.map(\.deadline).min(), "the unordered minimum is wrong")
        }
        var live = 0
        var previous: Node?
        for index in runHead..<run.count where run[index].slot != Self.tombstone {
            let node = run[index], slot = Int(node.slot)
            precondition(live > 0 || index == runHead, "the run's cursor is not on a live entry")
            precondition(slot < positions.count && !named[slot], "run entry \(index) names slot \(slot) badly")
            named[slot] = true
            precondition(slots[slot].payload != nil, "run entry \(index) has no payload")
            precondition(Int(positions[slot]) == Self.runFlag | index, "slot \(slot) records \(positions[slot]), its run entry is at \(index)")
            precondition(previous.map { precedes($0, node) } ?? true, "run entry \(index) is out of order")
            previous = node
            live += 1
        }
        precondition(live == runCount, "the run holds \(live) live entries, not \(runCount)")
        var free = freeHead
        var freeCount = 0
        while free >= 0 {
            let slot = Int(free)
            precondition(!named[slot], "slot \(slot) is both free and in use")
            precondition(slots[slot].payload == nil, "free slot \(slot) holds a payload")
            named[slot] = true
            freeCount += 1
            free = -2 - positions[slot]
        }
        precondition(freeCount + nodes.count + runCount == positions.count, "a slot is neither in use nor free")
    }
}
