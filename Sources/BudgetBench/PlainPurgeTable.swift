import BackgroundBudget

/// The plain alternative to the system's purge under memory pressure that a skeptic would write,
/// for comparison only: a locked dictionary from app to footprint of the suspended apps, and a
/// binary max-heap of `(footprint, app)` with lazy deletion (an entry whose app has left the
/// dictionary is dropped when it reaches the top). Lowering the capacity pops the largest apps until
/// the memory in use fits, as the system's default order (largest footprint first) does.
final class PlainPurgeTable: Sendable {
    private struct State {
        var footprints: [Int: Int] = [:]
        var heap: [(footprint: Int, app: Int)] = []
        var inUse = 0

        mutating func siftDown(from start: Int) {
            var index = start
            while true {
                let left = 2 * index + 1
                guard left < heap.count else { return }
                var best = left
                if left + 1 < heap.count && heap[left + 1].footprint > heap[left].footprint { best = left + 1 }
                guard heap[best].footprint > heap[index].footprint else { return }
                heap.swapAt(index, best)
                index = best
            }
        }

        /// Pops the largest app still suspended, or `nil` when none is.
        mutating func popLargest() -> Int? {
            while let top = heap.first {
                let last = heap.removeLast()
                if !heap.isEmpty {
                    heap[0] = last
                    siftDown(from: 0)
                }
                if footprints[top.app] == top.footprint { return top.app }
            }
            return nil
        }

        mutating func remove(_ app: Int) -> Bool {
            guard let footprint = footprints.removeValue(forKey: app) else { return false }
            inUse -= footprint
            return true
        }
    }

    private let state = LockedValue(State())

    /// A table of suspended apps `0..<footprints.count` with these footprints, heapified at once.
    init(footprints: [Int]) {
        state.withLock { state in
            for (app, footprint) in footprints.enumerated() {
                state.footprints[app] = footprint
                state.heap.append((footprint, app))
                state.inUse += footprint
            }
            for index in stride(from: state.heap.count / 2 - 1, through: 0, by: -1) { state.siftDown(from: index) }
        }
    }

    /// The footprints of the suspended apps, added up.
    var memoryInUse: Int { state.withLock { $0.inUse } }

    /// Purges the largest suspended apps until the memory in use fits `bytes`; returns how many.
    @discardableResult
    func setMemoryCapacity(_ bytes: Int) -> Int {
        state.withLock { state in
            var purged = 0
            while state.inUse > bytes, let app = state.popLargest() {
                _ = state.remove(app)
                purged += 1
            }
            return purged
        }
    }

    /// Purges a named app; `false` if it was not suspended.
    @discardableResult
    func purge(_ app: Int) -> Bool {
        state.withLock { $0.remove(app) }
    }
}
