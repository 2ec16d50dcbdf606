import BudgetTime

extension DeviceCore {
    /// Notes that the app's observers of a notification the system posted ran: recorded as
    /// ``TraceEvent/Kind/notificationObserved(_:observers:)`` when at least one did. Decides nothing
    /// else. The shell calls it from the app's code, fenced: a process that has ended records nothing.
    /// - Parameters:
    ///   - name: The notification's name, e.g. `UIApplicationWillResignActiveNotification`.
    ///   - observers: How many observers ran.
    ///   - app: The app.
    ///   - now: The instant.
    package mutating func notificationObserved(_ name: String, observers: Int, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        guard observers > 0, records[slot(app)].isRunning else { return [] }
        record(.notificationObserved(name, observers: observers), app, now)
        return []
    }
}
