/// A min-queue of payloads ordered by deadline, first-in first-out among equal deadlines, with
/// O(log n) (amortised) cancellation through small value handles.
///
/// This is the timer store under ``VirtualClock`` (and, later, the real-time clock).
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
/// ## Layout
/// The ordered part is a 4-ary implicit heap kept as three parallel arrays: deadlines (`keys`,
/// 8 bytes each, so a node's four children share half a cache line), the slot each entry belongs
/// to (`owners`) and the payloads, which move with their keys so a pop finds its payload in memory
/// it has just touched. Moves along a sift path are bitwise (the moving hole is uninitialised), so
/// they cost no reference counting. Three slot arrays hold, per entry, its current position, a
/// generation counter and its insertion sequence number; the sift loops write only positions.
///
/// A ``Handle`` is a slot index plus the generation it was issued with. When an entry leaves (popped
/// or removed) its slot is marked free and goes on a free list; when the slot is reused its
/// generation is bumped. So an old handle stops matching once its entry has left, even after the
/// slot is reused. No object is allocated per entry.
///
/// Order is by `(deadline, sequence)` where `sequence` counts insertions, so entries with the same
/// deadline pop in the order they were inserted; the sequence is read only to break a tie.
///
/// ## Staging and the sorted run
/// A heap of a million entries no longer fits in cache, and each pop then waits on several memory
/// loads along its path. So the heap holds only entries due at or before `horizon`; later entries
/// are appended, unordered, to staging arrays (an O(1) insert and an O(1) cancel). When an insert
/// grows the heap to `spillAt`, its latest entries move out to staging and `horizon` comes earlier.
/// When the heap is empty and the run's head is past `horizon` (or there is no run) while entries
/// are staged, staging is sorted at once (a radix sort on the deadlines, ties put back in insertion
/// order) and merged into the *run*: an array sorted by `(deadline, sequence)`, read from a cursor,
/// so each pop from it is O(1) and touches memory in order. Cancelling a run entry leaves a tombstone
/// the cursor skips. After a merge, `horizon` is the deadline a quarter of the way into the run: new
/// entries due before it go to the heap, later ones are appended to staging, and the next merge
/// comes when the cursor passes it, so each entry is moved a bounded number of times.
/// An owner with time to spare may sort staging into the run before a pop needs it
/// (``mergeStagingAhead()``), so that no pop pays for sorting a bulk of inserts. Each such call moves
/// every run entry once more: an owner that calls it only when staging holds at least half as many
/// entries as the run (as the real-time clock does) keeps the moves per entry bounded.
///
/// A pop takes the earlier of the heap's root and the run's head. Every staged key is after
/// `horizon`, and staging never holds entries unless the heap is non-empty (its root is at most
/// `horizon`) or the run's head is at most `horizon`: the earliest entry is always the root or the
/// run's head. Equal deadlines always sit on the same side of `horizon`; staged entries came after
/// every run entry (a merge empties staging); the run and the heap compare sequences. So FIFO holds.
///
/// While the structure is *loading* (from empty until its first pop or refill), the heap spills
/// every ``loadBatch`` inserts, so a bulk of inserts goes almost entirely to staging and is sorted
/// once, instead of paying a sift per insert and per pop.
///
/// Storage per entry is 8 bytes of key, 4 of owner, 16 of slot bookkeeping (position, generation,
/// sequence) and the optional payload (16 bytes for a closure): 44 bytes for closures, plus the
/// arrays' spare capacity and, once two merges have run, the run before last (kept, emptied, for
/// the next merge to write into; released when the structure empties). The slot arrays
/// never shrink, because a slot's generation must outlive every handle issued for it. A generation
/// is 32 bits: a handle kept while its slot is reused 2³² times would match again.
///
/// Popping is bound by memory latency, not instructions. On a 2-core Linux VM, draining a million
/// deadlines spread over an hour in 1 s steps ran about twice as fast with staging as with one
/// 4-ary heap of all entries (which in turn beat binary, 8-ary and 16-byte-node layouts), and the
/// sorted run beat refilling a 32 Ki-entry heap from staging by a sampled quantile (BudgetBench's
/// `virtual_bulk_*` figures compare it with a sort-once array).
package struct DeadlineHeap<Payload> {
    /// Identifies one inserted entry; stops matching once that entry has left.
    package struct Handle: Hashable, Sendable {
        /// Index into the slot arrays (`positions`, `generations`, `sequences`).
        let slot: UInt32
        /// The slot's generation when the entry was inserted.
        let generation: UInt32
    }

    /// Heap-ordered deadlines: the children of index `i` are `4i+1 ... 4i+4`.
    package var keys: [Int64] = []
    /// The slot of the entry at each heap index, parallel to `keys`.
    package var owners: [UInt32] = []
    /// The payload of the entry at each heap index, parallel to `keys`; never `nil` outside a sift.
    package var payloads: [Payload?] = []
    /// Deadlines later than `horizon`, in no order.
    package var stagedKeys: [Int64] = []
    /// The slot of each staged entry, parallel to `stagedKeys`.
    package var stagedOwners: [UInt32] = []
    /// The payload of each staged entry, parallel to `stagedKeys`; longer than `stagedKeys` after a
    /// merge, every entry past `stagedKeys.count` `nil` (kept for the next staged entries, so a merge
    /// neither destroys nor reallocates it).
    package var stagedPayloads: [Payload?] = []
    /// Per slot: the heap index while in the heap; `stagedFlag` plus the staged index while
    /// staged; `-2 - next` while free, where `next` is the next free slot or -1 (so negative
    /// exactly when free). 4 bytes each, the only slot memory the sift loops write.
    package var positions: [Int32] = []
    /// Per slot: bumped each time the slot is reused.
    package var generations: [UInt32] = []
    /// Per slot: insertion order, the tie-breaker among equal deadlines; read only on ties.
    package var sequences: [UInt64] = []
    /// Run deadlines, sorted by `(deadline, sequence)` from `runHead` on.
    package var runKeys: [Int64] = []
    /// The slot of each run entry, parallel to `runKeys`; `UInt32.max` marks a tombstone (an entry
    /// removed or popped).
    package var runOwners: [UInt32] = []
    /// The payload of each run entry, parallel to `runKeys`; `nil` for tombstones and for every
    /// entry past `runKeys.count` (it may be longer: see `sparePayloads`).
    package var runPayloads: [Payload?] = []
    /// The arrays of the run before last, which the next merge writes into instead of allocating:
    /// keys and owners empty (capacity kept), payloads all `nil`. Releasing a run of a hundred
    /// thousand closures' placeholders (destroying each `nil`), allocating its successor and faulting
    /// its pages in took about a third of a merge. All released once the structure is empty.
    package var spareKeys: [Int64] = []
    /// See `spareKeys`.
    package var spareOwners: [UInt32] = []
    /// See `spareKeys`; every entry `nil`.
    package var sparePayloads: [Payload?] = []
    /// The run's first live entry (or `runKeys.count` when the run is empty).
    package var runHead = 0
    /// How many run entries are live.
    package var runLive = 0
    /// From empty until the first pop or refill: the heap spills every ``loadBatch`` inserts.
    package var loading = true
    /// Every heap key is at most `horizon`; every staged key is later.
    package var horizon: Int64 = .max
    /// About how many entries the heap holds when there are more; the rest are staged.
    package let heapTarget: Int
    /// The heap size at which `insert` next moves late entries out to staging.
    package var spillAt: Int
    /// Head of the free-slot list, -1 when empty.
    private(set) var freeHead: Int32 = -1
    private var nextSequence: UInt64 = 0

    /// Creates an empty heap.
    /// - Parameter heapTarget: About how many entries to keep ordered when there are more; tests
    ///   pass a small value to exercise staging.
    package init(heapTarget: Int = Self.defaultHeapTarget) {
        precondition(heapTarget > 0, "DeadlineHeap needs a positive heap target")
        self.heapTarget = heapTarget
        spillAt = Swift.min(heapTarget * 2, Self.loadBatch)
    }

    /// The number of entries, ordered and staged.
    /// - Complexity: O(1).
    package var count: Int { keys.count + stagedKeys.count + runLive }

    /// Whether there are no entries.
    /// - Complexity: O(1).
    package var isEmpty: Bool { keys.isEmpty && runLive == 0 }

    /// The earliest deadline of all entries, or `nil` when there are none.
    /// - Complexity: O(1).
    package var peekDeadline: Int64? {
        guard runLive > 0 else { return keys.first }
        let runKey = runKeys[runHead]
        guard let first = keys.first else { return runKey }
        return Swift.min(first, runKey)
    }

    /// Bytes held by the arrays, counting spare capacity but not what payloads point to.
    /// - Complexity: O(1).
    package var allocatedByteCount: Int {
        (keys.capacity + stagedKeys.capacity) * MemoryLayout<Int64>.stride
            + (owners.capacity + stagedOwners.capacity) * MemoryLayout<UInt32>.stride
            + (payloads.capacity + stagedPayloads.capacity) * MemoryLayout<Payload?>.stride
            + runKeys.capacity * MemoryLayout<Int64>.stride + runOwners.capacity * MemoryLayout<UInt32>.stride
            + (runPayloads.capacity + sparePayloads.capacity) * MemoryLayout<Payload?>.stride
            + spareKeys.capacity * MemoryLayout<Int64>.stride + spareOwners.capacity * MemoryLayout<UInt32>.stride
            + positions.capacity * 16
    }

    /// Adds a payload due at a deadline.
    /// - Parameters:
    ///   - deadline: When the payload is due, in nanoseconds.
    ///   - payload: The value to store.
    /// - Returns: A handle that removes this entry until it leaves.
    /// - Complexity: O(1) for a deadline after `horizon`, else O(log n); amortised over the
    ///   arrays' growth and over spills, which cost O(heap size) once per ``heapTarget`` inserts.
    @discardableResult
    package mutating func insert(deadline: Int64, payload: Payload) -> Handle {
        let sequence = nextSequence
        nextSequence &+= 1
        let slot: Int
        if freeHead >= 0 {
            slot = Int(freeHead)
            freeHead = -2 - positions[slot]
            generations[slot] &+= 1
            sequences[slot] = sequence
        } else {
            slot = positions.count
            precondition(slot < Int(Self.stagedFlag) && slot < Int(UInt32.max), "DeadlineHeap is full")
            positions.append(0)
            generations.append(0)
            sequences.append(sequence)
        }
        let owner = UInt32(truncatingIfNeeded: slot)
        if deadline > horizon {
            stage(deadline, owner, payload)
        } else {
            keys.append(deadline)
            owners.append(owner)
            payloads.append(nil)
            withBuffers { heap in
                let index = heap.keys.count - 1
                heap.clearHole(at: index)
                heap.siftUp(deadline, owner, payload, from: index, notAbove: 0)
            }
            if keys.count >= spillAt {
                spill()
            }
        }
        return Handle(slot: owner, generation: generations[slot])
    }

    /// Whether a handle still names an entry.
    /// - Complexity: O(1).
    package func contains(_ handle: Handle) -> Bool {
        let slot = Int(handle.slot)
        return slot < positions.count && generations[slot] == handle.generation && positions[slot] >= 0
    }

    /// The deadline of the entry a handle names, or `nil` for a stale handle.
    /// - Complexity: O(1).
    package func deadline(of handle: Handle) -> Int64? {
        guard contains(handle) else { return nil }
        let position = positions[Int(handle.slot)]
        if position >= Self.runFlag { return runKeys[Int(position - Self.runFlag)] }
        return position < Self.stagedFlag ? keys[Int(position)] : stagedKeys[Int(position - Self.stagedFlag)]
    }

    /// Removes the entry a handle names.
    /// - Parameter handle: A handle returned by ``insert(deadline:payload:)``.
    /// - Returns: The entry's payload, or `nil` if the entry already left (popped, removed, or its
    ///   slot reused).
    /// - Complexity: O(1) for a staged entry, else O(log n); amortised over refills (see
    ///   ``popFirst(ifDueBy:)``).
    @discardableResult
    package mutating func remove(_ handle: Handle) -> Payload? {
        guard contains(handle) else { return nil }
        let position = positions[Int(handle.slot)]
        if position >= Self.runFlag {
            let payload = removeFromRun(at: Int(position - Self.runFlag))
            settle()
            return payload
        }
        if position >= Self.stagedFlag {
            return unstage(at: Int(position - Self.stagedFlag))
        }
        return removeEntry(at: Int(position)).payload
    }

    /// Removes and returns the earliest entry if its deadline is at or before a limit.
    /// - Parameter limit: The latest deadline to accept, in nanoseconds.
    /// - Returns: The earliest entry's deadline and payload, or `nil` if there are no entries or
    ///   the earliest deadline is after `limit`.
    /// - Complexity: O(1) from the run, O(log n) from the heap, amortised over merges: the pop that
    ///   leaves the heap empty with the run's head past `horizon` sorts staging and merges it into
    ///   the run (O(s + r)), which happens once per quarter of the run popped.
    package mutating func popFirst(ifDueBy limit: Int64) -> (deadline: Int64, payload: Payload)? {
        if runLive > 0 && runPrecedesHeap() {
            let key = runKeys[runHead]
            guard key <= limit else { return nil }
            loading = false
            let payload = removeFromRun(at: runHead)
            settle()
            guard let payload else { fatalError("DeadlineHeap: the run's head held no payload") }
            return (key, payload)
        }
        guard let first = keys.first, first <= limit else { return nil }
        loading = false
        return removeEntry(at: 0)
    }

    /// Removes every entry; handles issued so far all become stale.
    /// - Complexity: O(n).
    package mutating func removeAll() {
        for owner in owners + stagedOwners + runOwners[runHead...] where owner != .max {
            freeSlot(Int(owner))
        }
        keys.removeAll()
        owners.removeAll()
        payloads.removeAll()
        stagedKeys.removeAll()
        stagedOwners.removeAll()
        stagedPayloads.removeAll()
        resetRun()
        releaseSpareStorage()
        loading = true
        horizon = .max
        spillAt = Swift.min(heapTarget * 2, Self.loadBatch)
    }

    // MARK: - Internals

    /// Takes the entry at heap index `index` out, frees its slot, and returns its contents.
    private mutating func removeEntry(at index: Int) -> (deadline: Int64, payload: Payload) {
        let deadline = keys[index]
        let slot = Int(owners[index])
        let lastKey = keys.removeLast()
        let lastOwner = owners.removeLast()
        var lastPayload = payloads.removeLast()
        let removed: Payload?
        if index < keys.count {
            removed = withBuffers { heap in
                let taken = heap.takeHole(at: index)
                let parent = (index &- 1) >> 2
                if index > 0 && heap.precedes(lastKey, lastOwner, heap.keys[parent], heap.owners[parent]) {
                    heap.siftUp(lastKey, lastOwner, lastPayload.take(), from: index, notAbove: 0)
                } else {
                    heap.fillHole(at: index, with: lastKey, lastOwner, lastPayload.take())
                }
                return taken
            }
        } else {
            removed = lastPayload
        }
        freeSlot(slot)
        settle()
        guard let removed else {
            fatalError("DeadlineHeap: heap index \(index) held no payload")
        }
        return (deadline, removed)
    }

    /// Puts a slot whose entry has left on the free list.
    ///
    /// Only writes the slot's position, which the pop that frees it has just touched; the
    /// generation is bumped when the slot is reused, before any new handle names it, so a
    /// stale handle fails either the free mark or the generation check.
    package mutating func freeSlot(_ slot: Int) {
        positions[slot] = -2 - freeHead
        freeHead = Int32(truncatingIfNeeded: slot)
    }
}

extension DeadlineHeap: Sendable where Payload: Sendable {}
