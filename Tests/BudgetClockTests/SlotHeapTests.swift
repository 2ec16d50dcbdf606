import Testing
@testable import BudgetClock

/// The one deadline heap (the clocks' and the budget scheduler's): earliest first, equal deadlines in
/// the order they were set, moves and removals by slot, and that order kept across the wrap of its
/// 32-bit sequence counter.
@Suite struct SlotHeapTests {
    private func drain(_ heap: inout SlotHeap, dueBy limit: Int64 = .max) -> [Int] {
        var slots: [Int] = []
        while let (_, slot) = heap.popFirst(ifDueBy: limit) { slots.append(slot) }
        heap.checkInvariants()
        return slots
    }

    @Test func popsEarliestFirstAndEqualDeadlinesInTheOrderTheyWereSet() {
        var heap = SlotHeap()
        for (slot, deadline) in [(0, 30), (1, 10), (2, 20), (3, 10), (4, 10), (5, 5)] { heap.set(slot, to: Int64(deadline)) }
        #expect(heap.peekDeadline == 5)
        #expect(drain(&heap, dueBy: 10) == [5, 1, 3, 4])
        #expect(drain(&heap) == [2, 0])
        #expect(heap.count == 0 && heap.peekDeadline == nil)
    }

    @Test func movingOrRemovingASlotKeepsTheRestInOrder() {
        var heap = SlotHeap()
        for slot in 0..<40 { heap.set(slot, to: Int64(100 + slot)) }
        heap.checkInvariants()
        heap.set(39, to: 1)             // earlier
        heap.set(0, to: 1_000)          // later
        heap.set(7, to: 107)            // the same deadline again: now set last among equals (none)
        for slot in stride(from: 1, to: 39, by: 3) { heap.remove(slot) }
        heap.remove(1)                  // twice: nothing
        #expect(!heap.contains(4) && heap.contains(5))
        let expected = [39] + (1..<39).filter { ($0 - 1) % 3 != 0 } + [0]
        #expect(drain(&heap) == expected)
    }

    @Test func aMovedSlotCountsAsSetLastAmongEqualDeadlines() {
        // Expected: slot 0, moved to 20 after 1 and 2 were set there, pops after them; its deadline
        // reads back; a slot past every other (9) grows the table.
        var heap = SlotHeap()
        heap.set(0, to: 5)
        heap.set(1, to: 20)
        heap.set(2, to: 20)
        heap.set(0, to: 20)
        heap.set(9, to: 1)
        #expect(heap.deadline(of: 0) == 20 && heap.deadline(of: 9) == 1 && heap.deadline(of: 5) == nil)
        #expect(heap.count == 4)
        #expect(drain(&heap) == [9, 1, 2, 0])
        #expect(heap.isEmpty && !heap.remove(0))
    }

    @Test func equalDeadlinesKeepTheirOrderAcrossTheSequenceWrap() {
        // Expected: slots set at 50 before the counter wraps still pop before those set after it.
        var heap = SlotHeap()
        heap.nextSequence = .max - 3
        for slot in 0..<8 { heap.set(slot, to: 50) }
        heap.set(8, to: 40)
        #expect(heap.nextSequence < 20, "renumbered from zero when the counter would wrap")
        #expect(drain(&heap) == [8, 0, 1, 2, 3, 4, 5, 6, 7])
    }
}
