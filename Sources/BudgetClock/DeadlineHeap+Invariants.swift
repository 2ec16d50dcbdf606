extension DeadlineHeap {
    /// Traps if the structure is inconsistent. For tests; O(n).
    ///
    /// Checks that no heap entry precedes its parent; that every heap key is at most `horizon` and
    /// every staged key later; that staging is empty unless the heap is not or the run's head is at
    /// most `horizon`; that every entry has a
    /// payload and its slot records where it is (heap index, or `stagedFlag` plus staged index);
    /// that parallel arrays agree in length; and that the free list holds exactly the other
    /// slots, each marked free; that the run's live entries are in `(deadline, sequence)` order from a
    /// live head, with `runLive` of them, and the structure loads only without a run.
    package func checkInvariants() {
        precondition(keys.count == owners.count, "keys and owners differ in length")
        precondition(stagedKeys.count == stagedOwners.count, "staged keys and owners differ in length")
        precondition(payloads.count == keys.count, "payloads and keys differ in length")
        precondition(stagedPayloads.count >= stagedKeys.count, "fewer staged payloads than keys")
        precondition(stagedPayloads[stagedKeys.count...].allSatisfy { $0 == nil }, "a payload past the staged keys")
        precondition(stagedKeys.isEmpty || !keys.isEmpty || (runLive > 0 && runKeys[runHead] <= horizon),
                     "entries are staged while neither the heap's root nor the run's head bounds them")
        precondition(positions.count == generations.count && positions.count == sequences.count,
                     "slot arrays differ in length")
        var named = [Bool](repeating: false, count: positions.count)
        func claim(_ owner: UInt32, _ payload: Payload?, at position: Int, _ what: String) {
            let slot = Int(owner)
            precondition(slot < positions.count, "\(what) names slot \(slot) past the end")
            precondition(!named[slot], "slot \(slot) is named twice")
            named[slot] = true
            precondition(payload != nil, "\(what) has no payload")
            precondition(Int(positions[slot]) == position,
                         "slot \(slot) records position \(positions[slot]), \(what) is at \(position)")
        }
        for index in keys.indices {
            claim(owners[index], payloads[index], at: index, "heap index \(index)")
            precondition(keys[index] <= horizon, "heap index \(index) is after the horizon")
            if index > 0 {
                let parent = (index - 1) / 4
                let ordered = keys[parent] < keys[index]
                    || (keys[parent] == keys[index]
                        && sequences[Int(owners[parent])] < sequences[Int(owners[index])])
                precondition(ordered, "heap index \(index) precedes its parent")
            }
        }
        for index in stagedKeys.indices {
            claim(stagedOwners[index], stagedPayloads[index], at: Int(Self.stagedFlag) + index, "staged index \(index)")
            precondition(stagedKeys[index] > horizon, "staged index \(index) is not after the horizon")
        }
        precondition(runKeys.count == runOwners.count && runPayloads.count >= runKeys.count, "run arrays differ in length")
        precondition(runPayloads[runKeys.count...].allSatisfy { $0 == nil } && sparePayloads.allSatisfy { $0 == nil },
                     "a payload past the run or among the spares")
        precondition(spareKeys.isEmpty && spareOwners.isEmpty, "spare keys or owners not empty")
        precondition(runHead == runKeys.count ? runLive == 0 : runOwners[runHead] != .max, "the run's head is a tombstone")
        precondition(!loading || runLive == 0, "loading with a run")
        var live = 0
        var previous: (key: Int64, sequence: UInt64)?
        for index in runHead..<runKeys.count where runOwners[index] != .max {
            claim(runOwners[index], runPayloads[index], at: Int(Self.runFlag) + index, "run index \(index)")
            let entry = (runKeys[index], sequences[Int(runOwners[index])])
            if let previous { precondition(previous < entry, "run index \(index) precedes an earlier run entry") }
            previous = entry
            live += 1
        }
        precondition(live == runLive, "\(live) live run entries, runLive says \(runLive)")
        var free = 0
        var cursor = freeHead
        while cursor >= 0 {
            let slot = Int(cursor)
            precondition(slot < positions.count, "free list points past the end")
            precondition(!named[slot], "slot \(slot) is both free and live")
            precondition(positions[slot] < 0, "free slot \(slot) is not marked free")
            named[slot] = true
            free += 1
            precondition(free <= positions.count, "free list has a cycle")
            cursor = -2 - positions[slot]
        }
        precondition(count + free == positions.count, "\(positions.count - count - free) slots are neither live nor free")
    }
}
