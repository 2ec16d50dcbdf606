@testable import BackgroundBudget
@testable import BackgroundBudgetCore
@testable import BackgroundBudgetScenario
@testable import BudgetClock
@testable import JobBudgets
@testable import SavedState

/// A thread-safe list that `@Sendable` work appends to, so tests can assert the order work ran in.
final class TestLog<Element: Sendable>: Sendable {
    private let storage = LockedValue<[Element]>([])

    /// Appends one entry.
    func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    /// Everything appended so far, in order.
    var entries: [Element] {
        storage.withLock { $0 }
    }
}

extension VirtualClock {
    /// Schedules work that records `label` and the instant it ran at, as `"label@seconds"`.
    @discardableResult
    func scheduleRecording(_ label: String, at deadline: BudgetInstant, in log: TestLog<String>) -> ScheduledWork {
        schedule(at: deadline) { [unowned self] in log.append("\(label)@\(formatSeconds(self.now.nanoseconds))") }
    }
}
