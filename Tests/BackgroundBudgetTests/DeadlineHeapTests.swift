import Testing
@testable import BackgroundBudget

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
        let perEntry = MemoryLayout<Int64>.stride + MemoryLayout<UInt32>.stride
            + MemoryLayout<Heap.Slot>.stride + MemoryLayout<Heap.Value>.stride
        #expect(perEntry == 44)
        #expect(MemoryLayout<Heap.Handle>.size == 8)
    }

    /// Random inserts, removals (live and stale handles) and pops, checked against a list sorted by
    /// `(deadline, sequence)` after every operation, with the heap's invariants checked throughout.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomOperationsMatchASortedReference(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var heap = DeadlineHeap<Int>()
        // The reference: live entries sorted by (deadline, insertion number).
        var reference: [(deadline: Int64, order: Int, id: Int)] = []
        var handles: [DeadlineHeap<Int>.Handle] = []
        for step in 0..<4_000 {
            switch random.next(below: 10) {
            case 0..<5:
                // Few distinct deadlines, so ties are common.
                let deadline = random.next(in: 0...40)
                let id = handles.count
                handles.append(heap.insert(deadline: deadline, payload: id))
                let index = reference.firstIndex { ($0.deadline, $0.order) > (deadline, id) } ?? reference.count
                reference.insert((deadline, id, id), at: index)
            case 5..<7 where !handles.isEmpty:
                let id = Int(random.next(below: UInt64(handles.count)))
                let expected = reference.firstIndex { $0.id == id }.map { reference.remove(at: $0).id }
                #expect(heap.remove(handles[id]) == expected, "step \(step): remove \(id)")
            default:
                let limit = random.next(in: -5...45)
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
