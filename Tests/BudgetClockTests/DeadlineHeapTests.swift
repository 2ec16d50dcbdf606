import BudgetTime
import Testing
@testable import BudgetClock
import TestSupport

@Suite struct DeadlineHeapTests {
    /// Pops everything due by `limit`, returning the payloads in pop order.
    private func drain(_ heap: inout DeadlineHeap<String>, by limit: Int64 = .max) -> [String] {
        var popped: [String] = []
        while let (_, payload) = heap.popFirst(ifDueBy: limit) {
            popped.append(payload)
        }
        return popped
    }

    @Test func popsInDeadlineOrder() {
        let expected = ["a", "b", "c", "d", "e"]
        var heap = DeadlineHeap<String>()
        for (deadline, name) in [(40, "d"), (10, "a"), (50, "e"), (30, "c"), (20, "b")] {
            heap.insert(deadline: Int64(deadline), payload: name)
        }
        heap.checkInvariants()
        #expect(drain(&heap) == expected)
        #expect(heap.isEmpty)
    }

    @Test func equalDeadlinesPopFirstInFirstOut() {
        let expected = (0..<40).map { "item\($0)" }
        var heap = DeadlineHeap<String>()
        for name in expected {
            heap.insert(deadline: 7, payload: name)
        }
        heap.checkInvariants()
        #expect(drain(&heap) == expected)
    }

    @Test func popFirstLeavesEntriesDueAfterTheLimit() {
        var heap = DeadlineHeap<String>()
        heap.insert(deadline: 5, payload: "early")
        heap.insert(deadline: 15, payload: "late")
        #expect(heap.peekDeadline == 5)
        #expect(drain(&heap, by: 10) == ["early"])
        #expect(heap.count == 1)
        #expect(heap.peekDeadline == 15)
        #expect(drain(&heap, by: 15) == ["late"])
        #expect(heap.peekDeadline == nil)
    }

    @Test func removeReturnsThePayloadOnceThenTheHandleIsStale() {
        var heap = DeadlineHeap<String>()
        let handle = heap.insert(deadline: 20, payload: "x")
        heap.insert(deadline: 10, payload: "y")
        #expect(heap.contains(handle))
        #expect(heap.deadline(of: handle) == 20)
        #expect(heap.remove(handle) == "x")
        #expect(!heap.contains(handle))
        #expect(heap.deadline(of: handle) == nil)
        #expect(heap.remove(handle) == nil)
        heap.checkInvariants()
        #expect(drain(&heap) == ["y"])
    }

    @Test func handleOfAPoppedEntryRemovesNothing() {
        var heap = DeadlineHeap<String>()
        let handle = heap.insert(deadline: 1, payload: "popped")
        #expect(drain(&heap) == ["popped"])
        #expect(heap.remove(handle) == nil)
    }

    @Test func staleHandleDoesNotRemoveTheEntryThatReusedItsSlot() {
        var heap = DeadlineHeap<String>()
        let old = heap.insert(deadline: 1, payload: "old")
        #expect(heap.remove(old) == "old")
        let new = heap.insert(deadline: 2, payload: "new")
        #expect(new.slot == old.slot, "the freed slot is reused")
        #expect(new != old)
        #expect(heap.remove(old) == nil)
        #expect(heap.count == 1)
        #expect(heap.remove(new) == "new")
    }

    @Test func removeAllMakesEveryHandleStale() {
        var heap = DeadlineHeap<String>()
        let handles = (0..<10).map { heap.insert(deadline: Int64($0), payload: "\($0)") }
        heap.removeAll()
        heap.checkInvariants()
        #expect(heap.isEmpty)
        let reused = heap.insert(deadline: 3, payload: "after")
        #expect(handles.allSatisfy { heap.remove($0) == nil })
        #expect(heap.remove(reused) == "after")
    }

    @Test func storesFortyFourBytesPerClosureEntry() {
        typealias Heap = DeadlineHeap<@Sendable () -> Void>
        let perEntry = MemoryLayout<SlotHeap.Node>.stride + MemoryLayout<UInt32>.stride + MemoryLayout<Heap.Slot>.stride
        #expect(perEntry == 44)
        #expect(MemoryLayout<Heap.Handle>.size == 8)
    }

    @Test func equalDeadlinesStayFirstInFirstOutAmongEarlierAndLaterOnes() {
        // Expected: ties pop in insertion order, with earlier and later deadlines around them.
        let expected = (0..<30).map { "tie\($0)" }
        var heap = DeadlineHeap<String>()
        for (index, name) in expected.enumerated() {
            heap.insert(deadline: 50, payload: name)
            heap.insert(deadline: Int64(100 + index), payload: "late\(index)")
            heap.insert(deadline: Int64(29 - index), payload: "early\(29 - index)")
        }
        #expect(heap.peekDeadline == 0)
        heap.checkInvariants()
        let popped = drain(&heap)
        #expect(popped.filter { $0.hasPrefix("tie") } == expected)
        #expect(popped.prefix(30) == ArraySlice((0..<30).map { "early\($0)" }))
        #expect(popped.suffix(30) == ArraySlice((0..<30).map { "late\($0)" }))
    }

    @Test func aSlotFreedByAPopIsReusedAndItsOldHandleIsStale() {
        // Expected: the slot popped last is reused first; the old handle neither removes nor reads
        // the new entry.
        var heap = DeadlineHeap<String>()
        let handles = (0..<20).map { heap.insert(deadline: Int64(20 - $0), payload: "e\(20 - $0)") }
        #expect(heap.popFirst(ifDueBy: 1)?.payload == "e1")
        let reused = heap.insert(deadline: 200, payload: "late")
        #expect(reused.slot == handles[19].slot, "the slot popped last is reused first")
        #expect(heap.remove(handles[19]) == nil && heap.deadline(of: handles[19]) == nil && heap.deadline(of: reused) == 200)
        heap.checkInvariants()
        #expect(drain(&heap) == (2...20).map { "e\($0)" } + ["late"])
    }

