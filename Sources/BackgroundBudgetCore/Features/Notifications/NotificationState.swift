import BudgetTime

/// One app's notifications: the recent silent pushes that throttle the next ones (kept across
/// launches), and, in the running process (``Running``), those coalesced while it is suspended.
///
/// The rules here are pure: ``DeviceCore`` orchestrates them in DeviceCore+Notifications.swift and
/// DeviceCore+Modes.swift.
package struct NotificationState: Sendable {
    /// When recent silent pushes were delivered, for throttling.
    var silentPushTimes: [BudgetInstant] = []

    /// No recent push.
    package init() {}

    /// Admits a silent push at `now` unless `limit` were admitted in the `window` before it [S64];
    /// pushes older than the window are forgotten either way.
    mutating func admitSilentPush(at now: BudgetInstant, window: Duration, limit: Int) -> Bool {
        let windowStart = now - window
        silentPushTimes.removeAll { $0 <= windowStart }
        guard silentPushTimes.count < limit else { return false }
        silentPushTimes.append(now)
        return true
    }
}

extension NotificationState {
    /// The notifications of the running process (``DeviceCore/RunningProcess/notifications``): they
    /// end with it.
    package struct Running: Sendable {
        /// Notifications queued while suspended, one per kind, in the order the kinds first arrived.
        package internal(set) var queued: [SystemNotification] = []
        /// A silent push delivered to the app in the background has not had its completion handler
        /// called yet: if the event window ends first, the app is terminated (`0x2182bad4`) [S63][S64].
        var pushAwaitingCompletion = false

        /// Nothing queued, no push awaiting completion.
        package init() {}

        /// Queues a notification for a suspended app: it replaces a queued one of the same kind (in
        /// that one's place), or joins the back [S73].
        mutating func coalesce(_ notification: SystemNotification) {
            if let index = queued.firstIndex(where: { $0.kind == notification.kind }) {
                queued[index] = notification
            } else {
                queued.append(notification)
            }
        }

        /// Takes the queued notifications, in order.
        mutating func takeQueued() -> [SystemNotification] {
            let notifications = queued
            queued.removeAll()
            return notifications
        }

        /// Takes the mark of a silent push awaiting completion: whether one was.
        mutating func takePushAwaitingCompletion() -> Bool {
            defer { pushAwaitingCompletion = false }
            return pushAwaitingCompletion
        }
    }
}
