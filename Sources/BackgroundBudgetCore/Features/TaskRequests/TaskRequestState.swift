import BudgetTime

/// One app's `BGTaskScheduler` state the system keeps across launches: its pending requests and
/// where its request timer is armed. The identifiers registered, the running tasks and their time
/// allotment are the process's (``Running``).
///
/// The rules here are pure: ``DeviceCore`` orchestrates them in DeviceCore+TaskRequests.swift and
/// DeviceCore+ScheduledTasks.swift.
package struct TaskRequestState: Sendable {
    /// Submitted requests not yet run, in submission order (the system keeps them across launches).
    package internal(set) var pending: [PendingTaskRequest] = []
    /// Where the request timer is armed, if it is.
    var timerAt: BudgetInstant?

    /// Nothing pending.
    package init() {}

    // MARK: Pending requests

    /// How many other requests of the same class (refresh, or processing) are pending: a request
    /// replaces one with its identifier, so that one does not count.
    package func pendingCount(alongside request: TaskRequest) -> Int {
        pending.filter {
            $0.request.identifier != request.identifier && $0.request.kind.isProcessing == request.kind.isProcessing
        }.count
    }

    /// Adds a request at the back, replacing a pending one with its identifier.
    package mutating func submit(_ request: TaskRequest, at now: BudgetInstant) {
        pending.removeAll { $0.request.identifier == request.identifier }
        pending.append(PendingTaskRequest(request: request, submittedAt: now))
    }

    /// Removes the pending requests with `identifier` (all when `nil`) and returns them in order.
    package mutating func cancel(_ identifier: String?) -> [PendingTaskRequest] {
        let cancelled = pending.filter { identifier == nil || $0.request.identifier == identifier }
        pending.removeAll { identifier == nil || $0.request.identifier == identifier }
        return cancelled
    }

    /// The first instant after `now` at which a pending request's date passes, if any.
    func nextDate(after now: BudgetInstant, _ policy: BudgetPolicy) -> BudgetInstant? {
        var next: BudgetInstant?
        for request in pending {
            let start = request.notBefore(policy)
            if start > now, next.map({ start < $0 }) ?? true { next = start }
        }
        return next
    }

    /// Moves the request timer to `next`; `false` when it is already there.
    mutating func moveTimer(to next: BudgetInstant?) -> Bool {
        guard next != timerAt else { return false }
        timerAt = next
        return true
    }
}

extension TaskRequestState {
    /// The `BGTaskScheduler` state of the running process (``DeviceCore/RunningProcess/taskRequests``):
    /// the identifiers its launch handlers are registered for, its running tasks and their allotment.
    /// All of it ends with the process.
    package struct Running: Sendable {
        /// The identifiers `BGTaskScheduler` launch handlers are registered for in this process (the
        /// shell keeps the handlers by identifier).
        package internal(set) var registered: Set<String> = []
        /// Running `BGTaskScheduler` tasks by number; each holds the app in the background.
        package internal(set) var running: [UInt64: RunningScheduledTask] = [:]
        /// When the app's one time allotment for refresh and processing tasks began: the start of the
        /// first such task in its current background run. Several tasks in one launch share it [S58];
        /// `nil` until one starts, and again once the app leaves the background.
        var allotmentStart: BudgetInstant?

        /// Nothing registered or running.
        package init() {}

        /// Registers a launch handler's identifier; `false` when it already is (which kills the app).
        package mutating func register(_ identifier: String) -> Bool {
            registered.insert(identifier).inserted
        }

        /// The identifier a handler is registered for that runs `identifier`: the identifier itself, or
        /// the wildcard entry of `manifest` a continued-processing identifier matches.
        func handlerKey(for identifier: String, manifest: AppManifest) -> String? {
            if registered.contains(identifier) { return identifier }
            return manifest.continuedProcessingPattern(matching: identifier).flatMap { registered.contains($0) ? $0 : nil }
        }

        /// Whether a task with this identifier runs.
        func isRunning(_ identifier: String) -> Bool {
            running.values.contains { $0.identifier == identifier }
        }

        /// The earliest deadline of the running tasks, if any has one.
        func nextDeadline(_ policy: BudgetPolicy) -> BudgetInstant? {
            var next: BudgetInstant?
            for task in running.values {
                if let due = task.deadline(policy, allotmentStart: allotmentStart), next.map({ due < $0 }) ?? true { next = due }
            }
            return next
        }

        /// A refresh or processing task starts at `now`: the app's allotment begins now unless one
        /// already runs in this background run [S58]. A continued-processing task has no time limit and
        /// takes no part in it.
        mutating func taskStarted(_ kind: TaskRequest.Kind, at now: BudgetInstant) {
            guard !kind.isContinuedProcessing, allotmentStart == nil else { return }
            allotmentStart = now
        }

        /// Marks a running task expired at `now` and returns its identifier; `nil` when it does not run.
        package mutating func expire(_ number: UInt64, at now: BudgetInstant) -> String? {
            guard let identifier = running[number]?.identifier else { return nil }
            running[number]?.expiredAt = now
            return identifier
        }

        /// The numbers of the continued-processing tasks running with `identifier`, in start order.
        func continuedTasks(_ identifier: String) -> [UInt64] {
            running.filter { $0.value.identifier == identifier && $0.value.kind.isContinuedProcessing }.keys.sorted()
        }

        /// Records a running task's progress and returns its identifier; `nil` when it does not run.
        mutating func updateProgress(_ number: UInt64, completed: Int64, total: Int64) -> String? {
            guard let identifier = running[number]?.identifier else { return nil }
            running[number]?.completed = completed
            running[number]?.total = total
            return identifier
        }

        /// Changes the title and subtitle the system shows for a running task (nothing when it does not run).
        mutating func retitle(_ number: UInt64, title: String, subtitle: String) {
            running[number]?.title = title
            running[number]?.subtitle = subtitle
        }
    }
}
