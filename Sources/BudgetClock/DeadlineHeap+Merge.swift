extension DeadlineHeap {
    /// Sets a trivial array's count to `count`: drops entries past it, or pads with zeros.
    static func resize<Element: FixedWidthInteger>(_ array: inout [Element], to count: Int) {
        if array.count > count {
            array.removeLast(array.count - count)
        } else if array.count < count {
            array.append(contentsOf: repeatElement(0, count: count - array.count))
        }
    }

    /// The merge of ``mergeStagingIntoRun()``: the run's live entries and the staged entries in
    /// `order` (with their keys `sortedKeys`) go into `newKeys`, `newOwners` and `newPayloads`, which
    /// hold at least as many entries as there are to write (every payload `nil`), and every moved
    /// slot records its new run index. Runs on the arrays' storage: no bounds checks, no appends,
    /// and payloads move bitwise (no reference counting), each source left `nil`.
    mutating func mergeRunWithStaging(
        order: [UInt32], sortedKeys: [Int64],
        into newKeys: inout [Int64], _ newOwners: inout [UInt32], _ newPayloads: inout [Payload?]
    ) {
        let runEnd = runKeys.count, flag = Self.runFlag, stagedCount = order.count
        var next = runHead
        var out = 0
        newKeys.withUnsafeMutableBufferPointer { newKeys in
        newOwners.withUnsafeMutableBufferPointer { newOwners in
        newPayloads.withUnsafeMutableBufferPointer { newPayloads in
        runKeys.withUnsafeBufferPointer { runKeys in
        runOwners.withUnsafeBufferPointer { runOwners in
        runPayloads.withUnsafeMutableBufferPointer { runPayloads in
        stagedOwners.withUnsafeBufferPointer { stagedOwners in
        stagedPayloads.withUnsafeMutableBufferPointer { stagedPayloads in
        positions.withUnsafeMutableBufferPointer { positions in
        sequences.withUnsafeBufferPointer { sequences in
        order.withUnsafeBufferPointer { order in
        sortedKeys.withUnsafeBufferPointer { sortedKeys in
            let target = newPayloads.baseAddress.unsafelyUnwrapped
            let runSource = runPayloads.baseAddress.unsafelyUnwrapped
            let stagedSource = stagedPayloads.baseAddress.unsafelyUnwrapped
            /// Writes entry `out`, moving its payload from `source` (which becomes `nil`).
            func emit(_ key: Int64, _ owner: UInt32, from source: UnsafeMutablePointer<Payload?>) {
                positions[Int(owner)] = flag &+ Int32(truncatingIfNeeded: out)
                newKeys[out] = key
                newOwners[out] = owner
                // The target holds `nil`, which owns nothing: overwritten without a release.
                (target + out).moveInitialize(from: source, count: 1)
                source.initialize(to: nil)
                out &+= 1
            }
            for rank in 0..<stagedCount {
                let staged = Int(order[rank])
                let key = sortedKeys[rank]
                let owner = stagedOwners[staged]
                while next < runEnd {
                    let runOwner = runOwners[next]
                    if runOwner != .max {
                        let runKey = runKeys[next]
                        guard runKey < key || (runKey == key && sequences[Int(runOwner)] < sequences[Int(owner)]) else { break }
                        emit(runKey, runOwner, from: runSource + next)
                    }
                    next &+= 1
                }
                emit(key, owner, from: stagedSource + staged)
            }
            while next < runEnd {
                let runOwner = runOwners[next]
                if runOwner != .max { emit(runKeys[next], runOwner, from: runSource + next) }
                next &+= 1
            }
        }}}}}}}}}}}}
        precondition(out == newKeys.count, "DeadlineHeap: the merge wrote \(out) of \(newKeys.count) run entries")
    }
}
