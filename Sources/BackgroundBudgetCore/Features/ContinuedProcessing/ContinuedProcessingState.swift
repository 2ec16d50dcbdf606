/// The device's continued-processing tasks ([S46][S47]): one device-wide queue of
/// requests waiting to start, the tasks running (at most the policy's limit), and the conditions that
/// stop tasks starting.
///
/// The rules here are pure: ``DeviceCore`` orchestrates them in DeviceCore+ContinuedProcessing.swift.
package struct ContinuedProcessingState: Sendable {
    /// Continued-processing requests waiting for the system to start them, first in first out.
    package internal(set) var queue: [QueuedContinuedRequest] = []
    /// The running continued-processing tasks, in start order (at most the policy's limit).
    package internal(set) var running: [(app: AppID, number: UInt64)] = []
    /// While set, no continued-processing task starts.
    package internal(set) var systemUnderLoad = false
    /// Whether the device supports background GPU use (`BGTaskScheduler.supportedResources`).
    var supportsBackgroundGPU = false

    /// Nothing queued or running, not under load, no background GPU.
    package init() {}

    /// Whether a task may start now: the system is not under load and fewer than `limit` run.
    func canStart(limit: Int) -> Bool {
        !systemUnderLoad && running.count < limit
    }

    /// Where `app`'s request with `identifier` waits in the queue, if it does.
    package func position(of app: AppID, _ identifier: String) -> Int? {
        queue.firstIndex { $0.matches(app, identifier) }
    }

    /// Puts a request at the back of the queue, replacing (removing) the app's queued one with its
    /// identifier.
    package mutating func enqueue(_ request: QueuedContinuedRequest) {
        removeQueued(of: request.app, request.pending.request.identifier)
        queue.append(request)
    }

    /// Removes `app`'s queued requests with `identifier` (all when `nil`) and returns them in queue
    /// order.
    @discardableResult
    mutating func removeQueued(of app: AppID, _ identifier: String?) -> [QueuedContinuedRequest] {
        let removed = queue.filter { $0.matches(app, identifier) }
        if !removed.isEmpty { queue.removeAll { $0.matches(app, identifier) } }
        return removed
    }

    /// A task started: it counts against the limit.
    package mutating func started(_ app: AppID, _ number: UInt64) {
        running.append((app, number))
    }

    /// A task ended: it no longer counts against the limit.
    mutating func forget(_ app: AppID, _ number: UInt64) {
        if let index = running.firstIndex(where: { $0.app == app && $0.number == number }) {
            running.remove(at: index)
        }
    }

    /// The app's process ended: its tasks no longer count.
    mutating func forgetAll(of app: AppID) {
        if !running.isEmpty { running.removeAll { $0.app == app } }
    }
}
