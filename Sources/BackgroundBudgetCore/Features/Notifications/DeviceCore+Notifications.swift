import BudgetTime

/// Notifications for apps in memory: delivered at once to a running app, coalesced to
/// one per kind for a suspended one and delivered first when it runs [S73].
extension DeviceCore {
    /// Posts a notification to every app in memory: delivered now to running apps, coalesced for
    /// suspended ones.
    package mutating func post(_ notification: SystemNotification, at now: BudgetInstant) -> Decision<Void> {
        Decision(records.indices.flatMap { post(notification, toSlot: $0, at: now).effects })
    }

    /// Posts a notification to one app: delivered now if it runs, coalesced if it is suspended,
    /// nothing if it is not running.
    package mutating func post(_ notification: SystemNotification, toSlot s: Int, at now: BudgetInstant) -> Decision<Void> {
        let app = records[s].manifest.id
        switch records[s].state {
        case .notRunning:
            return []
        case .suspended:
            records[s].process.modify { $0.notifications.coalesce(notification) }
            record(.notificationQueued(notification), app, now)
            return []
        case .inactive, .active, .background:
            guard !records[s].isTerminating else { return [] }
            let incarnation = records[s].handOff()
            record(.notificationDelivered(notification), app, now)
            return [.deliverNotification(app, incarnation: incarnation, notification)]
        }
    }
}
