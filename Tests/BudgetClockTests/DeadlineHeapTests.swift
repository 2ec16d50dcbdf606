import Testing
@testable import BudgetClock

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
            + MemoryLayout<Int32>.stride + MemoryLayout<UInt32>.stride + MemoryLayout<UInt64>.stride
            + MemoryLayout<(@Sendable () -> Void)?>.stride
        #expect(perEntry == 44)
        #expect(MemoryLayout<Heap.Handle>.size == 8)
    }

    @Test func equalDeadlinesStayFirstInFirstOutAcrossStaging() {
        let expected = (0..<30).map { "tie\($0)" }
        var heap = DeadlineHeap<String>(heapTarget: 2)
        for (index, name) in expected.enumerated() {
            heap.insert(deadline: 50, payload: name)
            heap.insert(deadline: Int64(100 + index), payload: "late\(index)")
            heap.insert(deadline: Int64(index), payload: "early\(index)")
        }
        #expect(!heap.stagedKeys.isEmpty, "the small target forced staging")
        heap.checkInvariants()
        let popped = drain(&heap)
        #expect(popped.filter { $0.hasPrefix("tie") } == expected)
        #expect(popped.prefix(30) == ArraySlice((0..<30).map { "early\($0)" }))
        #expect(popped.suffix(30) == ArraySlice((0..<30).map { "late\($0)" }))
    }

    @Test func stagedEntriesCanBeRemovedAndTheirHandlesGoStale() {
        var heap = DeadlineHeap<String>(heapTarget: 1)
        let handles = (0..<20).map { heap.insert(deadline: Int64(20 - $0), payload: "\(20 - $0)") }
        heap.checkInvariants()
        guard let staged = handles.first(where: { heap.positions[Int($0.slot)] >= DeadlineHeap<String>.stagedFlag }) else {
            Issue.record("nothing was staged")
            return
        }
        let name = heap.remove(staged)
        #expect(name != nil)
        #expect(heap.remove(staged) == nil)
        heap.checkInvariants()
        #expect(drain(&heap) == (1...20).map { "\($0)" }.filter { $0 != name })
    }

    @Test func quantileSampleIsNotFooledByPeriodicKeys() {
        // Every 100th key is huge: an evenly spaced sample of 64 out of 6,400 would see only those.
        let keys: [Int64] = (0..<6_400).map { $0 % 100 == 0 ? 1_000_000_000 : Int64($0) }
        let median = DeadlineHeap<Int>.sampledKey(of: keys, rank: 32)
        #expect(median < 1_000_000_000)
        #expect((1_000...5_400).contains(median), "median estimate \(median) of 0..<6400")
        #expect(DeadlineHeap<Int>.sampledKey(of: keys, rank: 32) == median, "deterministic")
    }

    /// A refill sorts all of staging into the run at once, so a bulk of inserts is sorted once,
    /// not once per pop, whatever order the deadlines arrived in.
    @Test(arguments: ["ascending", "descending", "sawtooth"])
    func drainingSortsABulkOfStagedEntriesOnceWhateverTheInsertionOrder(order: String) {
        let count = 20_000
        let deadlines: [Int64] = (0..<count).map { index in
            switch order {
            case "ascending": Int64(index)
            case "descending": Int64(count - index)
            default: Int64((index % 64) * 1_000 + index / 64)
            }
        }
        var heap = DeadlineHeap<Int>(heapTarget: 64)
        for (index, deadline) in deadlines.enumerated() {
            heap.insert(deadline: deadline, payload: index)
        }
        #expect(heap.keys.count <= 2 * DeadlineHeap<Int>.loadBatch, "loading keeps the heap small: \(heap.keys.count)")
        var merges = 0
        var previous = heap.runLive
        var last = Int64.min
        while let (deadline, _) = heap.popFirst(ifDueBy: .max) {
            #expect(deadline >= last)
            last = deadline
            if heap.runLive > previous {
                merges += 1
            }
            previous = heap.runLive
        }
        #expect(merges == 1, "\(merges) merges for one bulk")
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
            var heap = DeadlineHeap<Counted>(heapTarget: 3)
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

    @Test func sortingStagingAheadKeepsOrderForLaterInsertsEarlierAndLater() {
        // Expected: 10,000 scrambled inserts are mostly staged; sorted ahead, staging is empty and
        // nothing is loading; inserts before, among and after them still pop in (deadline, insertion)
        // order, ties included.
        var heap = DeadlineHeap<Int>()
        var random = SplitMix64(seed: 11)
        var reference: [(deadline: Int64, id: Int)] = []
        func insert(_ deadline: Int64) {
            reference.append((deadline, reference.count))
            heap.insert(deadline: deadline, payload: reference.count - 1)
        }
        for _ in 0..<10_000 { insert(1_000 + random.next(in: 0...5_000)) }
        #expect(heap.stagedKeys.count > 9_000)
        heap.mergeStagingAhead()
        #expect(heap.stagedKeys.isEmpty && !heap.loading && heap.runLive > 9_000)
        heap.checkInvariants()
        for _ in 0..<3_000 { insert(random.next(in: 0...8_000)) }
        heap.checkInvariants()
        let expected = reference.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }.map(\.id)
        var popped: [Int] = []
        while let (_, id) = heap.popFirst(ifDueBy: .max) { popped.append(id) }
        #expect(popped == expected)
        #expect(heap.isEmpty)
    }

    /// Random inserts, removals (live and stale handles) and pops, checked against a list sorted by
    /// `(deadline, sequence)` after every operation, with the invariants checked throughout. Small
    /// heap targets push most entries through staging, spills and refills.
    @Test(arguments: [(1, 1 << 15), (2, 1 << 15), (3, 1), (4, 2), (5, 5), (6, 16), (7, 64)] as [(UInt64, Int)])
    func randomOperationsMatchASortedReference(seed: UInt64, heapTarget: Int) {
        var random = SplitMix64(seed: seed)
        var heap = DeadlineHeap<Int>(heapTarget: heapTarget)
        // The reference: live entries sorted by (deadline, insertion number).
        var reference: [(deadline: Int64, order: Int, id: Int)] = []
        var handles: [DeadlineHeap<Int>.Handle] = []
        var now: Int64 = 0
        var sawStaging = false
        for step in 0..<4_000 {
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
                // An owner with time to spare sorts staging ahead; nothing observable changes.
                heap.mergeStagingAhead()
                #expect(heap.stagedKeys.isEmpty)
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
            sawStaging = sawStaging || !heap.stagedKeys.isEmpty
        }
        #expect(sawStaging, "staging is exercised at every target (while loading, at least)")
        let rest = (0..<heap.count).compactMap { _ in heap.popFirst(ifDueBy: .max)?.payload }
        #expect(rest == reference.map(\.id))
        #expect(heap.isEmpty)
    }
}
