import CBudgetClockShims

extension DeadlineHeap {
    /// Added to a run index in a slot's position, so a run entry is told apart from a heap node; heap
    /// indices stay below it.
    static var runFlag: Int { 1 << 30 }

    /// How many run entries ahead of the cursor a pop fetches the slot of.
    static var prefetchDistance: Int { 16 }

    /// The slot of a run entry that was removed.
    static var tombstone: UInt32 { .max }

    /// Below this many entries a bulk is sorted by comparison; from it on, by radix.
    static var radixThreshold: Int { 256 }

    /// Bits of the deadline one radix pass sorts by: 256 buckets.
    static var radixBits: Int { 8 }

    /// Sorts the unordered bulk in `nodes` into the run, leaving the heap empty: O(n log n) by
    /// comparison below ``radixThreshold`` entries, else O(n·p) by radix, where p is the number of
    /// 8-bit digits in the span between the earliest and latest deadline (at most 8; 6 for deadlines
    /// spread over an hour).
    mutating func sortIntoRun() {
        precondition(runCount == 0, "DeadlineHeap: a bulk arrived while the run held entries")
        isOrdered = true
        swap(&run, &nodes)
        if run.count < Self.radixThreshold {
            slots.withUnsafeBufferPointer { slots in
                run.sort { Self.precedes($0, $1, slots) }
            }
        } else {
            radixSortRunByDeadline()
            if !bulkIsInInsertionOrder { orderRunTiesBySequence() }
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

    /// Sorts the run by deadline alone with a least-significant-digit radix sort, which keeps entries
    /// with equal deadlines in the order they had, into a scratch array of the same size.
    private mutating func radixSortRunByDeadline() {
        let count = run.count
        var scratch = [Node](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        let sortedIntoScratch = run.withUnsafeMutableBufferPointer { run in
            scratch.withUnsafeMutableBufferPointer { scratch in Self.radixSort(run, using: scratch) }
        }
        if sortedIntoScratch { swap(&run, &scratch) }
    }

    /// Sorts `nodes` by deadline, stable, one pass per 8-bit digit of the deadline's offset from the
    /// earliest one; a digit that is the same in every entry costs no pass. All digits are counted in
    /// one pass first.
    /// - Returns: Whether the sorted nodes ended up in `scratch` (else they are in `nodes`).
    static func radixSort(_ nodes: UnsafeMutableBufferPointer<Node>, using scratch: UnsafeMutableBufferPointer<Node>) -> Bool {
        var minimum = Int64.max, maximum = Int64.min
        for node in nodes {
            minimum = Swift.min(minimum, node.deadline)
            maximum = Swift.max(maximum, node.deadline)
        }
        // The true span fits in 64 bits unsigned even when `maximum - minimum` overflows `Int64`.
        let span = UInt64(bitPattern: maximum &- minimum)
        let bits = radixBits, buckets = 1 << radixBits, mask = UInt64(buckets - 1)
        let passes = (UInt64.bitWidth - span.leadingZeroBitCount + bits - 1) / bits
        guard passes > 0 else { return false }
        var counts = [Int](repeating: 0, count: passes * buckets)
        return counts.withUnsafeMutableBufferPointer { counts in
            for node in nodes {
                var key = UInt64(bitPattern: node.deadline &- minimum)
                for pass in 0..<passes {
                    counts[pass &* buckets &+ Int(truncatingIfNeeded: key & mask)] &+= 1
                    key &>>= UInt64(bits)
                }
            }
            var source = nodes, target = scratch, inScratch = false
            for pass in 0..<passes {
                let shift = UInt64(pass * bits), base = pass * buckets
                let firstDigit = Int(truncatingIfNeeded: (UInt64(bitPattern: source[0].deadline &- minimum) &>> shift) & mask)
                if counts[base + firstDigit] == source.count { continue }
                var offset = 0
                for digit in base..<(base + buckets) {
                    let inBucket = counts[digit]
                    counts[digit] = offset
                    offset &+= inBucket
                }
                for node in source {
                    let digit = base &+ Int(truncatingIfNeeded: (UInt64(bitPattern: node.deadline &- minimum) &>> shift) & mask)
                    target[counts[digit]] = node
                    counts[digit] &+= 1
                }
                swap(&source, &target)
                inScratch.toggle()
            }
            return inScratch
        }
    }

    /// Puts each group of run entries with equal deadlines in insertion order, after a radix sort of a
    /// bulk whose nodes were not (a removal swapped the last node into the removed one's place).
    private mutating func orderRunTiesBySequence() {
        slots.withUnsafeBufferPointer { slots in
            run.withUnsafeMutableBufferPointer { run in
                var start = 0
                while start < run.count {
                    var end = start &+ 1
                    while end < run.count && run[end].deadline == run[start].deadline { end &+= 1 }
                    if end &- start > 1 {
                        var group = UnsafeMutableBufferPointer(rebasing: run[start..<end])
                        group.sort { slots[Int($0.slot)].sequence < slots[Int($1.slot)].sequence }
                    }
                    start = end
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
            bulkIsInInsertionOrder = false
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
