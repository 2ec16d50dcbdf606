#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The advisory lock that serialises every writer (and every reader that may set files aside) of one
/// store name: `flock(LOCK_EX)` on `name.state.lock`, across threads and processes alike.
///
/// `flock` locks belong to an open file description, so two ``StateStore`` objects in one process
/// (each opens the file itself) exclude each other just as two processes do, and the kernel releases
/// the lock when its holder dies, even by `SIGKILL`. The lock file is never removed, so every holder
/// locks the same file; it holds no data. On a file system that does not support `flock` (`ENOTSUP`,
/// `ENOLCK`) the store goes on unlocked: one writer is as safe as ever, several are not serialised.
///
/// ```swift
/// let descriptor = try StateFileLock.acquire("/…/draft.state.lock", timeout: .seconds(5))
/// defer { StateFileLock.release(descriptor) }
/// ```
enum StateFileLock {
    /// The longest pause between two tries while another holder has the lock.
    static let longestPause: Duration = .milliseconds(20)

    /// Opens (creating it if needed) and locks the lock file, waiting up to `timeout` for another
    /// holder to release it.
    ///
    /// The file is opened `O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK` and must be a regular file
    /// (`fstat`): a symbolic link is never followed and a named pipe never blocks the open.
    ///
    /// - Parameters:
    ///   - path: The lock file.
    ///   - timeout: How long to wait for another holder; `.zero` tries once.
    /// - Returns: The locked descriptor; pass it to ``release(_:)``.
    /// - Throws: ``StateStoreError/Problem/notARegularFile(_:)`` when something else is at `path`
    ///   (the caller sets it aside and tries again), ``StateStoreError/Problem/lockTimeout(waited:)``
    ///   when the wait ran out, or ``StateStoreError/Problem/io(operation:errno:)`` for `open`,
    ///   `fstat` or `flock`.
    static func acquire(_ path: String, timeout: Duration) throws(StateStoreError) -> Int32 {
        var attempts = 0
        var descriptor: Int32 = -1
        while descriptor < 0 {
            attempts += 1
            descriptor = DurableFileIO.retryingOnInterrupt {
                open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
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
        try lock(descriptor, path: path, timeout: timeout)
        return descriptor
    }

    /// Opens and locks a folder itself (`flock` works on a folder's descriptor on Linux and Darwin),
    /// waiting up to `timeout` for another holder. Held only while something in the way at the lock
    /// file's name is set aside: that is the one rename made without the lock file held, so two
    /// stores never set aside the same thing, nor one another's new lock file.
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
        try lock(descriptor, path: path, timeout: timeout)
        return descriptor
    }

    /// Takes `flock(LOCK_EX)` on an open descriptor, waiting up to `timeout`; on failure the
    /// descriptor is closed.
    private static func lock(_ descriptor: Int32, path: String, timeout: Duration) throws(StateStoreError) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause: Duration = .microseconds(500)
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
            let code = errno
            if code == EINTR { continue }
            // A file system without `flock` (some network and FUSE file systems): go on without the
            // lock, as a lone writer needs none; several writers are then not serialised.
            if code == ENOTSUP || code == EOPNOTSUPP || code == ENOLCK { return }
            guard code == EWOULDBLOCK || code == EAGAIN else {
                release(descriptor)
                throw StateStoreError(.io(operation: "flock", errno: code), path: path)
            }
            let left = deadline - clock.now
            guard left > .zero else {
                release(descriptor)
                throw StateStoreError(.lockTimeout(waited: timeout), path: path)
            }
            // A short sleep, doubling up to a cap: a save holds the lock for a few milliseconds.
            let nap = min(pause, left)
            _ = usleep(UInt32(nap.components.seconds * 1_000_000 + nap.components.attoseconds / 1_000_000_000_000))
            pause = min(pause * 2, longestPause)
        }
    }

    /// Releases the lock by closing its descriptor.
    static func release(_ descriptor: Int32) {
        _ = close(descriptor)
    }
}
