extension DeadlineHeap {
    /// Added to a run entry's index to form its slot's `position`: above every heap and staged
    /// position (which stay below ``stagedFlag`` plus the slot count).
    package static var runFlag: Int32 { 1 << 30 }

    /// While loading, the heap spills once this many inserts past its last spill went to it.
    package static var loadBatch: Int { 64 }

    /// Whether the run's head comes before the heap's root (or the heap is empty). Requires a live run.
    @inline(__always)
    func runPrecedesHeap() -> Bool {
        guard let first = keys.first else { return true }
        let runKey = runKeys[runHead]
        if runKey != first { return runKey < first }
        return sequences[Int(runOwners[runHead])] < sequences[Int(owners[0])]
    }

    /// Takes the run entry at `index` out, leaving a tombstone, frees its slot and moves the cursor
    /// past tombstones; an emptied run is released.
    /// - Returns: The entry's payload.
    package mutating func removeFromRun(at index: Int) -> Payload? {
        let slot = Int(runOwners[index])
        let payload = runPayloads[index].take()
        runLive -= 1
        freeSlot(slot)
        if runLive == 0 {
            resetRun()
        } else if index == runHead {
            // Entries before the head are never read again: no tombstone needed.
            repeat { runHead += 1 } while runOwners[runHead] == .max
        } else {
            runOwners[index] = .max
        }
        return payload
    }

    /// Empties the run, keeping its storage (its payloads are all `nil`); every run entry must have left.
    package mutating func resetRun() {
        runKeys.removeAll(keepingCapacity: true)
        runOwners.removeAll(keepingCapacity: true)
        runHead = 0
        runLive = 0
    }

    /// Releases the storage kept for later merges and staging; the structure must be empty.
    package mutating func releaseSpareStorage() {
        runKeys = []
        runOwners = []
        runPayloads = []
        spareKeys = []
        spareOwners = []
        sparePayloads = []
        stagedKeys = []
        stagedOwners = []
        stagedPayloads = []
    }

    /// Pads `payloads` with `nil` to at least `count` entries.
    static func padWithNil(_ payloads: inout [Payload?], to count: Int) {
        if payloads.count < count {
            payloads.append(contentsOf: repeatElement(nil, count: count - payloads.count))
        }
    }

    /// Keeps the earliest entry at the heap's root or the run's head: once the heap is empty and the
    /// run's head (if any) is past `horizon`, staged entries are merged into the run (see
    /// ``refill()``); with nothing staged, any deadline may go to the heap again (`horizon` is
    /// `Int64.max`), and once nothing at all is left the structure is loading again.
    package mutating func settle() {
        guard keys.isEmpty else { return }
        if runLive > 0 && runKeys[runHead] <= horizon { return }
        guard stagedKeys.isEmpty else {
            refill()
            return
        }
        horizon = .max
        if runLive == 0 {
            loading = true
            releaseSpareStorage()
        }
        spillAt = loading ? Swift.min(heapTarget * 2, Self.loadBatch) : heapTarget * 2
    }

    /// Sorts the staged entries by `(deadline, sequence)` and merges them with the run's live
    /// entries into a new run (tombstones dropped); staging ends empty. O(s + r) for s staged
    /// entries and r run entries, plus the ties' sorts.
    package mutating func mergeStagingIntoRun() {
        let (order, sortedKeys) = Self.sortedOrder(keys: stagedKeys, owners: stagedOwners, sequences: sequences)
        if runLive == 0 {
            moveStagingToRun(order: order, sortedKeys: sortedKeys)
            return
        }
        let total = runLive + order.count
        var newKeys: [Int64] = []
        var newOwners: [UInt32] = []
        var newPayloads: [Payload?] = []
        swap(&newKeys, &spareKeys)
        swap(&newOwners, &spareOwners)
        swap(&newPayloads, &sparePayloads)
        Self.resize(&newKeys, to: total)
        Self.resize(&newOwners, to: total)
        Self.padWithNil(&newPayloads, to: total)
        mergeRunWithStaging(order: order, sortedKeys: sortedKeys, into: &newKeys, &newOwners, &newPayloads)
        replaceRun(keys: &newKeys, owners: &newOwners, payloads: &newPayloads)
    }

    /// Staging, emptied, keeps its storage (its payloads all `nil`); the run becomes the given
    /// entries, all live (payloads past them `nil`), and the old run's arrays become the spares.
    private mutating func replaceRun(keys: inout [Int64], owners: inout [UInt32], payloads: inout [Payload?]) {
        stagedKeys.removeAll(keepingCapacity: true)
        stagedOwners.removeAll(keepingCapacity: true)
        runLive = keys.count
        runHead = 0
        swap(&runKeys, &keys)
        swap(&runOwners, &owners)
        swap(&runPayloads, &payloads)
        swap(&spareKeys, &keys)
        swap(&spareOwners, &owners)
        swap(&sparePayloads, &payloads)
        spareKeys.removeAll(keepingCapacity: true)
        spareOwners.removeAll(keepingCapacity: true)
    }

    /// The run is empty: staging, in `order`, becomes the run (payloads in the spare array). Payloads move bitwise (no reference
    /// counting); the loops run on the arrays' storage without bounds checks.
    private mutating func moveStagingToRun(order: [UInt32], sortedKeys: [Int64]) {
        let count = order.count
        let flag = Self.runFlag
        var newKeys = sortedKeys
        var newOwners: [UInt32] = []
        var newPayloads: [Payload?] = []
        swap(&newPayloads, &sparePayloads)
        Self.padWithNil(&newPayloads, to: count)
        stagedOwners.withUnsafeBufferPointer { stagedOwners in
            positions.withUnsafeMutableBufferPointer { positions in
                newOwners = [UInt32](unsafeUninitializedCapacity: count) { owners, initialized in
                    for rank in 0..<count {
                        let owner = stagedOwners[Int(order[rank])]
                        owners[rank] = owner
                        positions[Int(owner)] = flag + Int32(truncatingIfNeeded: rank)
                    }
                    initialized = count
                }
            }
        }
        stagedPayloads.withUnsafeMutableBufferPointer { staged in
            newPayloads.withUnsafeMutableBufferPointer { payloads in
                let source = staged.baseAddress.unsafelyUnwrapped
                let target = payloads.baseAddress.unsafelyUnwrapped
                // The target entries are `nil`, which holds nothing: overwritten without a release.
                for rank in 0..<count {
                    (target + rank).moveInitialize(from: source + Int(order[rank]), count: 1)
                }
                // Every staged payload has moved out: put placeholders back.
                source.initialize(repeating: nil, count: count)
            }
        }
        replaceRun(keys: &newKeys, owners: &newOwners, payloads: &newPayloads)
    }
}
