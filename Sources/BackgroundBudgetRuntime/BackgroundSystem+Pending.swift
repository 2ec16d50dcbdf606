/// What a system still has outstanding, read under its lock for the test kit's
/// `expectNothingPending()`. Package access only: it names the shell's and the core's internals.
import BackgroundBudgetCore
import BudgetClock
import BudgetTime

extension BackgroundSystem {
    /// One outstanding item, as the test kit reports it.
    package enum PendingItem: Sendable, Hashable {
        /// Work armed on the system's clock that is not one of the system's own timers (user work on a
        /// ``VirtualClock``): how many, and the earliest instant among all the clock's deadlines.
        case clockDeadlines(count: Int, next: BudgetInstant?)
        /// One of the system's own timers for an app (allowance, watchdog, event window, …), by name.
        case timer(AppID, name: String)
        /// A finite background task begun and not yet ended.
        case openBackgroundTask(AppID, BackgroundTaskIdentifier, name: String?)
        /// A `BGTaskScheduler` task handed to the app and not completed.
        case runningScheduledTask(AppID, identifier: String)
        /// A submitted `BGTaskScheduler` request that has not run yet.
        case pendingTaskRequest(AppID, identifier: String)
        /// A continued-processing request waiting in the system's queue.
        case queuedContinuedRequest(AppID, identifier: String)
        /// A background fetch started and not completed.
        case runningFetch(AppID)
        /// A continuous activity (audio, navigation, …) still running.
        case activity(AppID, BackgroundActivity)
        /// Work on the app's queue not yet started (held while the app is suspended).
        case queuedWork(AppID, count: Int, suspended: Bool)
        /// Deliveries and handler batches handed to the app's queue and not yet settled.
        case unsettledDeliveries(AppID, count: Int)
        /// System events held for the app until it next runs.
        case heldEvents(AppID, [BackgroundEvent])
        /// Notifications held (coalesced) for a suspended app.
        case heldNotifications(AppID, [SystemNotification])
    }

    /// Everything the system still has outstanding, in installation order per app, after the clock's
    /// foreign deadlines. Runs no app code; reads the system's state under its lock.
    package var pendingItems: [PendingItem] {
        let (items, systemTimers) = state.withLock { state -> ([PendingItem], Int) in
            var items: [PendingItem] = []
            var systemTimers = 0
            for id in state.installOrder {
                guard let record = state.core.records.first(where: { $0.manifest.id == id }) else { continue }
                // The core's tokens, not the shell's table: the table keeps a fired timer's handle until
                // it is re-armed, while a token is cleared as its timer fires or is disarmed.
                for timer in AppTimer.allCases where record.timerTokens[timer] != nil {
                    items.append(.timer(id, name: "\(timer)"))
                    systemTimers += 1
                }
                for (number, task) in (record.running?.finiteTasks.open ?? [:]).sorted(by: { $0.key < $1.key }) {
                    items.append(.openBackgroundTask(id, BackgroundTaskIdentifier(rawValue: number), name: task.name))
                }
                for (_, task) in (record.running?.taskRequests.running ?? [:]).sorted(by: { $0.key < $1.key }) {
                    items.append(.runningScheduledTask(id, identifier: task.identifier))
                }
                for pending in record.taskRequests.pending {
                    items.append(.pendingTaskRequest(id, identifier: pending.request.identifier))
                }
                for queued in state.core.continued.queue where queued.app == id {
                    items.append(.queuedContinuedRequest(id, identifier: queued.pending.request.identifier))
                }
                if record.running?.fetch != nil { items.append(.runningFetch(id)) }
                for activity in (record.running?.modes.activities ?? []).sorted(by: { $0.rawValue < $1.rawValue }) {
                    items.append(.activity(id, activity))
                }
                if let queue = state.handles[id]?.queue {
                    let (queued, suspended) = queue.state.withLock { ($0.queued, $0.suspended) }
                    if queued > 0 { items.append(.queuedWork(id, count: queued, suspended: suspended)) }
                }
                if record.inFlight > 0 { items.append(.unsettledDeliveries(id, count: record.inFlight)) }
                if !record.modes.queuedEvents.isEmpty { items.append(.heldEvents(id, record.modes.queuedEvents)) }
                if let queued = record.running?.notifications.queued, !queued.isEmpty { items.append(.heldNotifications(id, queued)) }
            }
            return (items, systemTimers)
        }
        guard let clock = clock as? VirtualClock else { return items }
        let foreign = clock.pendingCount - systemTimers
        guard foreign > 0 else { return items }
        return [.clockDeadlines(count: foreign, next: clock.nextDeadline)] + items
    }
}
