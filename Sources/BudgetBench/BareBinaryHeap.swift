/// The least a deadline store can be, for the hold comparison only: a binary min-heap over two
/// parallel arrays (deadlines and slot numbers), no lock, no payloads, no cancellation and no
/// order among equal deadlines. What ``VirtualClock`` pays beyond it is its lock, its payloads,
/// cancellation by handle and first-in first-out ties.
struct BareBinaryHeap {
    private var deadlines: [Int64] = []
    private var slots: [UInt32] = []

    /// The number of entries.
    var count: Int { deadlines.count }

    /// Adds a slot due at a deadline.
    mutating func push(_ deadline: Int64, _ slot: UInt32) {
        var hole = deadlines.count
        deadlines.append(deadline)
        slots.append(slot)
        while hole > 0 {
            let parent = (hole &- 1) >> 1
            guard deadline < deadlines[parent] else { break }
            deadlines[hole] = deadlines[parent]
            slots[hole] = slots[parent]
            hole = parent
        }
        deadlines[hole] = deadline
        slots[hole] = slot
    }

    /// Removes and returns the earliest entry; the heap must not be empty.
    mutating func pop() -> (deadline: Int64, slot: UInt32) {
        let first = (deadlines[0], slots[0])
        let deadline = deadlines.removeLast(), slot = slots.removeLast()
        let count = deadlines.count
        guard count > 0 else { return first }
        var hole = 0
        while true {
            var child = (hole << 1) &+ 1
            guard child < count else { break }
            if child &+ 1 < count && deadlines[child &+ 1] < deadlines[child] { child &+= 1 }
            guard deadlines[child] < deadline else { break }
            deadlines[hole] = deadlines[child]
            slots[hole] = slots[child]
            hole = child
        }
        deadlines[hole] = deadline
        slots[hole] = slot
        return first
    }
}
