#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The lock that serialises every writer (and every reader that may set files aside) of one store
/// name, across threads and processes alike, and serves the processes waiting for it in the order
/// they asked: a ticket lock made of record locks (`fcntl`) on bytes of `name.state.lock`.
///
/// Record locks lock byte ranges of a file, even past its end, and the kernel releases them when
/// their holder closes the file or dies, even by `SIGKILL`; the lock file therefore holds no data and
/// stays empty. Three kinds of range are used:
///
/// | Bytes | Locked (for writing) by |
/// |---|---|
/// | 0 (the *door*) | a waiter taking its ticket: a few system calls |
/// | 1 (the *holder*) | the waiter being served, for its whole save or load |
/// | 2 + t (ticket t) | a waiter from the moment it takes ticket t until it is done |
///
/// 1. Holding the door, a waiter looks for the ticket locks that exist (`F_GETLK`, which reports a
///    lock of another holder in a range) and locks the byte just past the highest: its ticket is
///    higher than that of every waiter still there.
/// 2. It waits until no lock is left on bytes 2 ..< 2 + t: every waiter that took a ticket before it
///    has been served, has given up or has died. Only the first in line can see that, so later
///    arrivals cannot overtake it however the waits are timed: the waiters look every 50 µs to
///    1 ms, and how often decides only how soon the next is served, never who.
/// 3. It locks the holder byte (normally free at once: its predecessors are gone) and runs. Closing
///    the descriptor releases the holder byte and the ticket, so the next ticket's turn has come.
///
/// A waiter that gives up releases its ticket; one that dies loses it with its process. Either way
/// it simply leaves the line, and no ticket is ever left behind by a dead process, as a ticket
/// number written in the file would be. The holder byte is what excludes: two holders never run at
/// once even if the tickets were out of order (a lock taken by something that ignores the door, say).
///
/// Why not `flock`, as before: a waiter can only poll it (`LOCK_NB`), and between two looks any other
/// process may take it, so a waiter could be overtaken again and again until its timeout (two
/// processes saving continuously lost saves at a 2 s timeout); a blocking `flock` has no timeout,
/// and wakes every waiter to race for it. And on Darwin `flock` and record locks on one file
/// conflict with each other, so the lock file carries record locks only.
///
/// On Linux the locks are open-file-description locks (`F_OFD_SETLK`, Linux 3.15 and later): like
/// `flock`, they belong to the open file, so two descriptors exclude each other even in one
/// process. Elsewhere (Darwin), and on older kernels, they are classic POSIX record locks, which
/// belong to the process: there ``LockFileQueue`` already lets only one thread of a process at a
/// time hold the lock file open (its line is keyed by the folder's device and inode, so two
/// spellings of one folder share it), and nothing else in the process opens it. On a file system
/// without record locks (`ENOLCK`, `ENOTSUP`) the store goes on unlocked: one writer is as safe as
/// ever, several are not serialised.
///
/// ```swift
/// let descriptor = try StateFileLock.acquire("/…/draft.state.lock", timeout: .seconds(5))
/// defer { StateFileLock.release(descriptor) }
/// ```
enum StateFileLock {
    /// The longest pause between two looks while another waiter or holder is ahead.
    static let longestPause: Duration = .milliseconds(1)
    /// The byte a waiter locks to take a ticket.
    static let doorByte: Int64 = 0
    /// The byte the waiter being served locks.
    static let holderByte: Int64 = 1
    /// The byte of ticket 0; ticket t is byte `firstTicketByte + t`.
    static let firstTicketByte: Int64 = 2

    /// Opens (creating it if needed) the lock file and takes the lock in turn, waiting up to `timeout`
    /// for the waiters ahead and the holder.
    ///
    /// The file is opened `O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK` (a record lock for writing needs
    /// a descriptor open for writing; nothing is ever written) and must be a regular file (`fstat`):
    /// a symbolic link is never followed and a named pipe never blocks the open.
    ///
    /// - Parameters:
    ///   - path: The lock file.
    ///   - timeout: How long to wait; `.zero` tries once.
    /// - Returns: The locked descriptor; pass it to ``release(_:)``.
    /// - Throws: ``StateStoreError/Problem/notARegularFile(_:)`` when something else is at `path`
    ///   (the caller sets it aside and tries again), ``StateStoreError/Problem/lockTimeout(waited:)``
    ///   when the wait ran out, or ``StateStoreError/Problem/io(operation:errno:)`` for `open`,
    ///   `fstat` or `fcntl`.
    static func acquire(_ path: String, timeout: Duration) throws(StateStoreError) -> Int32 {
        var attempts = 0
        var descriptor: Int32 = -1
        while descriptor < 0 {
            attempts += 1
            descriptor = DurableFileIO.retryingOnInterrupt {
                open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
            }
            guard descriptor < 0 else { break }
            let code = errno
            if code == ELOOP || code == EISDIR || code == ENXIO || code == EOPNOTSUPP {
                switch try? DurableFileIO.entry(at: path) {
                case .other(let kind)?:
                    throw StateStoreError(.notARegularFile(kind), path: path)
                case .regularFile? where attempts < 4, .nothing? where attempts < 4:
                    // What was there when `open` ran has been set aside since (by another store,
                    // holding the folder's lock): open again.
                    continue
                default:
                    break
                }
            }
            throw StateStoreError(.io(operation: "open", errno: code), path: path)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            release(descriptor)
            throw StateStoreError(.io(operation: "fstat", errno: code), path: path)
        }
        if let kind = DurableFileIO.nonRegularKind(mode: info.st_mode) {
            release(descriptor)
            throw StateStoreError(.notARegularFile(kind), path: path)
        }
        do {
            try lockInTurn(descriptor, path: path, timeout: timeout)
        } catch {
            release(descriptor)
            throw error
        }
        return descriptor
    }

