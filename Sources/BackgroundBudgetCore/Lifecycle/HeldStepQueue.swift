/// The entries a delivery holds back, first in first out (``DeviceCore/HeldSteps``): taking the first
/// and adding at the back are O(1) amortized, however many callbacks a delivery has (a Home press
/// with thousands of scenes holds one group per scene callback). Taken groups leave a gap at the front
/// that is closed up once it is half the storage.
package struct HeldStepQueue: Sendable, ExpressibleByArrayLiteral, Sequence {
    /// The groups; those before `head` were taken.
    private var storage: [DeviceCore.HeldSteps] = []
    /// The index of the first group not taken.
    private var head = 0

    /// A queue holding `elements` in order.
    package init(arrayLiteral elements: DeviceCore.HeldSteps...) {
        storage = elements
    }

    /// The first group, if any.
    package var first: DeviceCore.HeldSteps? { head < storage.count ? storage[head] : nil }

    /// Whether nothing is held.
    package var isEmpty: Bool { head == storage.count }

    /// How many groups are held.
    package var count: Int { storage.count - head }

    /// Takes the first group away; nothing when empty.
    package mutating func removeFirst() {
        guard head < storage.count else { return }
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }

    /// Adds a group at the back.
    package mutating func append(_ group: DeviceCore.HeldSteps) { storage.append(group) }

    /// Adds groups at the back, in order.
    package static func += (queue: inout HeldStepQueue, groups: [DeviceCore.HeldSteps]) {
        queue.storage += groups
    }

    /// The last group's callback, if any group is held.
    package var lastCallback: DeviceCore.CallbackKey?? { isEmpty ? nil : .some(storage[storage.count - 1].callback) }

    /// Adds an entry to the last group (nothing when empty).
    package mutating func appendToLast(_ entry: TraceEvent) {
        guard !isEmpty else { return }
        storage[storage.count - 1].entries.append(entry)
    }

    /// The groups held, first to last (the explorer's state fingerprint reads them).
    package func makeIterator() -> ArraySlice<DeviceCore.HeldSteps>.Iterator {
        storage[head...].makeIterator()
    }
}

extension HeldStepQueue: CustomReflectable {
    /// The groups still held, first to last; groups already taken (kept until the storage is closed
    /// up) are left out, so two queues holding the same groups reflect alike.
    package var customMirror: Mirror {
        Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection)
    }
}
