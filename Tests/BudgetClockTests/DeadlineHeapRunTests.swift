import Testing
@testable import BudgetClock

/// The bulk path of ``DeadlineHeap``: inserts while loading go to staging, a refill sorts staging
/// into the run, and pops, cancels and new inserts then mix the run with the heap.
@Suite struct DeadlineHeapRunTests {
    @Test func sortedOrderPutsTiesBackInInsertionOrderWhateverTheStagingOrder() {
        // Staging order is not insertion order once entries are unstaged or spilled.
        let keys: [Int64] = (0..<500).map { Int64(($0 * 7919) % 13) - 6 }
        let owners: [UInt32] = (0..<500).map { UInt32(499 - $0) }
        let sequences: [UInt64] = (0..<500).map { UInt64($0 * 3) }
        let (order, sorted) = DeadlineHeap<Int>.sortedOrder(keys: keys, owners: owners, sequences: sequences)
        let expected = (0..<500).sorted { (keys[$0], sequences[Int(owners[$0])]) < (keys[$1], sequences[Int(owners[$1])]) }
        #expect(order.map(Int.init) == expected)
        #expect(sorted == expected.map { keys[$0] })
    }

    @Test func sortedOrderHandlesTheWholeRangeOfDeadlines() {
        var random = SplitMix64(seed: 3)
        var keys: [Int64] = (0..<1_000).map { _ in Int64(bitPattern: random.next()) }
        keys += [.min, .max, 0, -1, .max, .min]
        let owners = (0..<UInt32(keys.count)).map { $0 }
        let sequences = (0..<UInt64(keys.count)).map { $0 }
        let (order, sorted) = DeadlineHeap<Int>.sortedOrder(keys: keys, owners: owners, sequences: sequences)
        #expect(sorted == keys.sorted())
        #expect(order.map { keys[Int($0)] } == sorted)
        #expect(Set(order).count == keys.count)
    }

    /// A bulk load (ties, cancels of staged entries), a drain that builds the run, cancels in the run
    /// (its head included), then inserts and pops interleaved, some tying with run entries: all
    /// checked against a sorted reference, with the invariants checked throughout.
    @Test(arguments: [(11, 1), (12, 4), (13, 64), (14, 1 << 15)] as [(UInt64, Int)])
    func bulkThenCancelThenInterleaveMatchesASortedReference(seed: UInt64, heapTarget: Int) {
        var random = SplitMix64(seed: seed)
        var heap = DeadlineHeap<Int>(heapTarget: heapTarget)
        var reference: [(deadline: Int64, id: Int)] = []
        var handles: [DeadlineHeap<Int>.Handle] = []
        func insert(_ deadline: Int64) {
            let id = handles.count
            handles.append(heap.insert(deadline: deadline, payload: id))
            let index = reference.firstIndex { ($0.deadline, $0.id) > (deadline, id) } ?? reference.count
            reference.insert((deadline, id), at: index)
        }
        func cancel(_ id: Int) {
            let expected = reference.firstIndex { $0.id == id }.map { reference.remove(at: $0).id }
            #expect(heap.remove(handles[id]) == expected, "cancel \(id)")
        }
        func pop(by limit: Int64) {
            let expected = reference.first.flatMap { $0.deadline <= limit ? reference.removeFirst() : nil }
            let popped = heap.popFirst(ifDueBy: limit)
            #expect(popped?.payload == expected?.id, "pop by \(limit)")
            #expect(popped?.deadline == expected?.deadline)
        }
        // 1. Bulk load with many ties, then cancel a fifth of it (mostly staged entries).
        for _ in 0..<1_000 { insert(random.next(in: 0...200)) }
        #expect(heap.loading && !heap.stagedKeys.isEmpty)
        for _ in 0..<200 { cancel(Int(random.next(below: 1_000))) }
        heap.checkInvariants()
        // 2. The first pops sort staging into the run.
        for _ in 0..<50 { pop(by: .max) }
        while heap.runLive == 0 && !reference.isEmpty { pop(by: .max) }
        #expect(heap.runLive > 100, "the drain built a run")
        heap.checkInvariants()
        // 3. Cancel run entries, the head first.
        if let headID = heap.runPayloads[heap.runHead] { cancel(headID) }
        for _ in 0..<150 { cancel(Int(random.next(below: 1_000))) }
        heap.checkInvariants()
        // 4. Interleave: inserts around the run's deadlines (ties included), pops, cancels.
        var now: Int64 = reference.first?.deadline ?? 0
        for step in 0..<1_500 {
            switch random.next(below: 10) {
            case 0..<4: insert(now + random.next(in: 0...200))
            case 4..<6: cancel(Int(random.next(below: UInt64(handles.count))))
            default:
                now += random.next(in: 0...3)
                pop(by: now)
            }
            if step < 100 || step % 20 == 0 { heap.checkInvariants() }
            #expect(heap.count == reference.count, "step \(step)")
            #expect(heap.peekDeadline == reference.first?.deadline, "step \(step)")
        }
        let rest = (0..<heap.count).compactMap { _ in heap.popFirst(ifDueBy: .max)?.payload }
        #expect(rest == reference.map(\.id))
        #expect(heap.isEmpty && heap.loading, "an emptied structure loads again")
        heap.checkInvariants()
    }

