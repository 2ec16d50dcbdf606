/// A continued-processing request waiting in the system's queue.
package struct QueuedContinuedRequest: Sendable {
    /// The app that submitted it.
    package private(set) var app: AppID
    /// The request and when it was submitted.
    package internal(set) var pending: PendingTaskRequest

    /// A request of `app` waiting in the queue.
    package init(app: AppID, pending: PendingTaskRequest) {
        self.app = app
        self.pending = pending
    }

    /// Whether it is `app`'s request with `identifier` (any identifier when `nil`).
    package func matches(_ app: AppID, _ identifier: String?) -> Bool {
        self.app == app && (identifier == nil || pending.request.identifier == identifier)
    }
}
