extension DeadlineHeap {
    /// Traps if the heap's internal structure is inconsistent. For tests; O(n).
    ///
    /// Checks that no entry precedes its parent, that each live slot records the heap index of the
    /// entry that names it and holds a payload, that the parallel arrays agree in length, and that
    /// the free list holds exactly the slots no heap index names, each marked free and empty.
    func checkInvariants() {
        precondition(keys.count == owners.count, "keys and owners differ in length")
        precondition(slots.count == values.count, "slots and values differ in length")
        var named = [Bool](repeating: false, count: slots.count)
        for index in keys.indices {
            let slot = Int(owners[index])
            precondition(slot < slots.count, "heap index \(index) names slot \(slot) past the end")
            precondition(!named[slot], "slot \(slot) is named by two heap indices")
            named[slot] = true
            precondition(values[slot].payload != nil, "heap index \(index) names empty slot \(slot)")
            precondition(Int(slots[slot].position) == index,
                         "slot \(slot) records position \(slots[slot].position), entry is at \(index)")
            if index > 0 {
                let parent = (index - 1) / 4
                let ordered = keys[parent] < keys[index]
                    || (keys[parent] == keys[index]
                        && values[Int(owners[parent])].sequence < values[slot].sequence)
                precondition(ordered, "heap index \(index) precedes its parent")
            }
        }
        var free = 0
        var cursor = freeHead
        while cursor >= 0 {
            let slot = Int(cursor)
            precondition(slot < slots.count, "free list points past the end")
            precondition(!named[slot], "slot \(slot) is both free and named by a heap index")
            precondition(slots[slot].position < 0, "free slot \(slot) is not marked free")
            precondition(values[slot].payload == nil, "free slot \(slot) still holds a payload")
            named[slot] = true
            free += 1
            precondition(free <= slots.count, "free list has a cycle")
            cursor = -2 - slots[slot].position
        }
        precondition(keys.count + free == slots.count,
                     "\(slots.count - keys.count - free) slots are neither live nor free")
    }
}
