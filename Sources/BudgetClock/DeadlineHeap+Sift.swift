extension DeadlineHeap {
    /// Runs `body` on the heap arrays' storage, without bounds checks in release builds.
    ///
    /// `body` may leave one payload position uninitialised at a time (the hole that sift loops
    /// move entries through) but must fill it before returning.
    package mutating func withBuffers<Result>(_ body: (Buffers) -> Result) -> Result {
        keys.withUnsafeMutableBufferPointer { keys in
            owners.withUnsafeMutableBufferPointer { owners in
                payloads.withUnsafeMutableBufferPointer { payloads in
                    positions.withUnsafeMutableBufferPointer { positions in
                        sequences.withUnsafeMutableBufferPointer { sequences in
                            body(Buffers(keys: keys, owners: owners, payloads: payloads,
                                         positions: positions, sequences: UnsafeBufferPointer(sequences)))
                        }
                    }
                }
            }
        }
    }

    /// The heap's storage during one sift; valid only inside ``withBuffers(_:)``.
    package struct Buffers {
        let keys: UnsafeMutableBufferPointer<Int64>
        let owners: UnsafeMutableBufferPointer<UInt32>
        let payloads: UnsafeMutableBufferPointer<Payload?>
        let positions: UnsafeMutableBufferPointer<Int32>
        let sequences: UnsafeBufferPointer<UInt64>

        /// Moves the payload out of heap index `index`, which becomes the hole.
        func takeHole(at index: Int) -> Payload? {
            precondition(index < payloads.count)
            return (payloads.baseAddress.unsafelyUnwrapped + index).move()
        }

        /// Destroys the payload at heap index `index` (a placeholder), which becomes the hole.
        func clearHole(at index: Int) {
            precondition(index < payloads.count)
            (payloads.baseAddress.unsafelyUnwrapped + index).deinitialize(count: 1)
        }

        /// Whether entry `a` comes before entry `b`: earlier deadline, then earlier insertion.
        @inline(__always)
        func precedes(_ keyA: Int64, _ ownerA: UInt32, _ keyB: Int64, _ ownerB: UInt32) -> Bool {
            if keyA != keyB { return keyA < keyB }
            return sequences[Int(ownerA)] < sequences[Int(ownerB)]
        }

        /// Moves the entry at `source` into the hole at `hole`; `source` becomes the hole. The
        /// payload moves bitwise, with no reference counting.
        @inline(__always)
        func move(from source: Int, to hole: Int) {
            keys[hole] = keys[source]
            let owner = owners[source]
            owners[hole] = owner
            let base = payloads.baseAddress.unsafelyUnwrapped
            (base + hole).moveInitialize(from: base + source, count: 1)
            positions[Int(owner)] = Int32(truncatingIfNeeded: hole)
        }

        /// Fills the hole at `hole` with an entry and records its position.
        @inline(__always)
        func fill(_ hole: Int, _ key: Int64, _ owner: UInt32, _ payload: consuming Payload?) {
            keys[hole] = key
            owners[hole] = owner
            (payloads.baseAddress.unsafelyUnwrapped + hole).initialize(to: payload)
            positions[Int(owner)] = Int32(truncatingIfNeeded: hole)
        }

        /// Fills the hole at `index` with an entry, first moving it towards the root past every
        /// parent it precedes, but not above index `top`.
        func siftUp(
            _ key: Int64, _ owner: UInt32, _ payload: consuming Payload?, from index: Int, notAbove top: Int
        ) {
            var hole = index
            while hole > top {
                let parent = (hole &- 1) >> 2
                guard precedes(key, owner, keys[parent], owners[parent]) else { break }
                move(from: parent, to: hole)
                hole = parent
            }
            fill(hole, key, owner, payload)
        }

        /// Fills the hole at `index` with an entry that precedes no ancestor of the hole, where the
        /// subtrees below the hole are in heap order.
        ///
        /// Floyd's bottom-up method: the hole sinks to a leaf, each time taking the earliest
        /// child, and then the entry climbs back from there. The filler is usually a late deadline
        /// from the bottom row, so it rarely climbs, and the way down skips comparing against it.
        func fillHole(at index: Int, with key: Int64, _ owner: UInt32, _ payload: consuming Payload?) {
            let count = keys.count
            var hole = index
            while true {
                let first = 4 &* hole &+ 1
                if first >= count { break }
                if first &+ 4 <= count {
                    // A full node: pick the earliest child without branches the predictor would miss;
                    // only a tie for the earliest key takes the careful path, which reads sequences.
                    let key0 = keys[first], key1 = keys[first &+ 1], key2 = keys[first &+ 2], key3 = keys[first &+ 3]
                    let low01 = key1 < key0 ? 1 : 0, min01 = Swift.min(key0, key1)
                    let low23 = key3 < key2 ? 3 : 2, min23 = Swift.min(key2, key3)
                    let earliest = Swift.min(min01, min23)
                    let ties = (key0 == earliest ? 1 : 0) &+ (key1 == earliest ? 1 : 0)
                        &+ (key2 == earliest ? 1 : 0) &+ (key3 == earliest ? 1 : 0)
                    if ties == 1 {
                        let best = first &+ (min23 < min01 ? low23 : low01)
                        move(from: best, to: hole)
                        hole = best
                        continue
                    }
                }
                var best = first
                var bestKey = keys[first]
                var child = first &+ 1
                let end = Swift.min(first &+ 4, count)
                while child < end {
                    let childKey = keys[child]
                    if childKey < bestKey
                        || (childKey == bestKey && precedes(childKey, owners[child], bestKey, owners[best])) {
                        best = child
                        bestKey = childKey
                    }
                    child &+= 1
                }
                move(from: best, to: hole)
                hole = best
            }
            siftUp(key, owner, payload, from: hole, notAbove: index)
        }
    }
}
