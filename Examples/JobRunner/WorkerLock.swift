import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// One worker per state folder: an exclusive `flock` on `worker.lock` in the folder, held for the life
/// of the process. Two workers on one folder would both run every job.
///
/// The lock belongs to the open file, and the descriptor is never closed: the kernel drops the lock
/// when the process ends, however it ends (`SIGKILL` included), so no stale lock is ever left behind,
/// unlike a pid file. The descriptor is close-on-exec, so no child process inherits the lock.
enum WorkerLock {
    /// The state folder is in use by another worker (which holds the lock).
    struct Held: Error, CustomStringConvertible {
        var folder: String
        var description: String { "another worker is using the state folder \(folder) (one worker per state folder)" }
    }

    /// The lock file could not be opened or locked.
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Takes the lock on `folder` (created if missing), without waiting.
    /// - Returns: The lock file's descriptor; leave it open for as long as the worker runs.
    /// - Throws: ``Held`` when another process holds it, ``Failed`` when the folder or the lock file
    ///   cannot be made or locked.
    static func acquire(in folder: URL) throws -> Int32 {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw Failed(description: "\(folder.path): cannot make the state folder (\(error.localizedDescription))")
        }
        let path = folder.appendingPathComponent("worker.lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw Failed(description: "\(path): open: \(String(cString: strerror(errno)))") }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let problem = errno
            close(descriptor)
            if problem == EWOULDBLOCK { throw Held(folder: folder.path) }
            throw Failed(description: "\(path): flock: \(String(cString: strerror(problem)))")
        }
        return descriptor
    }
}
