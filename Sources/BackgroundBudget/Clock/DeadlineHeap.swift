/// A min-queue of payloads ordered by deadline, first-in first-out among equal deadlines, with
/// O(log n) cancellation through small value handles.
///
/// This is the timer store under ``VirtualClock`` (and, later, the real-time clock). It is a 4-ary
/// implicit heap kept as two parallel arrays, the deadlines (`keys`, 8 bytes each, so a node's four
/// children share half a cache line) and the slot each heap position belongs to (`owners`), beside
/// two slot arrays: `slots` holds each entry's current heap position and a generation counter (the
/// only slot memory the sift loops write), `values` holds each payload and its insertion sequence
/// number. A ``Handle`` is a slot index plus the generation it was issued with: when an entry leaves
/// the heap (popped or removed) its slot's generation is bumped and the slot goes on a free list,
/// so an old handle stops matching, even after the slot is reused. No object is allocated per entry.
///
/// Order is by `(deadline, sequence)` where `sequence` counts insertions, so entries with the same
/// deadline pop in the order they were inserted. The sequence number is read only to break a tie
/// between equal deadlines.
///
/// ```swift
/// var heap = DeadlineHeap<String>()
/// let a = heap.insert(deadline: 20, payload: "a")
/// heap.insert(deadline: 10, payload: "b")
/// heap.insert(deadline: 10, payload: "c")
/// heap.remove(a)                      // "a"
/// heap.popFirst(ifDueBy: 15)          // (10, "b"): first in among equal deadlines
/// heap.popFirst(ifDueBy: 15)          // (10, "c")
/// heap.popFirst(ifDueBy: 15)          // nil
/// heap.remove(a)                      // nil: stale handle
/// ```
///
/// Storage per entry is 8 bytes of key, 4 of owner, 8 of position and generation, and the payload
/// with its 8-byte sequence number (24 bytes for a closure): 44 bytes for closures, plus the arrays'
/// spare capacity. The slot arrays never shrink, because a slot's generation must outlive every
/// handle issued for it. A generation is 32 bits: a handle kept while its slot is reused 2³² times
/// would match again; nothing in this package keeps handles that long.
///
/// Popping is bound by memory latency once the heap outgrows the caches: each pop walks one path
/// from the root to a leaf. The 4-ary shape halves the depth of a binary heap; parallel arrays
/// keep the keys the walk compares dense.
struct DeadlineHeap<Payload> {
    /// Identifies one inserted entry; stops matching once that entry has left the heap.
    struct Handle: Hashable, Sendable {
        /// Index into the slot arrays.
        let slot: UInt32
        /// The slot's generation when the entry was inserted.
        let generation: UInt32
    }

    /// Where a slot's entry sits in the heap: 8 bytes, in an array of its own so the writes the
    /// sift loops make land in dense memory rather than beside the payloads.
    struct Slot {
        /// The entry's heap index while live; `-2 - next` while free, where `next` is the next free
        /// slot or -1. Negative exactly when the slot is free.
        var position: Int32
        /// Bumped each time the slot is freed.
        var generation: UInt32
    }

    /// A slot's contents.
    struct Value {
        /// The entry's payload; `nil` while the slot is free.
        var payload: Payload?
        /// Insertion order, the tie-breaker among equal deadlines.
        var sequence: UInt64
    }

    /// Heap order deadlines: the children of index `i` are `4i+1 ... 4i+4`.
    private(set) var keys: [Int64] = []
    /// The slot of the entry at each heap index, parallel to `keys`.
    private(set) var owners: [UInt32] = []
    /// Positions and generations, indexed by slot.
    private(set) var slots: [Slot] = []
    /// Payloads and sequence numbers, indexed by slot.
    private(set) var values: [Value] = []
    /// Head of the free-slot list, -1 when empty.
    private(set) var freeHead: Int32 = -1
    private var nextSequence: UInt64 = 0

    /// Creates an empty heap.
    init() {}

