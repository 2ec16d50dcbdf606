import BudgetLock
import BackgroundBudgetRuntime

/// A scenario app's `BGTaskScheduler` launch handler: it works for `work`, then calls
/// `setTaskCompleted(success:)` with `result`; `never` (a `nil` result) never completes.
///
/// What its expiration handler does is ``onExpiration``: complete the task unsuccessfully (the
/// default with a result), stop the work and return without completing it (the default with
/// `progress` and no result: the system then terminates the app when a refresh's runtime ends, and
/// marks a processing task failed after its grace), or no handler at all (the default for `never`
/// without `progress`: the system marks the task completed unsuccessfully when it expires [S49]).
///
/// ```json
/// {"do": "registerTask", "identifier": "com.example.news.refresh", "result": "success", "work": 3}
/// {"do": "registerTask", "identifier": "com.example.news.refresh", "result": "never", "onExpiration": "ignore"}
/// ```
public struct ScenarioTaskHandler: Sendable, Hashable {
    /// What the task's expiration handler does.
    ///
    /// The set is closed, so this is a plain enum: a `switch` over it needs no `default`.
    public enum ExpirationResponse: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// It stops the work and completes the task unsuccessfully, as it should.
        case complete
        /// It stops the work and returns without completing the task.
        case ignore
        /// The app sets no expiration handler.
        case none

        /// The response's name.
        public var description: String { rawValue }
    }

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
    /// What the expiration handler does.
    public var onExpiration: ExpirationResponse

    /// Creates a handler behaviour.
    /// - Parameters:
    ///   - identifier: The identifier (or, for continued processing, the wildcard entry) to register.
    ///   - result: The success to report; `nil` for a task that never completes.
    ///   - work: How long the work takes.
    ///   - progressSteps: Steps of reported progress, with the work off the app's queue; `nil` for none.
    ///   - onExpiration: What the expiration handler does; `nil` for the default: ``ExpirationResponse/complete``
    ///     with a result, ``ExpirationResponse/ignore`` with progress steps and no result, and
    ///     ``ExpirationResponse/none`` otherwise.
    public init(identifier: String, result: Bool? = true, work: Duration = .zero, progressSteps: Int? = nil,
                onExpiration: ExpirationResponse? = nil) {
        self.identifier = identifier
        self.result = result
        self.work = work
        self.progressSteps = progressSteps
        self.onExpiration = onExpiration ?? (result != nil ? .complete : progressSteps != nil ? .ignore : .none)
    }

    /// Registers the handler; a refusal is recorded in the trace.
    func register(in application: Application) {
        let (result, work, steps, response) = (self.result, self.work, self.progressSteps, self.onExpiration)
        application.register(forTaskWithIdentifier: identifier) { [weak application] task in
            guard let application else { return }
            let stopped = application.system?.restorableCell(false) ?? RestorableCell(false)   // saved by the explorer's snapshots
            if response != .none {
                task.expirationHandler = {
                    stopped.withLock { $0 = true }
                    if response == .complete { task.setTaskCompleted(success: false) }
                }
            }
            if let steps {
                Self.work(task, for: work, in: steps, result: result, stopped: stopped, application: application)
                return
            }
            guard let result else { return }
            application.simulateWork(for: work)
            task.setTaskCompleted(success: result)
        }
    }

    /// Works off the app's queue in steps, reporting progress after each, until done or stopped by the
    /// expiration handler.
    private static func work(_ task: ScheduledTask, for work: Duration, in steps: Int, result: Bool?,
                             stopped: RestorableCell<Bool>, application: Application) {
        task.updateProgress(completedUnitCount: 0, totalUnitCount: Int64(steps))
        // Work started by one incarnation of the app dies with it.
        for step in 1...steps {
            application.runInBackground(after: work * step / steps) {
                guard !stopped.withLock({ $0 }) else { return }
                task.updateProgress(completedUnitCount: Int64(step), totalUnitCount: Int64(steps))
                if step == steps, let result { task.setTaskCompleted(success: result) }
            }
        }
    }
}