    /// Opens and locks a folder itself with `flock` (which works on a folder's descriptor on Linux
    /// and Darwin), waiting up to `timeout` for another holder. Held only while something in the way
    /// at the lock file's name is set aside: that is the one rename made without the lock file held,
    /// so two stores never set aside the same thing, nor one another's new lock file.
    ///
    /// - Parameters:
    ///   - path: The folder.
    ///   - timeout: How long to wait for another holder; `.zero` tries once.
    /// - Returns: The locked descriptor; pass it to ``release(_:)``.
    /// - Throws: ``StateStoreError/Problem/lockTimeout(waited:)`` when the wait ran out, or
    ///   ``StateStoreError/Problem/io(operation:errno:)`` for `open` or `flock`.
    static func acquireFolder(_ path: String, timeout: Duration) throws(StateStoreError) -> Int32 {
        let descriptor = DurableFileIO.retryingOnInterrupt {
            open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            throw StateStoreError(.io(operation: "open", errno: errno), path: path)
        }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        do {
            try waitFor(deadline, path: path, timeout: timeout) { () throws(StateStoreError) -> Bool in
                if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
                let code = errno
                if code == EINTR || code == EWOULDBLOCK || code == EAGAIN { return false }
                // No `flock` here: set aside without it, as a lone store needs none.
                if code == ENOTSUP || code == EOPNOTSUPP || code == ENOLCK { return true }
                throw StateStoreError(.io(operation: "flock", errno: code), path: path)
            }
        } catch {
            release(descriptor)
            throw error
        }
        return descriptor
    }

    /// Releases the lock by closing its descriptor: the kernel drops every record lock it held.
    static func release(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Takes a ticket, waits for its turn and locks the holder byte (see ``StateFileLock``). On
    /// failure the caller closes the descriptor, which gives the ticket back.
    private static func lockInTurn(_ descriptor: Int32, path: String, timeout: Duration) throws(StateStoreError) {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var locks = RecordLocks(descriptor: descriptor, path: path)
        // 1. The door, then the ticket past the highest one there.
        var ticket: Int64?
        var unsupported = false
        try waitFor(deadline, path: path, timeout: timeout) { () throws(StateStoreError) -> Bool in
            switch try locks.tryLock(doorByte) {
            case .busy:
                return false
            case .unsupported:
                unsupported = true
                return true
            case .locked:
                ticket = try locks.takeTicket()
                try locks.unlock(doorByte)
                return ticket != nil
            }
        }
        guard !unsupported, let ticket else { return }     // no record locks on this file system: go on unlocked
        // 2. Every earlier ticket gone; 3. the holder byte.
        try waitFor(deadline, path: path, timeout: timeout) { () throws(StateStoreError) -> Bool in
            try locks.isFree(from: firstTicketByte, count: ticket - firstTicketByte)
        }
        try waitFor(deadline, path: path, timeout: timeout) { () throws(StateStoreError) -> Bool in
            try locks.tryLock(holderByte) != .busy
        }
    }

    /// Calls `attempt` until it returns `true`, pausing 50 µs, then twice as long each time up to
    /// ``longestPause``, and throws ``StateStoreError/Problem/lockTimeout(waited:)`` once `deadline`
    /// has passed (after one attempt at least).
    private static func waitFor(_ deadline: ContinuousClock.Instant, path: String, timeout: Duration,
                                _ attempt: () throws(StateStoreError) -> Bool) throws(StateStoreError) {
        var pause: Duration = .microseconds(50)
        while try !attempt() {
            let left = deadline - .now
            guard left > .zero else { throw StateStoreError(.lockTimeout(waited: timeout), path: path) }
            let nap = min(pause, left)
            _ = usleep(UInt32(nap.components.seconds * 1_000_000 + nap.components.attoseconds / 1_000_000_000_000))
            pause = min(pause * 2, longestPause)
        }
    }
}

/// Record locks (`fcntl`) on single bytes of one open lock file: open-file-description locks where
/// the system has them (Linux), process-owned POSIX locks otherwise.
struct RecordLocks {
    /// What a try to lock a byte found.
    enum Outcome: Equatable {
        /// The byte is now locked by this descriptor.
        case locked
        /// Another holder has it.
        case busy
        /// The file system has no record locks (`ENOLCK`, `ENOTSUP`).
        case unsupported
    }

