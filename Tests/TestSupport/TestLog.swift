import BudgetLock
import BudgetTime
import BudgetClock

/// A thread-safe list that `@Sendable` work appends to, so tests can assert the order work ran in.
package final class TestLog<Element: Sendable>: Sendable {
    private let storage = LockedValue<[Element]>([])

    /// An empty log.
    package init() {}

    /// Appends one entry.
    package func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    /// Everything appended so far, in order.
    package var entries: [Element] {
        storage.withLock { $0 }
    }
}

extension VirtualClock {
    /// Schedules work that records `label` and the instant it ran at, as `"label@seconds"`.
    @discardableResult
    package func scheduleRecording(_ label: String, at deadline: BudgetInstant, in log: TestLog<String>) -> ScheduledWork {
        schedule(at: deadline) { [unowned self] in log.append("\(label)@\(formatSeconds(self.now.nanoseconds))") }
    }
}
