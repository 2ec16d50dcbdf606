/// File locks, for the rule behind the termination code `0xdead10cc` [S22].
///
/// iOS kills an app that is suspended while it holds a file lock or an SQLite database lock — typically
/// on a database in an app group's shared container, which other processes wait on. Apple's advice is to
/// begin a background task before writing, so that the write finishes and the lock is released before
/// the app is suspended:
///
/// ```swift
/// func applicationDidEnterBackground(_ application: Application) {
///     let task = application.beginBackgroundTask(withName: "save")
///     application.acquireFileLock("group/shared.sqlite")
///     application.async {
///         save()
///         application.releaseFileLock("group/shared.sqlite")
///         application.endBackgroundTask(task)
///     }
/// }
/// ```
///
/// A lock does not keep the app running: when nothing else does, the app is suspended as usual, and if it
/// still holds a lock at that instant it is killed instead (``TerminationReason/fileLockHeldAtSuspension``,
/// `0xdead10cc`); the trace shows `fileLockAcquired`, `fileLockReleased` and the `exit`, and
/// ``BackgroundSystem/explain(_:)`` lists the locks a running app holds. Locks belong to the process: they
/// are gone when it ends.
extension Application {
    /// Takes a lock on a file (an `flock` or `fcntl` lock, or an SQLite database lock on it). Taking a
    /// lock the process already holds changes nothing; a suspended or ended process takes none.
    /// - Parameter path: The locked file, as the trace names it.
    public func acquireFileLock(_ path: String) {
        system?.decide(caller: self) { core, now in core.acquireFileLock(path, app: id, at: now) }
    }

    /// Releases the process's lock on a file; releasing a lock it does not hold changes nothing.
    /// - Parameter path: The file, as given to ``acquireFileLock(_:)``.
    public func releaseFileLock(_ path: String) {
        system?.decide(caller: self) { core, now in core.releaseFileLock(path, app: id, at: now) }
    }

    /// The files whose locks the process holds now, sorted; empty when it is not running.
    public var heldFileLocks: [String] {
        guard let system else { return [] }
        return system.state.withLock { $0.core.records[$0.core.slot(id)].heldFileLocks.sorted() }
    }
}