    let descriptor: Int32
    let path: String
    #if os(Linux)
    /// `F_OFD_GETLK` and `F_OFD_SETLK` (Linux's values on every architecture), until the kernel
    /// refuses them (`EINVAL`, before Linux 3.15); then `F_GETLK` and `F_SETLK`.
    private var commands: (get: Int32, set: Int32) = (36, 37)
    #else
    private var commands: (get: Int32, set: Int32) = (F_GETLK, F_SETLK)
    #endif

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Tries once to lock `count` bytes from `start` for writing.
    mutating func tryLock(_ start: Int64, count: Int64 = 1) throws(StateStoreError) -> Outcome {
        var request = Self.request(F_WRLCK, start: start, count: count)
        switch try control(commands.set, &request) {
        case 0: return .locked
        case EAGAIN, EACCES: return .busy     // EACCES: how some systems say EAGAIN here
        default: return .unsupported
        }
    }

    /// Unlocks `count` bytes from `start`.
    mutating func unlock(_ start: Int64, count: Int64 = 1) throws(StateStoreError) {
        var request = Self.request(F_UNLCK, start: start, count: count)
        _ = try control(commands.set, &request)
    }

    /// Whether no other holder has a lock on any of `count` bytes from `start` (`F_GETLK`): always
    /// when `count` is 0. Locks of this descriptor (of this process, with POSIX locks) do not count.
    mutating func isFree(from start: Int64, count: Int64) throws(StateStoreError) -> Bool {
        guard count > 0 else { return true }
        return try firstLock(from: start, count: count) == nil
    }

    /// Locks a ticket past every ticket another waiter holds, and returns its byte; `nil` when
    /// another holder locks every byte to the end of the file (no store does: something else holds
    /// the lock file, so wait as for any holder). Called holding the door, so no other waiter takes
    /// a ticket meanwhile.
    mutating func takeTicket() throws(StateStoreError) -> Int64? {
        var ticket = StateFileLock.firstTicketByte
        // `F_GETLK` reports one lock in the range, not necessarily the highest: look past it until
        // none is left (one look per waiter still there, so a handful).
        while let (start, count) = try firstLock(from: ticket, count: 0) {
            guard count > 0, start < Int64.max / 4 else { return nil }
            ticket = max(ticket + 1, start + count)
        }
        while true {
            switch try tryLock(ticket) {
            case .locked, .unsupported: return ticket
            case .busy: ticket += 1      // locked since the look by something that ignores the door
            }
        }
    }

    /// The first lock of another holder that `F_GETLK` reports in a range, as its start and length.
    private mutating func firstLock(from start: Int64, count: Int64) throws(StateStoreError) -> (Int64, Int64)? {
        var request = Self.request(F_WRLCK, start: start, count: count)
        guard try control(commands.get, &request) == 0 else { return nil }      // unsupported: nothing to wait for
        guard request.l_type != Int16(F_UNLCK) else { return nil }
        return (Int64(request.l_start), Int64(request.l_len))
    }

    /// `fcntl(descriptor, command, request)`, retried on `EINTR`, falling back from the
    /// open-file-description commands to the POSIX ones on `EINVAL`.
    /// - Returns: 0, or the `errno` of a conflict (`EAGAIN`, `EACCES`) or of a file system without
    ///   record locks (`ENOLCK`, `ENOTSUP`, `EOPNOTSUPP`).
    /// - Throws: ``StateStoreError/Problem/io(operation:errno:)`` for any other failure.
    private mutating func control(_ command: Int32, _ request: inout flock) throws(StateStoreError) -> Int32 {
        while true {
            if fcntl(descriptor, command, &request) == 0 { return 0 }
            let code = errno
            switch code {
            case EINTR:
                continue
            case EAGAIN, EACCES, ENOLCK, ENOTSUP, EOPNOTSUPP:
                return code
            #if os(Linux)
            case EINVAL where commands.get != F_GETLK:
                let isGet = command == commands.get
                commands = (F_GETLK, F_SETLK)
                return try control(isGet ? F_GETLK : F_SETLK, &request)
            #endif
            default:
                throw StateStoreError(.io(operation: "fcntl", errno: code), path: path)
            }
        }
    }

    /// A request for `count` bytes from `start` (`count` 0: to the end, however far).
    private static func request(_ type: Int32, start: Int64, count: Int64) -> flock {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(start)
        request.l_len = off_t(count)
        request.l_pid = 0          // must be 0 for open-file-description locks
        return request
    }
}