    /// The number of entries in the heap.
    /// - Complexity: O(1).
    var count: Int { keys.count }

    /// Whether the heap has no entries.
    /// - Complexity: O(1).
    var isEmpty: Bool { keys.isEmpty }

    /// The earliest deadline in the heap, or `nil` when it is empty.
    /// - Complexity: O(1).
    var peekDeadline: Int64? { keys.first }

    /// Bytes held by the heap's arrays, counting spare capacity but not what payloads point to.
    /// - Complexity: O(1).
    var allocatedByteCount: Int {
        keys.capacity * MemoryLayout<Int64>.stride + owners.capacity * MemoryLayout<UInt32>.stride
            + slots.capacity * MemoryLayout<Slot>.stride + values.capacity * MemoryLayout<Value>.stride
    }

    /// Adds a payload due at a deadline.
    /// - Parameters:
    ///   - deadline: When the payload is due, in nanoseconds.
    ///   - payload: The value to store.
    /// - Returns: A handle that removes this entry until it leaves the heap.
    /// - Complexity: O(log n), amortised over the arrays' growth.
    @discardableResult
    mutating func insert(deadline: Int64, payload: Payload) -> Handle {
        let sequence = nextSequence
        nextSequence &+= 1
        let slot: Int
        if freeHead >= 0 {
            slot = Int(freeHead)
            freeHead = -2 - slots[slot].position
            values[slot] = Value(payload: payload, sequence: sequence)
        } else {
            slot = slots.count
            precondition(slot < Int(Int32.max), "DeadlineHeap is full")
            slots.append(Slot(position: 0, generation: 0))
            values.append(Value(payload: payload, sequence: sequence))
        }
        let owner = UInt32(truncatingIfNeeded: slot)
        keys.append(deadline)
        owners.append(owner)
        withBuffers { heap in heap.siftUp(deadline, owner, from: heap.keys.count - 1, notAbove: 0) }
        return Handle(slot: owner, generation: slots[slot].generation)
    }

    /// Whether a handle still names an entry in the heap.
    /// - Complexity: O(1).
    func contains(_ handle: Handle) -> Bool {
        let slot = Int(handle.slot)
        return slot < slots.count && slots[slot].generation == handle.generation
            && slots[slot].position >= 0
    }

    /// The deadline of the entry a handle names, or `nil` for a stale handle.
    /// - Complexity: O(1).
    func deadline(of handle: Handle) -> Int64? {
        guard contains(handle) else { return nil }
        return keys[Int(slots[Int(handle.slot)].position)]
    }

    /// Removes the entry a handle names.
    /// - Parameter handle: A handle returned by ``insert(deadline:payload:)``.
    /// - Returns: The entry's payload, or `nil` if the entry already left the heap (popped, removed,
    ///   or its slot reused).
    /// - Complexity: O(log n).
    @discardableResult
    mutating func remove(_ handle: Handle) -> Payload? {
        guard contains(handle) else { return nil }
        return removeEntry(at: Int(slots[Int(handle.slot)].position)).payload
    }

    /// Removes and returns the earliest entry if its deadline is at or before a limit.
    /// - Parameter limit: The latest deadline to accept, in nanoseconds.
    /// - Returns: The earliest entry's deadline and payload, or `nil` if the heap is empty or its
    ///   earliest deadline is after `limit`.
    /// - Complexity: O(log n).
    mutating func popFirst(ifDueBy limit: Int64) -> (deadline: Int64, payload: Payload)? {
        guard let first = keys.first, first <= limit else { return nil }
        return removeEntry(at: 0)
    }

    /// Removes every entry; handles issued so far all become stale.
    /// - Complexity: O(n).
    mutating func removeAll() {
        for owner in owners {
            values[Int(owner)].payload = nil
            freeSlot(Int(owner))
        }
        keys.removeAll()
        owners.removeAll()
    }

    // MARK: - Internals