    /// Hundreds of entries, their deadlines a mix of many ties, nearby values and the two ends of
    /// `Int64`: they pop in deadline order, ties in insertion order, also after removals.
    @Test(arguments: [false, true])
    func aLargeMixPopsInDeadlineThenInsertionOrder(removingSome: Bool) {
        var random = SplitMix64(seed: removingSome ? 11 : 12)
        var heap = DeadlineHeap<Int>()
        var entries: [(deadline: Int64, id: Int, handle: DeadlineHeap<Int>.Handle)] = []
        let count = 768
        for id in 0..<count {
            let deadline: Int64 = switch random.next(below: 4) {
            case 0: 1_000                                          // one big tie
            case 1: random.next(in: 0...40)                        // small ties
            case 2: Int64(bitPattern: random.next())               // anywhere
            default: random.next(below: 2) == 0 ? .max : .min + 1
            }
            entries.append((deadline, id, heap.insert(deadline: deadline, payload: id)))
        }
        entries.append((.min, count, heap.insert(deadline: .min, payload: count)))
        if removingSome {
            var removed = Set<Int>()
            for _ in 0..<(count / 3) {
                let id = Int(random.next(below: UInt64(count)))
                if removed.insert(id).inserted { #expect(heap.remove(entries[id].handle) == id) }
            }
            entries.removeAll { removed.contains($0.id) }
        }
        let expected = entries.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        var popped: [(Int64, Int)] = []
        while let (deadline, id) = heap.popFirst(ifDueBy: .max) {
            if popped.isEmpty { heap.checkInvariants() }
            popped.append((deadline, id))
        }
        #expect(popped.map(\.1) == expected.map(\.id))
        #expect(popped.map(\.0) == expected.map(\.deadline))
    }

    /// Payloads move bitwise inside the heap; every one must still be destroyed exactly once.
    @Test func releasesEveryPayloadExactlyOnce() {
        final class Counted {
            let live: Counter
            init(_ live: Counter) { self.live = live; live.value += 1 }
            deinit { live.value -= 1 }
        }
        final class Counter { var value = 0 }
        let live = Counter()
        do {
            var random = SplitMix64(seed: 9)
            var heap = DeadlineHeap<Counted>()
            var handles: [DeadlineHeap<Counted>.Handle] = []
            for step in 0..<3_000 {
                switch random.next(below: 8) {
                case 0..<4: handles.append(heap.insert(deadline: random.next(in: 0...200), payload: Counted(live)))
                case 4 where !handles.isEmpty: _ = heap.remove(handles[Int(random.next(below: UInt64(handles.count)))])
                case 5 where step % 500 == 0: heap.removeAll()
                default: _ = heap.popFirst(ifDueBy: random.next(in: 0...200))
                }
                #expect(live.value == heap.count, "step \(step)")
            }
            heap.checkInvariants()
            #expect(heap.count > 0)
        }
        #expect(live.value == 0)
    }

    /// Random inserts, removals (live and stale handles) and pops, checked against a list sorted by
    /// `(deadline, sequence)` after every operation, with the invariants checked throughout, draining
    /// to empty now and then.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7] as [UInt64])
    func randomOperationsMatchASortedReference(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var heap = DeadlineHeap<Int>()
        // The reference: live entries sorted by (deadline, insertion number).
        var reference: [(deadline: Int64, order: Int, id: Int)] = []
        var handles: [DeadlineHeap<Int>.Handle] = []
        var now: Int64 = 0
        for step in 0..<LongRun.cases(4_000, quick: 1_500) {
            switch random.next(below: 10) {
            case 0..<5:
                // Few distinct deadlines, so ties are common.
                let deadline = now + random.next(in: 0...60)
                let id = handles.count
                handles.append(heap.insert(deadline: deadline, payload: id))
                let index = reference.firstIndex { ($0.deadline, $0.order) > (deadline, id) } ?? reference.count
                reference.insert((deadline, id, id), at: index)
            case 5..<7 where !handles.isEmpty:
                let id = Int(random.next(below: UInt64(handles.count)))
                let expected = reference.firstIndex { $0.id == id }.map { reference.remove(at: $0).id }
                #expect(heap.remove(handles[id]) == expected, "step \(step): remove \(id)")
            case 7 where random.next(below: 8) == 0:
                // Drain everything due, so the next inserts load an empty heap.
                now += 60
                while let first = reference.first, first.deadline <= now {
                    reference.removeFirst()
                    #expect(heap.popFirst(ifDueBy: now)?.payload == first.id, "step \(step): drain")
                }
            default:
                now += random.next(in: 0...6)
                let limit = now + random.next(in: -5...5)
                let expected = reference.first.flatMap { $0.deadline <= limit ? reference.removeFirst() : nil }
                let popped = heap.popFirst(ifDueBy: limit)
                #expect(popped?.payload == expected?.id, "step \(step): pop by \(limit)")
                #expect(popped?.deadline == expected?.deadline)
            }
            heap.checkInvariants()
            #expect(heap.count == reference.count)
            #expect(heap.peekDeadline == reference.first?.deadline)
        }
        let rest = (0..<heap.count).compactMap { _ in heap.popFirst(ifDueBy: .max)?.payload }
        #expect(rest == reference.map(\.id))
        #expect(heap.isEmpty)
    }
}
