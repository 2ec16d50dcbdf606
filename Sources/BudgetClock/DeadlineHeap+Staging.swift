extension DeadlineHeap {
    /// The default ``heapTarget``: 256 KiB of keys, small enough to stay in a core's cache while
    /// the heap drains. (Against 4 Ki to 64 Ki, BudgetBench's hold workload at 100,000 pending was
    /// the same within noise, and at 1,000,000 fastest with 16 Ki to 32 Ki.)
    package static var defaultHeapTarget: Int { 1 << 15 }

    /// Added to a staged entry's index to form its slot's `position`, so one field says where the
    /// entry is. Heap and staged indices both stay below it.
    package static var stagedFlag: Int32 { 1 << 29 }

    /// Appends an entry, whose deadline is after `horizon`, to staging.
    package mutating func stage(_ key: Int64, _ owner: UInt32, _ payload: consuming Payload?) {
        let index = stagedKeys.count
        positions[Int(owner)] = Self.stagedFlag + Int32(truncatingIfNeeded: index)
        stagedKeys.append(key)
        stagedOwners.append(owner)
        if index < stagedPayloads.count {
            stagedPayloads[index] = payload
        } else {
            stagedPayloads.append(payload)
        }
    }

    /// Removes the staged entry at `index`, moving the last staged entry into its place.
    /// - Returns: The removed entry's payload.
    package mutating func unstage(at index: Int) -> Payload? {
        let slot = Int(stagedOwners[index])
        let payload = stagedPayloads[index].take()
        freeSlot(slot)
        let lastKey = stagedKeys.removeLast()
        let lastOwner = stagedOwners.removeLast()
        let last = stagedKeys.count
        if index < last {
            stagedKeys[index] = lastKey
            stagedOwners[index] = lastOwner
            stagedPayloads.swapAt(index, last)   // the taken `nil` goes past the end
            positions[Int(lastOwner)] = Self.stagedFlag + Int32(truncatingIfNeeded: index)
        }
        return payload
    }

    /// Moves the heap's latest entries out to staging once the heap has grown to `spillAt`.
    ///
    /// Picks a new, earlier `horizon` from a sample of heap keys, stages every entry after it and
    /// rebuilds the heap. If no entry is after the pick (many equal deadlines), nothing moves and
    /// the next attempt waits until the heap has doubled.
    package mutating func spill() {
        let count = keys.count
        // Heap order puts later keys towards the end of the array, so a low rank of a uniform
        // sample keeps roughly half.
        let limit = Self.sampledKey(of: keys, rank: 16)
        guard keys.contains(where: { $0 > limit }) else {
            spillAt = count * 2
            return
        }
        var kept = 0
        for index in 0..<count {
            let key = keys[index]
            let owner = owners[index]
            if key <= limit {
                if kept != index {
                    keys[kept] = key
                    owners[kept] = owner
                    payloads.swapAt(kept, index)
                }
                kept += 1
            } else {
                stage(key, owner, payloads[index].take())
            }
        }
        keys.removeLast(count - kept)
        owners.removeLast(count - kept)
        payloads.removeLast(count - kept)
        horizon = limit
        heapify()
        spillAt = loading ? kept + Swift.min(heapTarget, Self.loadBatch) : Swift.max(kept * 2, kept + heapTarget)
    }

    /// Empties staging into the run once the heap is empty and the run's head is past `horizon`:
    /// sorts the staged entries and merges them with the run's live entries (see
    /// ``mergeStagingIntoRun()``). The new `horizon` is the deadline a quarter of the way into the
    /// run, so the next merge waits until that quarter has been popped: each entry is moved by a
    /// bounded number of merges while it waits.
    package mutating func refill() {
        precondition(keys.isEmpty, "DeadlineHeap: refill with a non-empty heap")
        mergeStagingIntoRun()
        loading = false
        horizon = runKeys[Swift.min(runHead + Swift.max(1, runLive / 4), runKeys.count - 1)]
        spillAt = heapTarget * 2
    }

    /// Sorts staging into the run now, rather than at the pop that next needs it.
    ///
    /// For an owner with time to spare before its next deadline: after a bulk of inserts, the pop
    /// that empties the heap would otherwise sort all of them at once (about 3 ms for a hundred
    /// thousand on a 2-core Linux VM), late for everything due meanwhile. The heap and `horizon` are
    /// unchanged, so every heap key is still at most `horizon`; staging ends empty, and the structure
    /// stops loading (a run exists). O(s + r) for s staged and r run entries, plus the ties' sorts.
    package mutating func mergeStagingAhead() {
        guard !stagedKeys.isEmpty else { return }
        mergeStagingIntoRun()
        loading = false
        spillAt = Swift.max(keys.count * 2, keys.count + heapTarget)
    }

    /// Restores heap order over the heap arrays in O(n) and records every entry's position.
    package mutating func heapify() {
        if keys.count > 1 {
            withBuffers { heap in
                var index = (heap.keys.count - 2) >> 2
                while index >= 0 {
                    let payload = heap.takeHole(at: index)
                    heap.fillHole(at: index, with: heap.keys[index], heap.owners[index], payload)
                    index -= 1
                }
            }
        }
        for index in owners.indices {
            positions[Int(owners[index])] = Int32(truncatingIfNeeded: index)
        }
    }

    /// The key of a given rank among 64 keys read at pseudo-random indices of `keys`: a cheap
    /// quantile estimate that periodic orderings of `keys` cannot skew. The indices come from a
    /// generator seeded with the count, so the same operations always pick the same key.
    package static func sampledKey(of keys: [Int64], rank: Int) -> Int64 {
        let sampleCount = 64
        var random = SplitMix64(seed: UInt64(keys.count))
        var sample = (0..<sampleCount).map { _ in keys[Int(random.next(below: UInt64(keys.count)))] }
        sample.sort()
        return sample[Swift.min(rank, sampleCount - 1)]
    }
}