    /// Takes the entry at heap index `index` out, frees its slot, and returns its contents.
    private mutating func removeEntry(at index: Int) -> (deadline: Int64, payload: Payload) {
        let deadline = keys[index]
        let slot = Int(owners[index])
        guard let payload = values[slot].payload.take() else {
            fatalError("DeadlineHeap: heap index \(index) belongs to free slot \(slot)")
        }
        freeSlot(slot)
        let lastKey = keys.removeLast()
        let lastOwner = owners.removeLast()
        if index < keys.count {
            withBuffers { heap in
                let parent = (index &- 1) >> 2
                if index > 0 && heap.precedes(lastKey, lastOwner, heap.keys[parent], heap.owners[parent]) {
                    heap.siftUp(lastKey, lastOwner, from: index, notAbove: 0)
                } else {
                    heap.fillHole(at: index, with: lastKey, lastOwner)
                }
            }
        }
        return (deadline, payload)
    }

    /// Puts a slot whose payload has been taken on the free list.
    private mutating func freeSlot(_ slot: Int) {
        slots[slot].generation &+= 1
        slots[slot].position = -2 - freeHead
        freeHead = Int32(truncatingIfNeeded: slot)
    }

    /// Runs `body` on the arrays' storage, without bounds checks in release builds.
    private mutating func withBuffers(_ body: (Buffers) -> Void) {
        keys.withUnsafeMutableBufferPointer { keys in
            owners.withUnsafeMutableBufferPointer { owners in
                slots.withUnsafeMutableBufferPointer { slots in
                    values.withUnsafeBufferPointer { values in
                        body(Buffers(keys: keys, owners: owners, slots: slots, values: values))
                    }
                }
            }
        }
    }

    /// The heap's storage during one sift; valid only inside ``withBuffers(_:)``.
    private struct Buffers {
        let keys: UnsafeMutableBufferPointer<Int64>
        let owners: UnsafeMutableBufferPointer<UInt32>
        let slots: UnsafeMutableBufferPointer<Slot>
        let values: UnsafeBufferPointer<Value>

        /// Whether entry `a` comes before entry `b`: earlier deadline, then earlier insertion.
        @inline(__always)
        func precedes(_ keyA: Int64, _ ownerA: UInt32, _ keyB: Int64, _ ownerB: UInt32) -> Bool {
            if keyA != keyB { return keyA < keyB }
            return values[Int(ownerA)].sequence < values[Int(ownerB)].sequence
        }

        /// Writes an entry at a heap index and records the index in its slot.
        @inline(__always)
        func place(_ key: Int64, _ owner: UInt32, at index: Int) {
            keys[index] = key
            owners[index] = owner
            slots[Int(owner)].position = Int32(truncatingIfNeeded: index)
        }

        /// Puts an entry in the hole at `index`, moving it towards the root past every parent it
        /// precedes, but not above index `top`.
        func siftUp(_ key: Int64, _ owner: UInt32, from index: Int, notAbove top: Int) {
            var hole = index
            while hole > top {
                let parent = (hole &- 1) >> 2
                let parentKey = keys[parent]
                let parentOwner = owners[parent]
                guard precedes(key, owner, parentKey, parentOwner) else { break }
                place(parentKey, parentOwner, at: hole)
                hole = parent
            }
            place(key, owner, at: hole)
        }

        /// Fills the hole at `index` with an entry that precedes no ancestor of the hole.
        ///
        /// Floyd's bottom-up method: the hole sinks to a leaf, each time taking the earliest
        /// child, and then the entry climbs back from there. The filler is usually a late deadline
        /// from the bottom row, so it rarely climbs, and the way down skips comparing against it.
        func fillHole(at index: Int, with key: Int64, _ owner: UInt32) {
            let count = keys.count
            var hole = index
            while true {
                let first = 4 &* hole &+ 1
                if first >= count { break }
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
                place(bestKey, owners[best], at: hole)
                hole = best
            }
            siftUp(key, owner, from: hole, notAbove: index)
        }
    }
}
