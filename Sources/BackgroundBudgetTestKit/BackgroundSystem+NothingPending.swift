import BackgroundBudgetRuntime
#if canImport(Testing)
import Testing
#endif

extension BackgroundSystem {
    /// What the system still has outstanding, except what `allowances` allow: armed deadlines on its
    /// ``/BudgetClock/VirtualClock`` (its own timers by app, the test's own work counted), open finite tasks,
    /// running and submitted `BGTaskScheduler` tasks, running fetches and activities, work queued on
    /// app queues and not run, deliveries not settled, events and notifications held for later.
    ///
    /// ```swift
    /// #expect(system.pendingWork().isEmpty)
    /// ```
    public func pendingWork(allowing allowances: [PendingWork.Allowance] = []) -> [PendingWork] {
        pendingItems.map(PendingWork.init).filter { item in !allowances.contains { $0.allows(item) } }
    }

    /// Throws when anything is outstanding that `allowances` do not allow.
    ///
    /// ```swift
    /// try system.checkNothingPending(allowing: [.heldWork(of: app)])
    /// ```
    /// - Throws: ``PendingWorkError`` listing every outstanding item.
    public func checkNothingPending(allowing allowances: [PendingWork.Allowance] = []) throws(PendingWorkError) {
        let items = pendingWork(allowing: allowances)
        if !items.isEmpty { throw PendingWorkError(items: items) }
    }

    #if canImport(Testing)
    /// Records one issue per outstanding item that `allowances` do not allow, at the caller: call it at
    /// the end of a test, as swift-clocks' `checkSuspension` is used, but without waiting.
    ///
    /// ```swift
    /// clock.advance(by: .seconds(60))
    /// system.expectNothingPending()
    /// ```
    /// - Returns: Whether nothing was outstanding.
    @discardableResult
    public func expectNothingPending(allowing allowances: [PendingWork.Allowance] = [],
                                     sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let items = pendingWork(allowing: allowances)
        for item in items {
            Issue.record(Comment(rawValue: "Still pending: \(item)"), sourceLocation: sourceLocation)
        }
        return items.isEmpty
    }
    #endif
}

extension PendingWork {
    /// Describes an item the system reported.
    init(_ item: BackgroundSystem.PendingItem) {
        switch item {
        case .clockDeadlines(let count, let next):
            self.init(kind: .clockDeadline, app: nil,
                      description: "clock: \(count) deadline\(count == 1 ? "" : "s") armed\(next.map { ", next at \($0)" } ?? "")")
        case .timer(let app, let name):
            self.init(kind: .timer, app: app, description: "\(app): \(name) timer armed")
        case .openBackgroundTask(let app, let task, let name):
            self.init(kind: .openBackgroundTask, app: app,
                      description: "\(app): open background task \(task.rawValue)\(name.map { " \"\($0)\"" } ?? "")")
        case .runningScheduledTask(let app, let identifier):
            self.init(kind: .runningScheduledTask, app: app, description: "\(app): scheduled task \(identifier) running")
        case .pendingTaskRequest(let app, let identifier):
            self.init(kind: .pendingTaskRequest, app: app, description: "\(app): task request \(identifier) submitted, not run")
        case .queuedContinuedRequest(let app, let identifier):
            self.init(kind: .queuedContinuedRequest, app: app,
                      description: "\(app): continued-processing request \(identifier) waiting")
        case .runningFetch(let app):
            self.init(kind: .runningFetch, app: app, description: "\(app): background fetch not completed")
        case .activity(let app, let activity):
            self.init(kind: .activity, app: app, description: "\(app): activity \(activity) running")
        case .queuedWork(let app, let count, let suspended):
            self.init(kind: .queuedWork, app: app,
                      description: "\(app): \(count) item\(count == 1 ? "" : "s") on its queue not run\(suspended ? " (suspended)" : "")")
        case .unsettledDeliveries(let app, let count):
            self.init(kind: .unsettledDelivery, app: app,
                      description: "\(app): \(count) deliver\(count == 1 ? "y" : "ies") not settled")
        case .heldEvents(let app, let events):
            self.init(kind: .heldEvents, app: app,
                      description: "\(app): events held: \(events.map(\.description).joined(separator: ", "))")
        case .heldNotifications(let app, let notifications):
            self.init(kind: .heldNotifications, app: app,
                      description: "\(app): notifications held: \(notifications.map(\.description).joined(separator: ", "))")
        }
    }
}
