import Foundation

/// The line that the threads of one process wait in, in arrival order, before one of them tries the
/// lock file of a store name (``StateFileLock``).
///
/// `flock` itself is not fair: a waiter polls it, and while it naps the other threads of the same
/// process can take and release the lock many times, so under load a save could wait past its
/// timeout behind saves that arrived after it. Queuing first makes the threads of one process take
/// the lock file in the order they asked for it, and only the first in line polls `flock` (against
/// other processes). The line is keyed by the lock file's path as the store spells it; two spellings
/// of one file (a symbolic link in the folder's path) only lose the ordering, never the exclusion,
/// which `flock` still gives.
///
/// ```swift
/// guard let ticket = LockFileQueue.enter(lockPath, until: deadline) else { /* timed out */ }
/// defer { LockFileQueue.leave(lockPath, ticket: ticket) }
/// ```
enum LockFileQueue {
    /// Guards ``lines`` and ``lastTicket``.
    private static let condition = NSCondition()
    // Both are read and written only between `condition.lock()` and `condition.unlock()`, which
    // serialises every access, so no two threads touch them at once.
    /// The tickets waiting, and first the one holding, for each lock file's path.
    nonisolated(unsafe) private static var lines: [String: [UInt64]] = [:]
    /// The last ticket handed out.
    nonisolated(unsafe) private static var lastTicket: UInt64 = 0

    /// Joins the line for `path` and waits until first in it, or until `deadline`.
    ///
    /// - Parameters:
    ///   - path: The lock file.
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
