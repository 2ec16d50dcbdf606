import CBudgetClockShims

/// The sorted run of a bulk (see ``SlotHeap``'s *Bulks*): sorting a pending bulk into it, popping and
/// removing its entries.
extension SlotHeap {
    /// ``popFirst(ifDueBy:)`` while there is a run or a pending bulk: sorts the bulk, then takes the
    /// earlier of the run's cursor and the heap's root.
    mutating func popFirstWithRun(ifDueBy limit: Int64) -> (deadline: Int64, slot: Int)? {
        if bulkIsPending {
            guard bulkMinimum <= limit else { return nil }
            sortIntoRun()
        }
        guard runCount > 0, nodes.isEmpty || Self.precedes(run[runHead], nodes[0]) else {
            guard let first = nodes.first, first.deadline <= limit else { return nil }
            removeNode(at: 0)
            return (first.deadline, Int(first.slot))
        }
        let head = run[runHead]
        guard head.deadline <= limit else { return nil }
        // The run is in deadline order, its slots in the order they were set: each pop writes a
        // position far from the last one. Fetch the one a few pops ahead meanwhile.
        if let ahead = slotInRun(ahead: Self.prefetchDistance), ahead < positions.count {
            positions.withUnsafeBufferPointer { c_budget_clock_prefetch($0.baseAddress! + ahead) }
        }
        removeFromRun(at: runHead)
        return (head.deadline, Int(head.slot))
    }

    /// How many run entries ahead of the cursor a pop fetches the position of (and ``DeadlineHeap``
    /// the slot record of).
    package static var prefetchDistance: Int { 16 }

    /// The slot of the run entry `distance` places after the cursor (a tombstone's is past every
    /// slot), or `nil` when the run is shorter.
    @inline(__always)
    package func slotInRun(ahead distance: Int) -> Int? {
        let index = runHead &+ distance
        return index < run.count ? Int(run[index].slot) : nil
    }

    /// Below this many entries a pending bulk is sorted into the heap itself, not into a run.
    static var runThreshold: Int { 256 }

    /// Sorts the pending bulk: below ``runThreshold`` entries by comparison into the heap itself (a
    /// sorted array is a valid heap), so a small bulk allocates nothing; else by a radix sort on the
    /// deadline (O(n) per 8-bit digit that varies) into the run (which is empty), leaving the heap
    /// empty.
    mutating func sortIntoRun() {
        bulkIsPending = false
        if bulkRemoved > 0 {
            nodes.removeAll { $0.slot == Self.tombstone }
            bulkRemoved = 0
        }
        if nodes.count < Self.runThreshold {
            nodes.sort(by: Self.precedes)
            for index in nodes.indices { positions[Int(nodes[index].slot)] = UInt32(truncatingIfNeeded: index &+ 1) }
            return
        }
        swap(&run, &nodes)
        let count = run.count
        var scratch = [Node](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        let sortedIntoScratch = run.withUnsafeMutableBufferPointer { run in
            scratch.withUnsafeMutableBufferPointer { scratch in Self.radixSort(run, using: scratch) }
        }
        if sortedIntoScratch { swap(&run, &scratch) }
        runHead = 0
        runCount = run.count
        run.withUnsafeBufferPointer { run in
            positions.withUnsafeMutableBufferPointer { positions in
                for index in run.indices { positions[Int(run[index].slot)] = Self.runFlag | UInt32(truncatingIfNeeded: index) }
            }
        }
    }

    /// Sorts `nodes` by deadline with a least-significant-digit radix sort, stable, one pass per 8-bit
    /// digit of the offset from the earliest deadline that is not the same in every node. A pending
    /// bulk is in the order it was set (a move or removal sorts it first), so stable is enough for
    /// equal deadlines to stay in that order.
    /// - Returns: Whether the sorted nodes ended up in `scratch` (else they are in `nodes`).
    private static func radixSort(_ nodes: UnsafeMutableBufferPointer<Node>, using scratch: UnsafeMutableBufferPointer<Node>) -> Bool {
        var minimum = Int64.max, maximum = Int64.min
        for node in nodes {
            minimum = Swift.min(minimum, node.deadline)
            maximum = Swift.max(maximum, node.deadline)
        }
        // The span fits in 64 bits unsigned even when `maximum - minimum` overflows `Int64`.
        let span = UInt64(bitPattern: maximum &- minimum)
        let passes = (UInt64.bitWidth &- span.leadingZeroBitCount &+ 7) / 8
        guard passes > 0 else { return false }
        var counts = [Int](repeating: 0, count: passes * 256)
        return counts.withUnsafeMutableBufferPointer { counts in
            for node in nodes {
                var key = UInt64(bitPattern: node.deadline &- minimum)
                for pass in 0..<passes {
                    counts[pass &* 256 &+ Int(truncatingIfNeeded: key & 255)] &+= 1
                    key &>>= 8
                }
            }
            var source = nodes, target = scratch, inScratch = false
            for pass in 0..<passes {
                let shift = UInt64(pass &* 8), base = pass &* 256
                let firstDigit = Int(truncatingIfNeeded: (UInt64(bitPattern: source[0].deadline &- minimum) &>> shift) & 255)
                if counts[base &+ firstDigit] == source.count { continue }
                var offset = 0
                for digit in base..<(base &+ 256) {
                    let inBucket = counts[digit]
                    counts[digit] = offset
                    offset &+= inBucket
                }
                for node in source {
                    let digit = base &+ Int(truncatingIfNeeded: (UInt64(bitPattern: node.deadline &- minimum) &>> shift) & 255)
                    target[counts[digit]] = node
                    counts[digit] &+= 1
                }
                swap(&source, &target)
                inScratch.toggle()
            }
            return inScratch
        }
    }

    /// Takes the run entry at `index` out (a tombstone unless the cursor passes it) and clears its
    /// slot's position; frees the run once no live entry is left.
    mutating func removeFromRun(at index: Int) {
        positions[Int(run[index].slot)] = 0
        run[index].slot = Self.tombstone
        runCount &-= 1
        guard runCount > 0 else {
            run = []
            runHead = 0
            return
        }
        if index == runHead {
            while run[runHead].slot == Self.tombstone { runHead &+= 1 }
        }
    }
}
