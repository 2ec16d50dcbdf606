#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

extension DurableFileIO {
    /// What reading a state file found.
    enum StateFileRead {
        /// Nothing is at the path.
        case missing
        /// A system call failed; the file may be readable later.
        case unreadable(StateStoreError)
        /// Something is there but it is not an intact state file; `bytesRead` says how much of it was
        /// read to find out (the header alone, or nothing, for all but a checksum mismatch).
        case damaged(StateStoreError, bytesRead: Int)
        /// An intact state file: header and payload, checksums verified.
        case intact([UInt8])
    }

    /// Reads and checks a state file without trusting anything about it.
    ///
    /// - It is opened with `O_NOFOLLOW | O_NONBLOCK`: a symbolic link is refused, not followed, and a
    ///   named pipe does not block the open.
    /// - `fstat` on the open descriptor must show a regular file: folders, pipes, devices such as
    ///   `/dev/zero` and sockets are refused before a byte is read.
    /// - The fixed header is read first and checked against the file's size, so a file with a bad
    ///   signature, a damaged header or a length that does not match its size (a sparse file of
    ///   gigabytes, say) is refused after reading at most ``StateFrame/headerSize`` bytes.
    /// - A file larger than `maximumSize` is refused from its header alone; otherwise exactly the
    ///   declared payload is read, so memory use is bounded by the declared size even if the file
    ///   grows meanwhile.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - maximumSize: The largest file, header included, to read.
    /// - Returns: What was found.
    static func readStateFile(_ path: String, maximumSize: Int) -> StateFileRead {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR:       // ENOTDIR: a component of the path is a file, so this file cannot exist
                return .missing
            case ELOOP, ENXIO, EOPNOTSUPP:
                // ELOOP: a symbolic link (O_NOFOLLOW); ENXIO, EOPNOTSUPP: a socket. Say which from lstat.
                if case .other(let kind)? = try? entry(at: path) {
                    return .damaged(StateStoreError(.notARegularFile(kind), path: path), bytesRead: 0)
                }
                return .unreadable(StateStoreError(.io(operation: "open", errno: code), path: path))
            default:
                return .unreadable(StateStoreError(.io(operation: "open", errno: code), path: path))
            }
        }
        defer { _ = close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            return .unreadable(StateStoreError(.io(operation: "fstat", errno: errno), path: path))
        }
        if let kind = nonRegularKind(mode: info.st_mode) {
            return .damaged(StateStoreError(.notARegularFile(kind), path: path), bytesRead: 0)
        }
        let size = UInt64(max(0, info.st_size))
        var bytes: [UInt8] = []
        if let error = readUpTo(StateFrame.headerSize, from: descriptor, into: &bytes, path: path) { return .unreadable(error) }
        if let problem = StateFrame.headerProblem(bytes, fileSize: size) {
            return .damaged(StateStoreError(problem, path: path), bytesRead: bytes.count)
        }
        guard size <= UInt64(maximumSize) else {
            return .damaged(StateStoreError(.tooLarge(bytes: size, limit: UInt64(maximumSize)), path: path), bytesRead: bytes.count)
        }
        bytes.reserveCapacity(Int(size))
        if let error = readUpTo(Int(size), from: descriptor, into: &bytes, path: path) { return .unreadable(error) }
        if bytes.count < Int(size) {                  // cut short while being read
            return .damaged(StateStoreError(.truncated(expectedBytes: size, foundBytes: UInt64(bytes.count)), path: path),
                            bytesRead: bytes.count)
        }
        if let problem = StateFrame.payloadProblem(bytes) {
            return .damaged(StateStoreError(problem, path: path), bytesRead: bytes.count)
        }
        return .intact(bytes)
    }

    /// What `lstat` finds at a path.
    enum Entry: Equatable {
        /// Nothing.
        case nothing
        /// A regular file.
        case regularFile
        /// Something else, not followed if it is a symbolic link.
        case other(StateStoreError.FileKind)
    }

    /// What is at a path, without following a symbolic link.
    /// - Throws: A ``StateStoreError`` for `lstat` when it cannot tell.
    static func entry(at path: String) throws(StateStoreError) -> Entry {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            guard code == ENOENT || code == ENOTDIR else { throw StateStoreError(.io(operation: "lstat", errno: code), path: path) }
            return .nothing
        }
        return nonRegularKind(mode: info.st_mode).map(Entry.other) ?? .regularFile
    }

    /// The kind of a file that is not regular, from its `st_mode`; `nil` for a regular file.
    static func nonRegularKind(mode: mode_t) -> StateStoreError.FileKind? {
        switch UInt32(mode) & UInt32(S_IFMT) {
        case UInt32(S_IFREG): nil
        case UInt32(S_IFDIR): .directory
        case UInt32(S_IFIFO): .fifo
        case UInt32(S_IFLNK): .symbolicLink
        case UInt32(S_IFCHR): .characterDevice
        case UInt32(S_IFBLK): .blockDevice
        case UInt32(S_IFSOCK): .socket
        default: .other
        }
    }

    /// Reads from `descriptor` until `bytes` holds `count` bytes or the file ends.
    /// - Returns: The error if a `read` failed.
    private static func readUpTo(_ count: Int, from descriptor: Int32, into bytes: inout [UInt8], path: String) -> StateStoreError? {
        var buffer = [UInt8](repeating: 0, count: min(writeChunkSize, max(count - bytes.count, 1)))
        while bytes.count < count {
            let wanted = min(buffer.count, count - bytes.count)
            let got = buffer.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { systemRead(descriptor, buffer.baseAddress, wanted) }
            }
            if got < 0 { return StateStoreError(.io(operation: "read", errno: errno), path: path) }
            if got == 0 { return nil }
            bytes += buffer[..<got]
        }
        return nil
    }
}

/// `read(2)`, under a name that does not collide with `DurableFileIO`'s own methods.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
