import CBudgetClockShims

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
/// The ordering is ``SlotHeap``'s (the package's one deadline heap); this type adds a slot table:
/// per slot, the optional payload and a generation counter, slots reused through a free list.
///
/// A ``Handle`` is a slot index plus the generation it was issued with. When an entry leaves (popped
/// or removed) its slot goes on the free list; when the slot is reused its generation is bumped. So
/// an old handle stops matching once its entry has left, even after the slot is reused. No object is
/// allocated per entry.
///
/// Storage per entry is the heap's 20 bytes plus a slot record: the optional payload (16 bytes for
/// a closure), 4 of generation and 4 of free-list link, so 44 bytes for closures, plus the arrays'
/// spare capacity. The slot array never shrinks, because a slot's generation must outlive every
/// handle issued for it. A generation is 32 bits: a handle kept while its slot is reused 2³² times
/// would match again.
package struct DeadlineHeap<Payload> {
    /// Identifies one inserted entry; stops matching once that entry has left.
    package struct Handle: Hashable, Sendable {
        /// Index into the slot table.
        let slot: UInt32
        /// The slot's generation when the entry was inserted.
        let generation: UInt32
    }

    /// What the heap keeps per slot besides its deadline.
    struct Slot {
        /// The payload while the slot holds an entry, else `nil`.
        var payload: Payload?
        /// Bumped each time the slot is reused.
        var generation: UInt32
        /// While free: the next free slot, or -1.
        var nextFree: Int32
    }

    /// The deadlines, keyed by slot.
    package private(set) var heap = SlotHeap()
    /// The slots, indexed by ``Handle/slot``.
    private(set) var slots: [Slot] = []
    /// Head of the free-slot list, -1 when empty.
    private(set) var freeHead: Int32 = -1

    /// Creates an empty heap.
    package init() {}

    /// The number of entries.
    /// - Complexity: O(1).
    package var count: Int { heap.count }

    /// Whether there are no entries.
    /// - Complexity: O(1).
    package var isEmpty: Bool { heap.isEmpty }

    /// The earliest deadline of all entries, or `nil` when there are none.
    /// - Complexity: O(1).
    package var peekDeadline: Int64? { heap.peekDeadline }

    /// Bytes held by the arrays, counting spare capacity but not what payloads point to.
    /// - Complexity: O(1).
    package var allocatedByteCount: Int {
        heap.allocatedByteCount + slots.capacity * MemoryLayout<Slot>.stride
    }

    /// Adds a payload due at a deadline.
    /// - Parameters:
    ///   - deadline: When the payload is due, in nanoseconds.
    ///   - payload: The value to store.
    /// - Returns: A handle that removes this entry until it leaves.
    /// - Complexity: O(log n), amortised over the arrays' growth.
    @discardableResult
    package mutating func insert(deadline: Int64, payload: Payload) -> Handle {
        let slot: Int
        let generation: UInt32
        if freeHead >= 0 {
            slot = Int(freeHead)
            freeHead = slots[slot].nextFree
            generation = slots[slot].generation &+ 1
            slots[slot] = Slot(payload: payload, generation: generation, nextFree: -1)
        } else {
            slot = slots.count
            precondition(slot < Int(Int32.max), "DeadlineHeap is full")
            generation = 0
            slots.append(Slot(payload: payload, generation: 0, nextFree: -1))
        }
        heap.set(slot, to: deadline)
        return Handle(slot: UInt32(truncatingIfNeeded: slot), generation: generation)
    }

    /// Whether a handle still names an entry.
    /// - Complexity: O(1).
    package func contains(_ handle: Handle) -> Bool {
        let slot = Int(handle.slot)
        return slot < slots.count && slots[slot].generation == handle.generation && heap.contains(slot)
    }

    /// The deadline of the entry a handle names, or `nil` for a stale handle.
    /// - Complexity: O(1).
    package func deadline(of handle: Handle) -> Int64? {
        contains(handle) ? heap.deadline(of: Int(handle.slot)) : nil
    }

    /// Removes the entry a handle names.
    /// - Parameter handle: A handle returned by ``insert(deadline:payload:)``.
    /// - Returns: The entry's payload, or `nil` if the entry already left (popped, removed, or its
    ///   slot reused).
    /// - Complexity: O(log n).
    @discardableResult
    package mutating func remove(_ handle: Handle) -> Payload? {
        guard contains(handle) else { return nil }
        heap.remove(Int(handle.slot))
        return takePayload(Int(handle.slot))
    }

    /// Removes and returns the earliest entry if its deadline is at or before a limit.
    /// - Parameter limit: The latest deadline to accept, in nanoseconds.
    /// - Returns: The earliest entry's deadline and payload, or `nil` if there are no entries or
    ///   the earliest deadline is after `limit`.
    /// - Complexity: O(log n).
    package mutating func popFirst(ifDueBy limit: Int64) -> (deadline: Int64, payload: Payload)? {
        if _slowPath(heap.runCount > 0), let ahead = heap.slotInRun(ahead: SlotHeap.prefetchDistance), ahead < slots.count {
            // A pop from the sorted run touches a slot far from the last one: fetch a later one meanwhile.
            slots.withUnsafeBufferPointer { c_budget_clock_prefetch($0.baseAddress! + ahead) }
        }
        guard let (deadline, slot) = heap.popFirst(ifDueBy: limit) else { return nil }
        return (deadline, takePayload(slot))
    }

    /// Removes every entry; handles issued so far all become stale.
    /// - Complexity: O(n).
    package mutating func removeAll() {
        for slot in heap.slotsWithDeadline { _ = takePayload(slot) }
        heap.removeAll()
    }

    /// Traps if the structure is inconsistent: the heap's own invariants, a slot with a deadline but
    /// no payload (or the reverse), or a free list that does not hold exactly the other slots. For
    /// tests; O(n).
    package func checkInvariants() {
        heap.checkInvariants()
        var free = Set<Int>()
        var next = freeHead
        while next >= 0 {
            precondition(free.insert(Int(next)).inserted, "slot \(next) is on the free list twice")
            next = slots[Int(next)].nextFree
        }
        for slot in slots.indices {
            let live = heap.contains(slot)
            precondition(live == (slots[slot].payload != nil), "slot \(slot) has a deadline and a payload out of step")
            precondition(live != free.contains(slot), "slot \(slot) is neither live nor free, or both")
        }
    }

    /// Takes a slot's payload and puts the slot on the free list. The generation is bumped when the
    /// slot is reused, before any new handle names it, so a stale handle fails either the deadline
    /// check or the generation check.
    private mutating func takePayload(_ slot: Int) -> Payload {
        guard let payload = slots[slot].payload.take() else {
            fatalError("DeadlineHeap: slot \(slot) held no payload")
        }
        slots[slot].nextFree = freeHead
        freeHead = Int32(truncatingIfNeeded: slot)
        return payload
    }
}

extension DeadlineHeap: Sendable where Payload: Sendable {}
extension DeadlineHeap.Slot: Sendable where Payload: Sendable {}
