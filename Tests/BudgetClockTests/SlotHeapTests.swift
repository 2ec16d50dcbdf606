import Testing
@testable import BudgetClock
import BudgetTime
import TestSupport

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

    // MARK: - The sorted run

    /// A bulk set into an empty heap pops as one sorted run interleaved with the heap: deadlines set
    /// after the first pop go into the heap, and at an equal deadline the run's entries (set first)
    /// pop first, then the heap's in the order they were set.
    @Test(arguments: [40, 600])   // below and above the radix sort's threshold
    func aRunAndTheHeapInterleaveInDeadlineOrderWithTiesInTheOrderSet(bulk: Int) {
        var heap = SlotHeap()
        for slot in 0..<bulk { heap.set(slot, to: Int64((bulk - slot) % 10 * 10)) }
        #expect(heap.bulkIsPending && heap.peekDeadline == 0)
        let early = heap.popFirst(ifDueBy: -1)
        #expect(early == nil, "nothing due before the earliest")
        let first = heap.popFirst(ifDueBy: 0)
        #expect(first?.deadline == 0 && first?.slot == (bulk % 10 == 0 ? 0 : bulk % 10))
        #expect(!heap.bulkIsPending && heap.runCount == (bulk < 256 ? 0 : bulk - 1), "a small bulk is sorted into the heap")
        for slot in bulk..<(bulk + 20) { heap.set(slot, to: Int64(slot % 10 * 10)) }   // into the heap
        heap.checkInvariants()
        var popped: [(deadline: Int64, slot: Int)] = []
        while let next = heap.popFirst(ifDueBy: .max) { popped.append(next) }
        let all = (0..<(bulk + 20)).map { slot in (deadline: Int64((slot < bulk ? bulk - slot : slot) % 10 * 10), slot: slot) }
        let expected = all.sorted { ($0.deadline, $0.slot) < ($1.deadline, $1.slot) }.filter { $0.slot != first?.slot }
        #expect(popped.map(\.slot) == expected.map(\.slot))
        #expect(heap.isEmpty && heap.runCount == 0)
    }

    /// Removing or moving entries of a pending bulk and of its run: the removed never pop, a moved
    /// one pops at its new deadline after those already set there, and a run emptied by removals
    /// leaves a heap that still works.
    @Test(arguments: [50, 1_000])
    func removalsInsideTheRunAndARunEmptiedByThem(bulk: Int) {
        var heap = SlotHeap()
        for slot in 0..<bulk { heap.set(slot, to: Int64(1_000 + slot)) }
        let removedLast = heap.remove(bulk - 1)
        #expect(removedLast, "not the earliest: a tombstone in the pending bulk")
        #expect(heap.bulkIsPending && heap.count == bulk - 1 && !heap.contains(bulk - 1))
        heap.checkInvariants()
        let removedFirst = heap.remove(0)
        #expect(removedFirst, "the earliest: sorts the bulk first")
        #expect(!heap.bulkIsPending && heap.runCount == (bulk < 256 ? 0 : bulk - 2) && heap.peekDeadline == 1_001)
        heap.set(5, to: 1_003)                    // moved out of the run, after slot 3's deadline
        #expect(heap.runCount == (bulk < 256 ? 0 : bulk - 3) && heap.deadline(of: 5) == 1_003)
        heap.checkInvariants()
        let four = (0..<4).compactMap { _ in heap.popFirst(ifDueBy: .max)?.slot }
        #expect(four == [1, 2, 3, 5], "moved: after the run's entry at the same deadline")
        var removedRest = 0
        for slot in 4..<(bulk - 1) where slot != 5 && heap.remove(slot) { removedRest += 1 }
        #expect(removedRest == bulk - 6)
        #expect(heap.isEmpty && heap.runCount == 0 && heap.peekDeadline == nil)
        heap.checkInvariants()
        heap.set(7, to: 9)
        heap.set(8, to: 3)
        #expect(heap.bulkIsPending, "an emptied heap takes a new bulk")
        #expect(drain(&heap) == [8, 7])
        heap.set(3, to: 4)                         // a bulk of one, removed: empty again
        let removedOnly = heap.remove(3)
        #expect(removedOnly && heap.isEmpty && !heap.bulkIsPending && heap.peekDeadline == nil)
        heap.checkInvariants()
        heap.set(2, to: 6)
        #expect(heap.bulkIsPending && heap.peekDeadline == 6 && drain(&heap) == [2])
    }

    /// Random bulks (small and past the radix threshold, with many ties), sets, moves, removals and
    /// pops, checked after every operation against a sorted array of `(deadline, order set)` with the
    /// invariants; counts that the run and the pending bulk were both used.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomOperationsWithBulksMatchASortedArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var heap = SlotHeap()
        var model: [(deadline: Int64, order: Int, slot: Int)] = []
        var order = 0
        var sawBulk = 0, sawRun = 0
        func modelSet(_ slot: Int, _ deadline: Int64) {
            model.removeAll { $0.slot == slot }
            let index = model.firstIndex { ($0.deadline, $0.order) > (deadline, order) } ?? model.count
            model.insert((deadline, order, slot), at: index)
            order += 1
        }
        for step in 0..<LongRun.cases(3_000, quick: 1_200) {
            let slots = 700
            switch random.next(below: 12) {
            case 0 where heap.isEmpty || random.next(below: 4) == 0:
                // Drain, then load a bulk into the empty heap.
                while let first = model.first {
                    model.removeFirst()
                    let popped = heap.popFirst(ifDueBy: .max)
                    #expect(popped?.slot == first.slot, "step \(step): drain")
                }
                let size = random.next(below: 2) == 0 ? Int(random.next(in: 1...40)) : Int(random.next(in: 256...600))
                for slot in 0..<size {
                    let deadline = random.next(below: 3) == 0 ? 500 : random.next(in: 0...(1 << 40))
                    heap.set(slot, to: deadline)
                    modelSet(slot, deadline)
                }
                sawBulk += heap.bulkIsPending ? 1 : 0
            case 0..<4:
                let slot = Int(random.next(below: UInt64(slots)))   // new, or moved
                let deadline = random.next(below: 3) == 0 ? 500 : random.next(in: 0...(1 << 40))
                heap.set(slot, to: deadline)
                modelSet(slot, deadline)
            case 4..<7:
                let slot = Int(random.next(below: UInt64(slots)))
                let had = model.contains { $0.slot == slot }
                model.removeAll { $0.slot == slot }
                let removed = heap.remove(slot)
                #expect(removed == had, "step \(step): remove \(slot)")
            default:
                let limit = random.next(in: 0...(1 << 40))
                let expected = model.first.flatMap { $0.deadline <= limit ? model.removeFirst() : nil }
                let popped = heap.popFirst(ifDueBy: limit)
                #expect(popped?.slot == expected?.slot && popped?.deadline == expected?.deadline, "step \(step): pop by \(limit)")
            }
            sawRun += heap.runCount > 0 ? 1 : 0
            heap.checkInvariants()
            #expect(heap.count == model.count && heap.peekDeadline == model.first?.deadline, "step \(step)")
        }
        #expect(sawBulk > 3 && sawRun > 100, "the bulk and the run were exercised (\(sawBulk), \(sawRun))")
        #expect(drain(&heap) == model.map(\.slot))
    }
}
