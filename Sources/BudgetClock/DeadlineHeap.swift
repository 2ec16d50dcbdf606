/// A min-queue of payloads ordered by deadline, first-in first-out among equal deadlines, with
/// O(log n) cancellation through small value handles.
///
/// This is the timer store under ``VirtualClock`` and ``DispatchClock``.
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
/// A 4-ary implicit heap of 16-byte nodes (a deadline and a slot number), so a node's four children
/// share one cache line. Per slot, one record holds the entry's payload, its node index (the
/// "index in node" that makes removal O(log n)), a generation counter and its insertion sequence
/// number, so that an insert appends one record and a pop touches one cache line for its slot
/// (the *Performance* article has what that bought over four parallel arrays). Sifts move only
/// nodes and write only node indices; payloads stay where they were put.
///
/// A ``Handle`` is a slot index plus the generation it was issued with. When an entry leaves (popped
/// or removed) its slot goes on a free list; when the slot is reused its generation is bumped. So an
/// old handle stops matching once its entry has left, even after the slot is reused. No object is
/// allocated per entry.
///
/// Order is by `(deadline, sequence)` where `sequence` counts insertions, so entries with the same
/// deadline pop in the order they were inserted; the sequence is read only to break a tie.
///
/// Inserts into an empty heap are appended unordered until the first pop or removal, which sorts
/// them all at once into a *run*, an array read from a cursor (a bulk of 256 or more by a radix sort
/// on the deadline, one pass per 8-bit digit that varies); ``peekDeadline`` meanwhile reports
/// the smallest deadline seen. Later inserts go into the heap, and a pop takes the earlier of the
/// heap's root and the run's cursor. So a bulk of scheduling costs no sift per insert and its pops
/// read memory in order; removing a run entry leaves a tombstone the cursor skips. The run is in
/// deadline order but its slots are in insertion order, so each pop from it touches a slot far from
/// the last one; a pop asks the processor to fetch the slot of the entry 16 places ahead meanwhile.
/// The *Performance* article has what the run and the fetch buy.
///
/// Storage per entry is 16 bytes of node plus a slot record: the optional payload (16 bytes for a
/// closure), 4 of node index, 4 of generation and 8 of sequence: 48 bytes for closures, plus the
/// arrays' spare capacity. The slot array never shrinks, because a slot's generation must outlive
/// every handle issued for it. A generation is 32 bits: a handle kept while its slot is reused 2³²
/// times would match again. How this compares with other timer stores is in the *Performance*
/// article.
package struct DeadlineHeap<Payload> {
    /// Identifies one inserted entry; stops matching once that entry has left.
    package struct Handle: Hashable, Sendable {
        /// Index into the slot arrays.
        let slot: UInt32
        /// The slot's generation when the entry was inserted.
        let generation: UInt32
    }

    /// One heap node: a deadline and the slot of its entry.
    package struct Node {
        /// When the entry is due, in nanoseconds.
        var deadline: Int64
        /// The entry's slot.
        var slot: UInt32
    }

    /// What the heap keeps per slot.
    struct Slot {
        /// Insertion order, the tie-breaker among equal deadlines.
        var sequence: UInt64
        /// The node index while the slot holds a heap entry, ``runFlag`` plus the run index while
        /// it holds a run entry; `-2 - next` while free, where `next` is the next free slot or -1
        /// (so negative exactly when free).
        var position: Int32
        /// Bumped each time the slot is reused.
        var generation: UInt32
        /// The payload while the slot holds an entry, else `nil`.
        var payload: Payload?
    }

    /// Heap-ordered nodes (unless ``isOrdered`` is false): the children of `i` are `4i+1 ... 4i+4`.
    /// The run's entries are not among them.
    package internal(set) var nodes: [Node] = []
    /// The slots, indexed by ``Node/slot`` and ``Handle/slot``.
    var slots: [Slot] = []
    /// Whether `nodes` is heap-ordered; false from the first insert into an empty heap until the
    /// next pop or removal, which sorts them into the run.
    package internal(set) var isOrdered = true
    /// While not ``isOrdered``: the smallest deadline in `nodes`.
    var unorderedMinimum: Int64 = .max
    /// While not ``isOrdered``: whether `nodes` are in insertion order (no removal has moved one), so
    /// that a sort by deadline alone, if stable, orders ties too.
    var bulkIsInInsertionOrder = true
    /// The sorted run: a bulk sorted by `(deadline, sequence)`, live from ``runHead`` on except for
    /// tombstones (slot ``tombstone``). Empty once it holds no live entry.
    package internal(set) var run: [Node] = []
    /// The run's cursor: its earliest live entry while ``runCount`` is above zero.
    package internal(set) var runHead = 0
    /// The run's live entries.
    package internal(set) var runCount = 0
    /// Head of the free-slot list, -1 when empty.
    private(set) var freeHead: Int32 = -1
    private var nextSequence: UInt64 = 0

    /// Creates an empty heap.
    package init() {}

    /// The number of entries.
    /// - Complexity: O(1).
    package var count: Int { nodes.count + runCount }

    /// Whether there are no entries.
    /// - Complexity: O(1).
    package var isEmpty: Bool { count == 0 }

    /// The earliest deadline of all entries, or `nil` when there are none.
    /// - Complexity: O(1).
    package var peekDeadline: Int64? {
        if !isOrdered { return unorderedMinimum }
        let heapFirst = nodes.first?.deadline
        guard runCount > 0 else { return heapFirst }
        let runFirst = run[runHead].deadline
        return heapFirst.map { Swift.min($0, runFirst) } ?? runFirst
    }

    /// Bytes held by the arrays, counting spare capacity but not what payloads point to.
    /// - Complexity: O(1).
    package var allocatedByteCount: Int {
        (nodes.capacity + run.capacity) * MemoryLayout<Node>.stride + slots.capacity * MemoryLayout<Slot>.stride
    }

    /// Adds a payload due at a deadline.
    /// - Parameters:
    ///   - deadline: When the payload is due, in nanoseconds.
    ///   - payload: The value to store.
    /// - Returns: A handle that removes this entry until it leaves.
    /// - Complexity: O(log n); O(1) while the heap is unordered (filling from empty). Amortised over
    ///   the arrays' growth.
    @discardableResult
    package mutating func insert(deadline: Int64, payload: Payload) -> Handle {
        let sequence = nextSequence
        nextSequence &+= 1
        let slot: Int
        let index = nodes.count
        if index == 0 && runCount == 0 {
            isOrdered = false
            unorderedMinimum = deadline
            bulkIsInInsertionOrder = true
        }
        // Unordered, the node stays where it is appended; ordered, the sift records its place.
        let position = Int32(truncatingIfNeeded: index)
        let generation: UInt32
        if freeHead >= 0 {
            slot = Int(freeHead)
            generation = slots[slot].generation &+ 1
            freeHead = -2 - slots[slot].position
            slots[slot] = Slot(sequence: sequence, position: position, generation: generation, payload: payload)
        } else {
            slot = slots.count
            precondition(slot < Self.runFlag, "DeadlineHeap is full")
            generation = 0
            slots.append(Slot(sequence: sequence, position: position, generation: 0, payload: payload))
        }
        let node = Node(deadline: deadline, slot: UInt32(truncatingIfNeeded: slot))
        nodes.append(node)
        if isOrdered {
            siftUp(node, from: index)
        } else {
            unorderedMinimum = Swift.min(unorderedMinimum, deadline)
        }
        return Handle(slot: node.slot, generation: generation)
    }

    /// Whether a handle still names an entry.
    /// - Complexity: O(1).
    package func contains(_ handle: Handle) -> Bool {
        let slot = Int(handle.slot)
        return slot < slots.count && slots[slot].generation == handle.generation && slots[slot].position >= 0
    }

    /// The deadline of the entry a handle names, or `nil` for a stale handle.
    /// - Complexity: O(1).
    package func deadline(of handle: Handle) -> Int64? {
        guard contains(handle) else { return nil }
        let position = Int(slots[Int(handle.slot)].position)
        return position >= Self.runFlag ? run[position - Self.runFlag].deadline : nodes[position].deadline
    }

    /// Removes the entry a handle names.
    /// - Parameter handle: A handle returned by ``insert(deadline:payload:)``.
    /// - Returns: The entry's payload, or `nil` if the entry already left (popped, removed, or its
    ///   slot reused).
    /// - Complexity: O(log n); O(1) for a run entry, or for a bulk entry before the first pop that
    ///   is not the earliest; O(n log n) once, for removing the earliest of a bulk of inserts.
    @discardableResult
    package mutating func remove(_ handle: Handle) -> Payload? {
        guard contains(handle) else { return nil }
        let slot = Int(handle.slot)
        if !isOrdered {
            let index = Int(slots[slot].position)
            if nodes[index].deadline > unorderedMinimum { return removeUnordered(at: index) }
            sortIntoRun()
        }
        let position = Int(slots[slot].position)
        if position >= Self.runFlag { return removeFromRun(at: position - Self.runFlag) }
        return removeNode(at: position).payload
    }

    /// Removes and returns the earliest entry if its deadline is at or before a limit.
    /// - Parameter limit: The latest deadline to accept, in nanoseconds.
    /// - Returns: The earliest entry's deadline and payload, or `nil` if there are no entries or
    ///   the earliest deadline is after `limit`.
    /// - Complexity: O(log n); O(1) amortised from the run; O(n log n) once, for the first pop
    ///   after a bulk of inserts.
    package mutating func popFirst(ifDueBy limit: Int64) -> (deadline: Int64, payload: Payload)? {
        guard let first = peekDeadline, first <= limit else { return nil }
        if !isOrdered { sortIntoRun() }
        if runCount > 0 && (nodes.isEmpty || precedes(run[runHead], nodes[0])) { return popRun() }
        return removeNode(at: 0)
    }

    /// Removes every entry; handles issued so far all become stale.
    /// - Complexity: O(n).
    package mutating func removeAll() {
        for node in nodes {
            slots[Int(node.slot)].payload = nil
            freeSlot(Int(node.slot))
        }
        for node in run[runHead...] where node.slot != Self.tombstone {
            slots[Int(node.slot)].payload = nil
            freeSlot(Int(node.slot))
        }
        nodes.removeAll()
        run.removeAll()
        runHead = 0
        runCount = 0
        isOrdered = true
    }

    // MARK: - Internals

    /// Takes the node at `index` out, frees its slot, and returns its deadline and payload.
    private mutating func removeNode(at index: Int) -> (deadline: Int64, payload: Payload) {
        let removed = nodes[index]
        let slot = Int(removed.slot)
        let last = nodes.removeLast()
        if index < nodes.count {
            if index > 0 && precedes(last, nodes[(index &- 1) >> 2]) {
                siftUp(last, from: index)
            } else {
                siftDown(last, from: index)
            }
        }
        return (removed.deadline, takePayload(slot))
    }

    /// Takes a slot's payload and puts the slot on the free list.
    mutating func takePayload(_ slot: Int) -> Payload {
        guard let payload = slots[slot].payload.take() else {
            fatalError("DeadlineHeap: slot \(slot) held no payload")
        }
        freeSlot(slot)
        return payload
    }

    /// Puts a slot whose entry has left on the free list. The generation is bumped when the slot
    /// is reused, before any new handle names it, so a stale handle fails either the free mark or
    /// the generation check.
    private mutating func freeSlot(_ slot: Int) {
        slots[slot].position = -2 - freeHead
        freeHead = Int32(truncatingIfNeeded: slot)
    }
}

extension DeadlineHeap: Sendable where Payload: Sendable {}
extension DeadlineHeap.Node: Sendable {}
extension DeadlineHeap.Slot: Sendable where Payload: Sendable {}
