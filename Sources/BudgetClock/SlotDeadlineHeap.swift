/// A ``DeadlineHeap`` whose payloads are 32-bit slot numbers into a caller's own table, compiled in
/// this module.
///
/// `DeadlineHeap` is generic and not inlinable, so a client in another module that used
/// `DeadlineHeap<UInt32>` directly would run its unspecialised code, which looks up generic metadata
/// on every call (the *Performance* article has what that cost). This wrapper's methods are compiled
/// here, for `UInt32`, and so specialised.
package struct SlotDeadlineHeap: Sendable {
    /// Identifies one inserted entry; stops matching once that entry has left.
    package typealias Handle = DeadlineHeap<UInt32>.Handle

    private var heap = DeadlineHeap<UInt32>()

    /// Creates an empty heap.
    package init() {}

    /// The number of entries. O(1).
    package var count: Int { heap.count }

    /// The earliest deadline, or `nil` when there are no entries. O(1).
    package var peekDeadline: Int64? { heap.peekDeadline }

    /// Adds a slot due at a deadline; see ``DeadlineHeap/insert(deadline:payload:)``.
    @discardableResult
    package mutating func insert(deadline: Int64, payload: UInt32) -> Handle {
        heap.insert(deadline: deadline, payload: payload)
    }

    /// Removes the entry a handle names; see ``DeadlineHeap/remove(_:)``.
    @discardableResult
    package mutating func remove(_ handle: Handle) -> UInt32? {
        heap.remove(handle)
    }

    /// Removes and returns the earliest entry if it is due by `limit`; see
    /// ``DeadlineHeap/popFirst(ifDueBy:)``.
    package mutating func popFirst(ifDueBy limit: Int64) -> (deadline: Int64, payload: UInt32)? {
        heap.popFirst(ifDueBy: limit)
    }

    /// Removes every entry; handles issued so far all become stale.
    package mutating func removeAll() {
        heap.removeAll()
    }
}
