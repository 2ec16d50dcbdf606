import BackgroundBudget

/// A scenario app's `BGTaskScheduler` launch handler: it works for `work`, then calls
/// `setTaskCompleted(success:)` with `result`; `never` (a `nil` result) never completes, so the system
/// terminates it (refresh) or marks it failed (processing). With a result, its expiration handler
/// completes the task unsuccessfully at once.
///
/// ```json
/// {"do": "registerTask", "identifier": "com.example.news.refresh", "result": "success", "work": 3}
/// ```
public struct ScenarioTaskHandler: Sendable, Hashable {
    /// The task identifier.
    public var identifier: String
    /// The success to report; `nil` for a task that never completes.
    public var result: Bool?
    /// How long the work takes.
    public var work: Duration
    /// When set, the work runs off the app's queue (as an export on a background thread would) in
    /// this many equal steps, reporting progress after each (`updateProgress`); the task's expiration
    /// stops it. When `nil`, the handler works on the app's queue.
    public var progressSteps: Int?

    /// Creates a handler behaviour.
    /// - Parameters:
    ///   - identifier: The identifier (or, for continued processing, the wildcard entry) to register.
    ///   - result: The success to report; `nil` for a task that never completes.
    ///   - work: How long the work takes.
    ///   - progressSteps: Steps of reported progress, with the work off the app's queue; `nil` for none.
    public init(identifier: String, result: Bool? = true, work: Duration = .zero, progressSteps: Int? = nil) {
        self.identifier = identifier
        self.result = result
        self.work = work
        self.progressSteps = progressSteps
    }

    /// Registers the handler; a refusal is recorded in the trace.
    func register(in application: Application) {
        let (result, work, steps) = (self.result, self.work, self.progressSteps)
        application.register(forTaskWithIdentifier: identifier) { [weak application] task in
            guard let application else { return }
            if let steps {
                Self.work(task, for: work, in: steps, result: result, application: application)
                return
            }
            guard let result else { return }
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            application.simulateWork(for: work)
            task.setTaskCompleted(success: result)
        }
    }

    /// Works off the app's queue in steps, reporting progress after each, until done or expired.
    private static func work(_ task: ScheduledTask, for work: Duration, in steps: Int, result: Bool?,
                             application: Application) {
        let stopped = LockedValue(false)
        task.expirationHandler = {
            stopped.withLock { $0 = true }
            // A task that never completes does not complete on expiry either.
            if result != nil { task.setTaskCompleted(success: false) }
        }
        task.updateProgress(completedUnitCount: 0, totalUnitCount: Int64(steps))
        // Work started by one incarnation of the app dies with it.
        for step in 1...steps {
            application.runLater(after: work * step / steps) {
                guard !stopped.withLock({ $0 }) else { return }
                task.updateProgress(completedUnitCount: Int64(step), totalUnitCount: Int64(steps))
                if step == steps, let result { task.setTaskCompleted(success: result) }
            }
        }
    }
}
