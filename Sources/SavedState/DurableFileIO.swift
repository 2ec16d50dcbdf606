#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The few POSIX calls ``StateStore`` is built on, each retried on `EINTR`, each failure turned into a
/// ``StateStoreError`` naming the call, its `errno` and the path.
///
/// ```swift
/// try DurableFileIO.writeNewAndSync(bytes, to: "/tmp/x.tmp")     // fails if anything is at the path
/// try DurableFileIO.rename("/tmp/x.tmp", to: "/tmp/x")
/// try DurableFileIO.syncDirectory("/tmp")
/// ```
enum DurableFileIO {
    /// The most one `write` call is asked to write. Large states are written in several calls, so the
    /// short-write loop below runs on every large save rather than only in rare cases, and the crash
    /// test can kill a writer between two of them.
    static let writeChunkSize = 32 * 1024

    /// Creates a new file, writes all of `bytes` to it, flushes it to stable storage and closes it.
    /// On failure the partly written file is removed.
    ///
    /// The file is opened with `O_CREAT | O_EXCL | O_NOFOLLOW`: if anything already exists at `path`
    /// (a file, a folder, a symbolic link, dangling or not) the call fails with `EEXIST` and nothing
    /// is written, so a write never goes through a link or into a file someone else is writing.
    /// - Parameters:
    ///   - bytes: The file's content.
    ///   - path: The new file, which must not exist.
    /// - Throws: A ``StateStoreError`` naming the call that failed.
    static func writeNewAndSync(_ bytes: [UInt8], to path: String) throws(StateStoreError) {
        let descriptor = retryingOnInterrupt { open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw StateStoreError(.io(operation: "open", errno: errno), path: path) }
        var failure: StateStoreError?
        var offset = 0
        while offset < bytes.count, failure == nil {
            let count = bytes.withUnsafeBytes { bytes in
                retryingOnInterrupt {
                    systemWrite(descriptor, bytes.baseAddress! + offset, min(bytes.count - offset, writeChunkSize))
                }
            }
            if count > 0 {
                offset += count                                  // a short write: write the rest next
            } else {
                // `write` returns 0 for a non-empty request only on exotic files; report it, never spin.
                failure = StateStoreError(.io(operation: "write", errno: count < 0 ? errno : EIO), path: path)
            }
        }
        if failure == nil, !synchronize(descriptor) {
            failure = StateStoreError(.io(operation: "fsync", errno: errno), path: path)
        }
        // `close` is not retried: after EINTR the descriptor is already released on Linux.
        if close(descriptor) != 0, failure == nil, errno != EINTR {
            failure = StateStoreError(.io(operation: "close", errno: errno), path: path)
        }
        if let failure {
            _ = unlink(path)
            throw failure
        }
    }

    /// Renames a file, atomically replacing any file at the destination.
    /// - Parameters:
    ///   - source: The file's path.
    ///   - destination: Its new path.
    /// - Throws: A ``StateStoreError`` for `rename`, naming `source`.
    static func rename(_ source: String, to destination: String) throws(StateStoreError) {
        guard retryingOnInterrupt({ systemRename(source, destination) }) == 0 else {
            throw StateStoreError(.io(operation: "rename to \(destination)", errno: errno), path: source)
        }
    }

    /// Makes a hard link: a second name, `destination`, for the file at `source`. Never replaces
    /// anything at `destination`, and never follows a symbolic link at `source` (`linkat` without
    /// `AT_SYMLINK_FOLLOW`).
    /// - Returns: 0, or the `errno` of the failure.
    static func link(_ source: String, to destination: String) -> Int32 {
        retryingOnInterrupt { systemLink(source, destination) } == 0 ? 0 : errno
    }

    /// Flushes a folder's entries (the renames in it) to stable storage. A file system that cannot
    /// synchronise folders (`EINVAL`, some network and FUSE file systems) is not an error.
    /// - Parameter path: The folder.
    /// - Throws: A ``StateStoreError`` for `open` or `fsync`.
    static func syncDirectory(_ path: String) throws(StateStoreError) {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw StateStoreError(.io(operation: "open", errno: errno), path: path) }
        defer { _ = close(descriptor) }
        if !synchronize(descriptor), errno != EINVAL {
            throw StateStoreError(.io(operation: "fsync", errno: errno), path: path)
        }
    }

    /// Creates a folder and any missing parents, synchronising each parent so the new folder
    /// survives a power cut.
    /// - Parameter path: The folder.
    /// - Throws: A ``StateStoreError`` for `mkdir`.
    static func makeDirectory(_ path: String) throws(StateStoreError) {
        if mkdir(path, 0o755) == 0 {
            try syncDirectory(parent(of: path))
            return
        }
        switch errno {
        case EEXIST:
            return
        case ENOENT where parent(of: path) != path:
            try makeDirectory(parent(of: path))
            try makeDirectory(path)
        case let code:
            throw StateStoreError(.io(operation: "mkdir", errno: code), path: path)
        }
    }

    /// Whether anything exists at a path (a dangling symbolic link counts).
    /// - Throws: A ``StateStoreError`` for `lstat` when it cannot tell.
    static func exists(_ path: String) throws(StateStoreError) -> Bool {
        var info = stat()
        if lstat(path, &info) == 0 { return true }
        let code = errno
        guard code == ENOENT || code == ENOTDIR else { throw StateStoreError(.io(operation: "lstat", errno: code), path: path) }
        return false
    }

    /// Removes a file if it exists, ignoring failures.
    static func removeIfPresent(_ path: String) {
        _ = unlink(path)
    }

    /// `/a/b` for `/a/b/c`; `/` for `/a`; `.` for `a`.
    static func parent(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// Flushes a file's data and metadata to stable storage; `false` with `errno` set on failure. On
    /// Apple platforms `fsync` only reaches the drive's cache, so this asks for `F_FULLFSYNC` first.
    private static func synchronize(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if retryingOnInterrupt({ fcntl(descriptor, F_FULLFSYNC) }) == 0 { return true }
        #endif
        return retryingOnInterrupt { fsync(descriptor) } == 0
    }

    /// Calls `body` again while it fails with `EINTR` (a signal arrived before it could finish).
    static func retryingOnInterrupt<Result: BinaryInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}

// The C functions under names that do not collide with `DurableFileIO`'s own methods.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

private func systemLink(_ source: String, _ destination: String) -> Int32 {
    linkat(AT_FDCWD, source, AT_FDCWD, destination, 0)
}

private func systemRename(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}
