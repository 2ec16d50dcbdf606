/// The suspended apps in the order jetsam purges them: by ``MemoryState/purgeRank(_:)`` (the
/// policy's order within the band), then by install order, kept as a binary heap with each app's
/// place recorded, so the next victim is known in O(1) and a change costs O(log n).
///
/// ``DeviceCore`` updates it wherever an app's state, footprint or last use changes (see
/// ``DeviceCore/purgeOrderChanged(_:)``); ``DeviceCore/purgeVictimRecomputed`` is the scan it
/// replaces, for checks.
package struct PurgeOrder: Sendable {
    /// One suspended app: its rank and its slot in ``DeviceCore/records``.
    private struct Entry: Sendable {
        var rank: (Int64, Int64)
        var slot: Int32

        /// Earlier rank first, then the earlier installed app.
        func precedes(_ other: Entry) -> Bool {
            rank != other.rank ? rank < other.rank : slot < other.slot
        }
    }

    /// Heap-ordered: the children of index `i` are `2i+1` and `2i+2`.
    private var heap: [Entry] = []
    /// Per app slot: its index in `heap`, or -1 when the app is not a candidate.
    private var places: [Int32] = []

    /// No candidates.
    package init() {}

    /// The slot of the app to purge first, or `nil` when no app is suspended.
    /// - Complexity: O(1).
    package var first: Int? { heap.first.map { Int($0.slot) } }

    /// The number of candidates.
    package var count: Int { heap.count }

    /// Makes an app a candidate with a rank, moves it to a new rank, or (with `nil`) takes it out.
    /// - Complexity: O(log n).
    package mutating func set(_ slot: Int, rank: (Int64, Int64)?) {
        while places.count <= slot { places.append(-1) }
        let place = Int(places[slot])
        guard let rank else {
            if place >= 0 { remove(at: place) }
            return
        }
        let entry = Entry(rank: rank, slot: Int32(slot))
        if place >= 0 {
            heap[place] = entry
            siftDown(siftUp(place))
        } else {
            heap.append(entry)
            places[slot] = Int32(heap.count - 1)
            siftUp(heap.count - 1)
        }
    }

    private mutating func remove(at place: Int) {
        places[Int(heap[place].slot)] = -1
        let last = heap.removeLast()
        guard place < heap.count else { return }
        heap[place] = last
        places[Int(last.slot)] = Int32(place)
        siftDown(siftUp(place))
    }

    /// Moves the entry at `index` towards the root while it precedes its parent; returns where it stops.
    @discardableResult
    private mutating func siftUp(_ index: Int) -> Int {
        var index = index
        while index > 0 {
            let parent = (index - 1) / 2
            guard heap[index].precedes(heap[parent]) else { break }
            swapEntries(index, parent)
            index = parent
        }
        return index
    }

    /// Moves the entry at `index` towards the leaves while a child precedes it.
    private mutating func siftDown(_ index: Int) {
        var index = index
        while true {
            let left = 2 * index + 1
            guard left < heap.count else { return }
            let right = left + 1
            let child = right < heap.count && heap[right].precedes(heap[left]) ? right : left
            guard heap[child].precedes(heap[index]) else { return }
            swapEntries(index, child)
            index = child
        }
    }

    private mutating func swapEntries(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        places[Int(heap[a].slot)] = Int32(a)
        places[Int(heap[b].slot)] = Int32(b)
    }

    /// Traps unless the heap is in order and every place is recorded. For tests; O(n).
    package func checkInvariants() {
        for index in heap.indices {
            precondition(Int(places[Int(heap[index].slot)]) == index, "slot \(heap[index].slot) records the wrong place")
            if index > 0 { precondition(!heap[index].precedes(heap[(index - 1) / 2]), "index \(index) precedes its parent") }
        }
        precondition(places.filter { $0 >= 0 }.count == heap.count, "places name apps that are not candidates")
    }
}

extension PurgeOrder: CustomReflectable {
    /// The candidates' slots in the order they would be purged: what the order means, without the
    /// heap's layout or the ranks' absolute instants (which the apps' own records carry), so two
    /// orders that purge alike reflect alike, as the explorer's reflection fingerprint needs.
    package var customMirror: Mirror {
        let order = heap.sorted { $0.precedes($1) }.map { Int($0.slot) }
        return Mirror(self, unlabeledChildren: order, displayStyle: .collection)
    }
}
