import Testing
@testable import JobBudgets

/// The scheduler's deadline heap: earliest first, equal deadlines in the order they were set, moves
/// and removals by slot, deadlines past the floor kept pending until a flush, and that order kept
/// across the wrap of its 32-bit sequence counter.
@Suite struct BudgetDeadlinesTests {
    private func drain(_ heap: inout BudgetDeadlines, dueBy limit: Int64 = .max) -> [Int] {
        var slots: [Int] = []
        while let slot = heap.popFirst(ifDueBy: limit) { slots.append(slot) }
        return slots
    }

    @Test func popsEarliestFirstAndEqualDeadlinesInTheOrderTheyWereSet() {
        var heap = BudgetDeadlines()
        for (slot, deadline) in [(0, 30), (1, 10), (2, 20), (3, 10), (4, 10), (5, 5)] { heap.set(slot, to: Int64(deadline)) }
        #expect(heap.peekDeadline == 5)
        #expect(drain(&heap, dueBy: 10) == [5, 1, 3, 4])
        #expect(drain(&heap) == [2, 0])
        #expect(heap.count == 0 && heap.peekDeadline == nil)
    }

    @Test func movingOrRemovingASlotKeepsTheRestInOrder() {
        var heap = BudgetDeadlines()
        for slot in 0..<40 { heap.set(slot, to: Int64(100 + slot)) }
        heap.set(39, to: 1)             // earlier
        heap.set(0, to: 1_000)          // later
        heap.set(7, to: 107)            // the same deadline again: now set last among equals (none)
        for slot in stride(from: 1, to: 39, by: 3) { heap.remove(slot) }
        heap.remove(1)                  // twice: nothing
        #expect(!heap.contains(4) && heap.contains(5))
        let expected = [39] + (1..<39).filter { ($0 - 1) % 3 != 0 } + [0]
        #expect(drain(&heap) == expected)
    }

    @Test func deadlinesAtOrAfterTheFloorWaitUnsortedUntilAFlush() {
        // Expected: only the deadline before the floor (50) is in the heap; a pending slot moved
        // before the floor joins it; removals and moves of pending slots hold; after the flush every
        // deadline pops in order, equal ones in the order they were set.
        var heap = BudgetDeadlines()
        heap.floor = 100
        for (slot, deadline) in [(0, 200), (1, 50), (2, 150), (3, 100), (4, 150), (5, 300)] { heap.set(slot, to: Int64(deadline)) }
        #expect(heap.peekDeadline == 50 && heap.count == 6)
        #expect(heap.popFirst(ifDueBy: .max) == 1)
        heap.set(5, to: 60)                 // pending → heap
        heap.set(0, to: 150)                // stays pending, now set after 2 and 4
        heap.remove(3)
        #expect(heap.peekDeadline == 60 && !heap.contains(3) && heap.contains(4))
        heap.flush()
        #expect(heap.floor == .max)
        #expect(drain(&heap) == [5, 2, 4, 0])
    }

    @Test func equalDeadlinesKeepTheirOrderAcrossTheSequenceWrap() {
        // Expected: slots set at 50 before the counter wraps still pop before those set after it.
        var heap = BudgetDeadlines()
        heap.nextSequence = .max - 3
        for slot in 0..<8 { heap.set(slot, to: 50) }
        heap.set(8, to: 40)
        #expect(heap.nextSequence < 20, "renumbered from zero when the counter would wrap")
        #expect(drain(&heap) == [8, 0, 1, 2, 3, 4, 5, 6, 7])
    }
}
