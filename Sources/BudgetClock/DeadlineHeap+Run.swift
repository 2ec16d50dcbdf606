import CBudgetClockShims

extension DeadlineHeap {
    /// Added to a run index in a slot's position, so a run entry is told apart from a heap node; heap
    /// indices stay below it.
    static var runFlag: Int { 1 << 30 }

    /// How many run entries ahead of the cursor a pop fetches the slot of.
    static var prefetchDistance: Int { 16 }

    /// The slot of a run entry that was removed.
    static var tombstone: UInt32 { .max }

    /// Sorts the unordered bulk in `nodes` into the run, leaving the heap empty: O(n log n).
    mutating func sortIntoRun() {
        precondition(runCount == 0, "DeadlineHeap: a bulk arrived while the run held entries")
        isOrdered = true
        swap(&run, &nodes)
        slots.withUnsafeBufferPointer { slots in
            run.sort { Self.precedes($0, $1, slots) }
        }
        runHead = 0
        runCount = run.count
        run.withUnsafeBufferPointer { run in
            slots.withUnsafeMutableBufferPointer { slots in
                for index in run.indices {
                    slots[Int(run[index].slot)].position = Int32(truncatingIfNeeded: Self.runFlag | index)
                }
            }
        }
    }

    /// Takes the run's earliest entry.
    mutating func popRun() -> (deadline: Int64, payload: Payload) {
        let node = run[runHead]
        // The run is in deadline order, its slots in insertion order: each pop touches a slot far
        // from the last one. Fetch the slot a few pops ahead meanwhile.
        let ahead = runHead &+ Self.prefetchDistance
        if ahead < run.count {
            let slot = Int(run[ahead].slot)
            if slot < slots.count { slots.withUnsafeBufferPointer { c_budget_clock_prefetch($0.baseAddress! + slot) } }
        }
        runHead += 1
        runCount -= 1
        skipTombstones()
        return (node.deadline, takePayload(Int(node.slot)))
    }

    /// Removes the run entry at `index`, leaving a tombstone.
    mutating func removeFromRun(at index: Int) -> Payload {
        let slot = Int(run[index].slot)
        run[index].slot = Self.tombstone
        runCount -= 1
        if index == runHead { skipTombstones() }
        return takePayload(slot)
    }

    /// Removes the unordered node at `index` by moving the last node into its place; the caller
    /// makes sure it is not the earliest, so ``unorderedMinimum`` stays right.
    mutating func removeUnordered(at index: Int) -> Payload {
        let slot = Int(nodes[index].slot)
        let last = nodes.removeLast()
        if index < nodes.count {
            nodes[index] = last
            slots[Int(last.slot)].position = Int32(truncatingIfNeeded: index)
        }
        return takePayload(slot)
    }

    /// Moves the cursor to the next live entry, or empties the run (freeing its memory) when none is
    /// left.
    private mutating func skipTombstones() {
        guard runCount > 0 else {
            run = []
            runHead = 0
            return
        }
        while run[runHead].slot == Self.tombstone { runHead += 1 }
    }
}
