import BudgetTime

/// A task handed to (or about to be handed to) the app's launch handler. The shell keeps the
/// ``ScheduledTask`` object the app sees, by the task's number.
package struct RunningScheduledTask: Sendable {
    /// The request's identifier.
    package private(set) var identifier: String
    /// The kind of request that started it.
    package private(set) var kind: TaskRequest.Kind
    /// When the task started.
    package private(set) var started: BudgetInstant
    /// Refresh: the expiration handler was called. Processing and continued processing: when the
    /// task expired.
    var expiredAt: BudgetInstant?
    /// Progress as last reported (``ScheduledTask/updateProgress(completedUnitCount:totalUnitCount:)``).
    package internal(set) var completed: Int64 = 0
    /// The total unit count last reported.
    package internal(set) var total: Int64 = 0
    /// What the system shows for a continued-processing task.
    package internal(set) var title = ""
    /// The subtitle the system shows for a continued-processing task.
    package internal(set) var subtitle = ""
    /// Whether the app has set the task's expiration handler, as the shell last reported it
    /// (``DeviceCore/scheduledTaskHandlerSet(app:task:set:)``). A task expiring without one is marked
    /// completed unsuccessfully at once, with no grace [S49].
    var hasExpirationHandler = false

    /// A task of `kind` started at `started`, not expired, with no progress.
    package init(identifier: String, kind: TaskRequest.Kind, started: BudgetInstant, expiredAt: BudgetInstant? = nil) {
        self.identifier = identifier
        self.kind = kind
        self.started = started
        self.expiredAt = expiredAt
    }

    /// The task's next deadline; `nil` for a continued-processing task that has not expired (it has no
    /// time limit). A refresh is warned ``BudgetPolicy/expirationWarningLead`` before its
    /// ``BudgetPolicy/fetchRuntime`` ends and killed at the end; a processing task expires at
    /// ``BudgetPolicy/processingTaskRuntimeCap``; an expired processing or continued-processing task is
    /// marked failed ``BudgetPolicy/expirationWarningLead`` after expiring. A task without an
    /// expiration handler never waits for these later deadlines: it ends when it expires.
    ///
    /// Several tasks in one launch share one time allotment [S58]: the runtime counts from
    /// `allotmentStart`, the start of the first task of the app's background run
    /// (``TaskRequestState/allotmentStart``), and from the task's own start when there is none.
    package func deadline(_ policy: BudgetPolicy, allotmentStart: BudgetInstant? = nil) -> BudgetInstant? {
        let start = allotmentStart ?? started
        switch kind {
        case .appRefresh:
            return start + policy.fetchRuntime - (expiredAt == nil ? policy.expirationWarningLead : .zero)
        case .processing:
            if let expired = expiredAt { return expired + policy.expirationWarningLead }
            return start + policy.processingTaskRuntimeCap
        case .continuedProcessing:
            return expiredAt.map { $0 + policy.expirationWarningLead }
        }
    }

    /// A task started at `started` for `request`, showing a continued-processing request's title and
    /// subtitle.
    init(_ request: TaskRequest, started: BudgetInstant) {
        self.init(identifier: request.identifier, kind: request.kind, started: started)
        if case .continuedProcessing(let options) = request.kind { (title, subtitle) = (options.title, options.subtitle) }
    }

    /// What the system does when the task's deadline passes.
    enum DeadlineAction: Equatable, Sendable {
        /// Call its expiration handler.
        case expire(TaskExpiryReason)
        /// Mark it completed unsuccessfully (its expiration handler was called and it did not finish).
        case finishUnfinished
        /// Terminate the app: a refresh not completed by the end of its runtime (`0x2182bad4`).
        case killApp
    }

    /// What happens at the task's deadline: a refresh is warned, then kills the app; a processing task
    /// expires at its cap; an expired processing or continued-processing task is marked failed; `nil`
    /// for a running continued-processing task (it has no deadline).
    var actionAtDeadline: DeadlineAction? {
        switch (kind, expiredAt) {
        case (.appRefresh, nil): .expire(.runtimeEnding)
        case (.appRefresh, _?): .killApp
        case (.processing, nil): .expire(.runtimeCap)
        case (.processing, _?), (.continuedProcessing, _?): .finishUnfinished
        case (.continuedProcessing, nil): nil
        }
    }

    /// Why a running processing task expires under `conditions`, checked in this order: the device is
    /// in use, external power it requires was lost, the network it requires was lost; `nil` while its
    /// conditions hold, for another kind of task, and for a task that already expired.
    func lostConditions(_ conditions: DeviceConditions) -> TaskExpiryReason? {
        guard expiredAt == nil, case .processing(let network, let power) = kind else { return nil }
        if !conditions.deviceIdle { return .deviceInUse }
        if power && !conditions.externalPower { return .externalPowerLost }
        if network && !conditions.networkAvailable { return .networkLost }
        return nil
    }

    /// The fraction of the work reported done, from 0 to 1 (0 while no total is known).
    var fractionCompleted: Double {
        total > 0 ? min(1, Double(completed) / Double(total)) : 0
    }
}
