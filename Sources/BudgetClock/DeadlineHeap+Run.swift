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

    /// Releases the run's storage; every run entry must have left.
    package mutating func resetRun() {
        runKeys.removeAll()
        runOwners.removeAll()
        runPayloads.removeAll()
        runHead = 0
        runLive = 0
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
        if runLive == 0 { loading = true }
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
        newKeys.reserveCapacity(total)
        newOwners.reserveCapacity(total)
        newPayloads.reserveCapacity(total)
        var next = runHead
        let runEnd = runKeys.count
        for rank in 0..<order.count {
            let staged = order[rank]
            let key = sortedKeys[rank]
            let owner = stagedOwners[Int(staged)]
            while next < runEnd {
                let runOwner = runOwners[next]
                if runOwner == .max {
                    next += 1
                    continue
                }
                let runKey = runKeys[next]
                guard runKey < key || (runKey == key && sequences[Int(runOwner)] < sequences[Int(owner)]) else { break }
                positions[Int(runOwner)] = Self.runFlag + Int32(truncatingIfNeeded: newKeys.count)
                newKeys.append(runKey)
                newOwners.append(runOwner)
                newPayloads.append(runPayloads[next].take())
                next += 1
            }
            positions[Int(owner)] = Self.runFlag + Int32(truncatingIfNeeded: newKeys.count)
            newKeys.append(key)
            newOwners.append(owner)
            newPayloads.append(stagedPayloads[Int(staged)].take())
        }
        while next < runEnd {
            let runOwner = runOwners[next]
            if runOwner != .max {
                positions[Int(runOwner)] = Self.runFlag + Int32(truncatingIfNeeded: newKeys.count)
                newKeys.append(runKeys[next])
                newOwners.append(runOwner)
                newPayloads.append(runPayloads[next].take())
            }
            next += 1
        }
        replaceRun(keys: newKeys, owners: newOwners, payloads: newPayloads)
    }

    /// Staging, emptied, is released; the run becomes the given entries, all live.
    private mutating func replaceRun(keys: [Int64], owners: [UInt32], payloads: [Payload?]) {
        stagedKeys.removeAll()
        stagedOwners.removeAll()
        stagedPayloads.removeAll()
        runKeys = keys
        runOwners = owners
        runPayloads = payloads
        runHead = 0
        runLive = keys.count
    }

    /// The run is empty: staging, in `order`, becomes the run. Payloads move bitwise (no reference
    /// counting); the loops run on the arrays' storage without bounds checks.
    private mutating func moveStagingToRun(order: [UInt32], sortedKeys: [Int64]) {
        let count = order.count
        let flag = Self.runFlag
        var newOwners: [UInt32] = []
        var newPayloads: [Payload?] = []
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
            let source = staged.baseAddress.unsafelyUnwrapped
            newPayloads = [Payload?](unsafeUninitializedCapacity: count) { payloads, initialized in
                let target = payloads.baseAddress.unsafelyUnwrapped
                for rank in 0..<count {
                    (target + rank).moveInitialize(from: source + Int(order[rank]), count: 1)
                }
                // Every staged payload has moved out: put placeholders back before the array is released.
                source.initialize(repeating: nil, count: count)
                initialized = count
            }
        }
        replaceRun(keys: sortedKeys, owners: newOwners, payloads: newPayloads)
    }

    /// The indices of `keys` in `(key, sequences[owner])` order, and the keys in that order.
    ///
    /// A least-significant-digit radix sort on the keys (11-bit digits over the bits the keys'
    /// range needs, digits all keys share skipped), which is stable; then each run of equal keys is
    /// put in sequence order, so ties keep first-in first-out whatever order staging holds them in.
    package static func sortedOrder(keys: [Int64], owners: [UInt32], sequences: [UInt64]) -> (order: [UInt32], keys: [Int64]) {
        let count = keys.count
        var order = [UInt32](unsafeUninitializedCapacity: count) { order, initialized in
            for index in 0..<count { order[index] = UInt32(truncatingIfNeeded: index) }
            initialized = count
        }
        func bySequence(_ a: UInt32, _ b: UInt32) -> Bool {
            sequences[Int(owners[Int(a)])] < sequences[Int(owners[Int(b)])]
        }
        if count <= 64 {
            order.sort { a, b in keys[Int(a)] != keys[Int(b)] ? keys[Int(a)] < keys[Int(b)] : bySequence(a, b) }
            return (order, order.map { keys[Int($0)] })
        }
        var low = keys[0], high = keys[0]
        for key in keys {
            low = Swift.min(low, key)
            high = Swift.max(high, key)
        }
        let range = UInt64(bitPattern: high &- low)
        let bits = UInt64.bitWidth - range.leadingZeroBitCount
        let digitBits = 11, buckets = 1 << 11, mask = UInt64(buckets - 1)
        let passes = (bits + digitBits - 1) / digitBits
        // Offsets from the lowest key, as bit patterns in `Int64` storage, so the sorted offsets turn
        // back into keys in place.
        var histograms = [Int](repeating: 0, count: Swift.max(passes, 1) * buckets)
        var values = [Int64](unsafeUninitializedCapacity: count) { values, initialized in
            histograms.withUnsafeMutableBufferPointer { histograms in
                for index in 0..<count {
                    let value = UInt64(bitPattern: keys[index] &- low)
                    values[index] = Int64(bitPattern: value)
                    for pass in 0..<passes {
                        histograms[pass &* buckets &+ Int((value &>> UInt64(pass &* digitBits)) & mask)] &+= 1
                    }
                }
            }
            initialized = count
        }
        var spareValues = [Int64](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        var spareOrder = [UInt32](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        for pass in 0..<passes {
            let base = pass * buckets
            let shift = UInt64(pass * digitBits)
            // A digit every key shares orders nothing.
            if histograms[base + Int((UInt64(bitPattern: values[0]) &>> shift) & mask)] == count { continue }
            var offsets = [Int](repeating: 0, count: buckets)
            var total = 0
            for bucket in 0..<buckets {
                offsets[bucket] = total
                total += histograms[base + bucket]
            }
            values.withUnsafeBufferPointer { source in
                order.withUnsafeBufferPointer { sourceOrder in
                    spareValues.withUnsafeMutableBufferPointer { target in
                        spareOrder.withUnsafeMutableBufferPointer { targetOrder in
                            offsets.withUnsafeMutableBufferPointer { offsets in
                                for index in 0..<count {
                                    let value = source[index]
                                    let bucket = Int((UInt64(bitPattern: value) &>> shift) & mask)
                                    let place = offsets[bucket]
                                    offsets[bucket] = place &+ 1
                                    target[place] = value
                                    targetOrder[place] = sourceOrder[index]
                                }
                            }
                        }
                    }
                }
            }
            swap(&values, &spareValues)
            swap(&order, &spareOrder)
        }
        var start = 0
        while start < count {
            var end = start + 1
            while end < count && values[end] == values[start] { end += 1 }
            if end - start > 1 { order[start..<end].sort(by: bySequence) }
            start = end
        }
        values.withUnsafeMutableBufferPointer { values in
            for index in 0..<count { values[index] = values[index] &+ low }
        }
        return (order, values)
    }
}