    @Test func removeAllReleasesTheRun() {
        var heap = DeadlineHeap<Int>(heapTarget: 8)
        let handles = (0..<1_000).map { heap.insert(deadline: Int64(1_000 - $0), payload: $0) }
        #expect(heap.popFirst(ifDueBy: .max)?.payload == 999)
        while heap.runLive == 0, heap.popFirst(ifDueBy: .max) != nil {}
        #expect(heap.runLive > 0)
        heap.removeAll()
        heap.checkInvariants()
        #expect(heap.isEmpty && heap.runKeys.isEmpty)
        #expect(handles.allSatisfy { heap.remove($0) == nil })
    }

    /// A spill lowers the horizon; once the staged entry is cancelled and the heap drained, a late
    /// insert must still be found (not staged behind an empty heap, where no pop would reach it).
    @Test func anInsertAfterTheHeapAndStagingEmptiedIsStillPopped() {
        var heap = DeadlineHeap<String>(heapTarget: 1)
        heap.insert(deadline: 10, payload: "early")
        let late = heap.insert(deadline: 20, payload: "late")
        #expect(heap.stagedKeys.count == 1 && heap.horizon == 10, "the spill staged the later entry")
        #expect(heap.remove(late) == "late")
        #expect(heap.popFirst(ifDueBy: .max)?.payload == "early")
        heap.insert(deadline: 30, payload: "after")
        heap.checkInvariants()
        #expect(heap.peekDeadline == 30)
        #expect(heap.popFirst(ifDueBy: .max)?.payload == "after")
    }

    /// Keys spread over a range far wider than their number take the coarse sort (high digits, then
    /// an insertion pass); neighbours that differ only in the dropped low bits, and ties, still come
    /// out in `(key, sequence)` order.
    @Test func sortedOrderOnTheHighDigitsMatchesAFullSort() {
        var random = SplitMix64(seed: 5)
        var keys: [Int64] = (0..<3_000).map { _ in Int64(random.next(below: 1 << 43)) }
        keys += (0..<300).map { keys[$0] + Int64($0 % 3) }   // equal or low bits apart
        let owners: [UInt32] = (0..<UInt32(keys.count)).map { UInt32(keys.count) - 1 - $0 }
        let sequences: [UInt64] = (0..<UInt64(keys.count)).map { $0 * 5 }
        #expect(DeadlineHeap<Int>.sortedOrder(keys: keys, owners: owners, sequences: sequences, coarse: true) != nil)
        let (order, sorted) = DeadlineHeap<Int>.sortedOrder(keys: keys, owners: owners, sequences: sequences)
        let expected = keys.indices.sorted { (keys[$0], sequences[Int(owners[$0])]) < (keys[$1], sequences[Int(owners[$1])]) }
        #expect(order.map(Int.init) == expected)
        #expect(sorted == expected.map { keys[$0] })
    }

