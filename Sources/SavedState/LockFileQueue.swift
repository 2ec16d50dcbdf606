import Foundation

/// The line that the threads of one process wait in, in arrival order, before one of them goes on to
/// the lock file of a store name (``StateFileLock``).
///
/// The lock file serves processes in the order they take tickets, one ticket per process at a time:
/// with POSIX record locks (Darwin) a lock belongs to the process, so two of its threads could not
/// exclude each other there, nor be ordered. Queuing first makes the threads of one process take the
/// lock file one at a time, in the order they asked for it, without polling (they wait on a condition
/// variable). The line is keyed by what the store passes, the folder's device and inode and the lock
/// file's name (``StateStore/withLockFile(creatingFolder:_:)``), so every spelling of one folder
/// shares a line.
///
/// ```swift
/// guard let ticket = LockFileQueue.enter(key, until: deadline) else { /* timed out */ }
/// defer { LockFileQueue.leave(key, ticket: ticket) }
/// ```
enum LockFileQueue {
    /// Guards ``lines`` and ``lastTicket``.
    private static let condition = NSCondition()
    // Both are read and written only between `condition.lock()` and `condition.unlock()`, which
    // serialises every access, so no two threads touch them at once.
    /// The tickets waiting, and first the one holding, for each lock file's key.
    nonisolated(unsafe) private static var lines: [String: [UInt64]] = [:]
    /// The last ticket handed out.
    nonisolated(unsafe) private static var lastTicket: UInt64 = 0

    /// Joins the line for `path` and waits until first in it, or until `deadline`.
    ///
    /// - Parameters:
    ///   - path: The lock file's key (any string naming it: one line per string).
    ///   - deadline: When to give up; a deadline already passed takes the place only if the line
    ///     is empty.
    /// - Returns: The ticket to hand to ``leave(_:ticket:)``, or `nil` when the wait ran out (the
    ///   caller is then no longer in the line).
    static func enter(_ path: String, until deadline: ContinuousClock.Instant) -> UInt64? {
        condition.lock()
        defer { condition.unlock() }
        lastTicket &+= 1
        let ticket = lastTicket
        lines[path, default: []].append(ticket)
        while lines[path]?.first != ticket {
            let left = deadline - .now
            guard left > .zero else {
                remove(ticket, from: path)
                return nil
            }
            let (seconds, attoseconds) = left.components
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18))
        }
        return ticket
    }

    /// Leaves the line for `path`, letting the next thread in it go on.
    static func leave(_ path: String, ticket: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        remove(ticket, from: path)
    }

    /// Removes a ticket and wakes the waiters, one of which may now be first. Called with the
    /// condition's lock held.
    private static func remove(_ ticket: UInt64, from path: String) {
        lines[path]?.removeAll { $0 == ticket }
        if lines[path]?.isEmpty == true { lines[path] = nil }
        condition.broadcast()
    }
}
