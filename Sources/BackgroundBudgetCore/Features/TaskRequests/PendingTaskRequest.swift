import BudgetTime

/// A submitted `BGTaskScheduler` request not yet run.
package struct PendingTaskRequest: Sendable {
    /// The request as the app submitted it.
    package private(set) var request: TaskRequest
    /// When the app submitted it.
    var submittedAt: BudgetInstant

    /// A request submitted at `submittedAt`.
    package init(request: TaskRequest, submittedAt: BudgetInstant) {
        self.request = request
        self.submittedAt = submittedAt
    }

    /// The instant before which the request may not run: a refresh waits for its earliest begin date
    /// and ``BudgetPolicy/minimumFetchInterval`` after submission; a processing request for its
    /// earliest begin date; a continued-processing request for nothing [S47].
    package func notBefore(_ policy: BudgetPolicy) -> BudgetInstant {
        let earliest = request.earliestBeginDate ?? submittedAt
        switch request.kind {
        case .appRefresh: return max(earliest, submittedAt + policy.minimumFetchInterval)
        case .processing: return earliest
        case .continuedProcessing: return submittedAt   // the earliest begin date is ignored [S47]
        }
    }
}