    /// Keys clustered within the bits the coarse sort drops (one far key widens the range) would
    /// make the insertion pass quadratic: it gives up, and every digit is sorted instead.
    @Test func sortedOrderSortsEveryDigitWhenKeysClusterBelowTheDroppedBits() {
        var keys: [Int64] = (0..<2_000).map { Int64(2_000 - $0) }
        keys.append(1 << 50)
        let owners = (0..<UInt32(keys.count)).map { $0 }
        let sequences = (0..<UInt64(keys.count)).map { $0 }
        #expect(DeadlineHeap<Int>.sortedOrder(keys: keys, owners: owners, sequences: sequences, coarse: true) == nil)
        let (order, sorted) = DeadlineHeap<Int>.sortedOrder(keys: keys, owners: owners, sequences: sequences)
        #expect(sorted == keys.sorted())
        #expect(order.map { keys[Int($0)] } == sorted)
    }

    /// The hold pattern (pop the earliest, insert one later) with class payloads: merges write into
    /// the run before last and reuse staging's storage, every payload is released exactly once
    /// (none leaked in a reused array, none released twice by a bitwise move), the order matches a
    /// sorted reference, and an emptied structure releases the kept storage.
    @Test func mergesReuseStorageAndReleaseEveryPayloadOnce() {
        final class Box { let id: Int; init(_ id: Int) { self.id = id } }
        var random = SplitMix64(seed: 21)
        var heap = DeadlineHeap<Box>(heapTarget: 16)
        var reference: [(deadline: Int64, id: Int)] = []
        var watched: [Int: () -> Bool] = [:]   // id -> whether its box is still alive
        var next = 0
        func insert(_ deadline: Int64) {
            let box = Box(next)
            watched[next] = { [weak box] in box != nil }
            heap.insert(deadline: deadline, payload: box)
            let index = reference.firstIndex { ($0.deadline, $0.id) > (deadline, next) } ?? reference.count
            reference.insert((deadline, next), at: index)
            next += 1
        }
        for _ in 0..<2_000 { insert(Int64(random.next(below: 100_000))) }
        var merges = 0
        var lastHead = heap.runHead
        for step in 0..<6_000 {
            let expected = reference.removeFirst()
            let popped = heap.popFirst(ifDueBy: .max)
            #expect(popped?.payload.id == expected.id && popped?.deadline == expected.deadline, "step \(step)")
            if heap.runHead < lastHead { merges += 1 }   // a merge starts the cursor again
            lastHead = heap.runHead
            insert(expected.deadline + Int64(random.next(in: 0...100_000)))
            if step % 500 == 0 { heap.checkInvariants() }
        }
        #expect(merges >= 2, "several merges ran")
        #expect(!heap.sparePayloads.isEmpty, "the run before last is kept for the next merge")
        heap.checkInvariants()
        let popped = Set(watched.keys).subtracting(reference.map(\.id))
        #expect(popped.allSatisfy { watched[$0]?() == false }, "a popped payload is still held")
        #expect(reference.allSatisfy { watched[$0.id]?() == true }, "a pending payload was released")
        while let entry = heap.popFirst(ifDueBy: .max) { #expect(entry.payload.id == reference.removeFirst().id) }
        #expect(reference.isEmpty && heap.isEmpty)
        #expect(watched.values.allSatisfy { $0() == false }, "a payload outlived the drain")
        #expect(heap.runPayloads.capacity == 0 && heap.sparePayloads.capacity == 0 && heap.stagedPayloads.capacity == 0,
                "an emptied structure keeps storage")
        heap.checkInvariants()
    }
}
