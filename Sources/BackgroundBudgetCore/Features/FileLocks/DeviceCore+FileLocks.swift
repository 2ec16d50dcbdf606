import BudgetTime

/// File locks a process holds: an app suspended while it holds a file lock or an SQLite database
/// lock is killed with `0xdead10cc` [S22]. The lock does not keep the app running; ``apply(_:to:at:)``
/// turns the suspension of an app that holds one into a kill with
/// ``TerminationReason/fileLockHeldAtSuspension``.
extension DeviceCore {
    /// The app's process took a lock on the file at `path`: recorded once (taking a lock it already
    /// holds changes nothing). A process that is not running or is suspended runs no code, so nothing
    /// is taken then.
    package mutating func acquireFileLock(_ path: String, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].state.isExecuting, records[s].process.modify({ $0.heldFileLocks.insert(path).inserted }) == true else { return [] }
        record(.fileLockAcquired(path), app, now)
        return []
    }

    /// The app's process released its lock on the file at `path`; releasing a lock it does not hold
    /// changes nothing.
    package mutating func releaseFileLock(_ path: String, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].process.modify({ $0.heldFileLocks.remove(path) != nil }) == true else { return [] }
        record(.fileLockReleased(path), app, now)
        return []
    }
}
