import BudgetTime

/// One app's notifications: those coalesced while it is suspended, and the recent
/// silent pushes that throttle the next ones.
///
/// The rules here are pure: ``DeviceCore`` orchestrates them in DeviceCore+Notifications.swift and
/// DeviceCore+Modes.swift.
package struct NotificationState: Sendable {
    /// Notifications queued while suspended, one per kind, in the order the kinds first arrived.
    package internal(set) var queued: [SystemNotification] = []
    /// When recent silent pushes were delivered, for throttling.
    var silentPushTimes: [BudgetInstant] = []
    /// A silent push delivered to the app in the background has not had its completion handler
    /// called yet: if the event window ends first, the app is terminated (`0x2182bad4`) [S63][S64].
    var pushAwaitingCompletion = false

    /// Nothing queued and no recent push.
    package init() {}

    /// Queues a notification for a suspended app: it replaces a queued one of the same kind (in that
    /// one's place), or joins the back [S73].
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
