extension DeadlineHeap {
    /// The indices of `keys` in `(key, sequences[owner])` order, and the keys in that order.
    ///
    /// A least-significant-digit radix sort on the keys (11-bit digits), which is stable. Only the
    /// high digits are sorted when the keys' range is much wider than their number (the low bits
    /// dropped leave about 16 possible values per key), and an insertion pass then finishes the
    /// order by full key and sequence, which moves few entries; if it would move too many (keys
    /// clustered within the dropped bits), every digit is sorted instead. On BudgetBench's hold
    /// workload at 100,000 (keys over two hours in nanoseconds: 43 bits) this sorts two digits
    /// instead of four. Sorting every digit, each run of equal keys is then put in sequence order,
    /// so ties keep first-in first-out whatever order staging holds them in.
    package static func sortedOrder(keys: [Int64], owners: [UInt32], sequences: [UInt64]) -> (order: [UInt32], keys: [Int64]) {
        if let sorted = sortedOrder(keys: keys, owners: owners, sequences: sequences, coarse: true) { return sorted }
        return sortedOrder(keys: keys, owners: owners, sequences: sequences, coarse: false).unsafelyUnwrapped
    }

    /// ``sortedOrder(keys:owners:sequences:)`` on the high digits only (`coarse`, `nil` if the
    /// insertion pass would move too many entries), or on every digit.
    static func sortedOrder(
        keys: [Int64], owners: [UInt32], sequences: [UInt64], coarse: Bool
    ) -> (order: [UInt32], keys: [Int64])? {
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
        // Keep about 16 possible values per key: `count.bitWidth - leadingZeros` bits plus 4.
        let kept = coarse ? Swift.min(bits, Int.bitWidth - count.leadingZeroBitCount + 4) : bits
        let passes = (kept + digitBits - 1) / digitBits
        let dropped = Swift.max(0, bits - passes * digitBits)
        if coarse && dropped == 0 { return nil }
        // Offsets from the lowest key, as bit patterns in `Int64` storage, so the sorted offsets turn
        // back into keys in place.
        var histograms = [Int](repeating: 0, count: Swift.max(passes, 1) * buckets)
        var values = [Int64](unsafeUninitializedCapacity: count) { values, initialized in
            histograms.withUnsafeMutableBufferPointer { histograms in
                for index in 0..<count {
                    let value = UInt64(bitPattern: keys[index] &- low)
                    values[index] = Int64(bitPattern: value)
                    for pass in 0..<passes {
                        histograms[pass &* buckets &+ Int((value &>> UInt64(dropped &+ pass &* digitBits)) & mask)] &+= 1
                    }
                }
            }
            initialized = count
        }
        var spareValues = [Int64](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        var spareOrder = [UInt32](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        for pass in 0..<passes {
            let base = pass * buckets
            let shift = UInt64(dropped + pass * digitBits)
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
        if coarse {
            guard finishByInsertion(values: &values, order: &order, owners: owners, sequences: sequences) else { return nil }
        } else {
            putTiesInSequenceOrder(values: values, order: &order, by: bySequence)
        }
        values.withUnsafeMutableBufferPointer { values in
            for index in 0..<count { values[index] = values[index] &+ low }
        }
        return (order, values)
    }

    /// Puts each run of equal `values` in sequence order.
    private static func putTiesInSequenceOrder(values: [Int64], order: inout [UInt32], by bySequence: (UInt32, UInt32) -> Bool) {
        let count = values.count
        var start = 0
        while start < count {
            var end = start + 1
            while end < count && values[end] == values[start] { end += 1 }
            if end - start > 1 { order[start..<end].sort(by: bySequence) }
            start = end
        }
    }

    /// Insertion-sorts `values` (with `order`) by value, then sequence; `false`, with the arrays
    /// partly sorted, once it has moved more than twice as many entries as there are plus 64.
    private static func finishByInsertion(
        values: inout [Int64], order: inout [UInt32], owners: [UInt32], sequences: [UInt64]
    ) -> Bool {
        var budget = 2 * values.count + 64
        return values.withUnsafeMutableBufferPointer { values in
            order.withUnsafeMutableBufferPointer { order in
                func precedes(_ value: Int64, _ entry: UInt32, _ other: Int) -> Bool {
                    if value != values[other] { return value < values[other] }
                    return sequences[Int(owners[Int(entry)])] < sequences[Int(owners[Int(order[other])])]
                }
                for index in 1..<Swift.max(1, values.count) {
                    let value = values[index], entry = order[index]
                    var hole = index
                    while hole > 0 && precedes(value, entry, hole &- 1) {
                        values[hole] = values[hole &- 1]
                        order[hole] = order[hole &- 1]
                        hole &-= 1
                        budget &-= 1
                    }
                    values[hole] = value
                    order[hole] = entry
                    if budget < 0 { return false }
                }
                return true
            }
        }
    }
}
