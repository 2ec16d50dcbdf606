import BackgroundBudgetCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Writing `bgbudget`'s output: every failure is returned as a sentence, never trapped.
enum OutputFile {
    /// Writes all of `bytes` to an open descriptor, resuming after interruptions and partial writes,
    /// and waiting (with `poll`) when a non-blocking descriptor is full.
    /// - Returns: `nil` when everything was written, else the `errno` of the write that failed.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written >= 0 {
                offset += written
                continue
            }
            let code = errno
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                if poll(&ready, 1, -1) < 0, errno != EINTR { return errno }
            default:
                return code
            }
        }
        return nil
    }

    /// Writes a string's UTF-8 to an open descriptor without copying it.
    /// - Returns: `nil`, or the `errno` of the write that failed.
    static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Writes `text` to the file at `path` (`--out`).
    ///
    /// A regular file, or a path where nothing is yet, is replaced whole: the text goes to a new file
    /// in the same folder, which is renamed over the path only once everything is written, so a
    /// failure (a full disk) leaves the old file as it was and no partial one. A symbolic link to a
    /// regular file (or to nothing yet) is written in place. Anything else is refused as input is
    /// (``InputFile``): a directory, a device, a named pipe (which would wait forever for a reader)
    /// or a socket, named without being opened.
    /// - Returns: `nil` when the file was written, else why not: `it is a directory`,
    ///   `it is a named pipe (FIFO), not a regular file`, `the folder 'out' does not exist`,
    ///   `permission denied`, `no space left on device`, ….
    static func replace(_ path: String, with text: String) -> String? {
        var link = stat()
        if lstat(path, &link) == 0, Int(link.st_mode) & 0o170000 != 0o100000 {
            var target = stat()
            if stat(path, &target) == 0, let kind = InputFile.kindName(mode: Int(target.st_mode)) { return refusal(kind) }
            return writeInPlace(text, toPath: path)
        }
        let existingMode: mode_t? = lstat(path, &link) == 0 ? link.st_mode & 0o7777 : nil
        // Renaming over a file would replace it even when it may not be written; refuse as writing would.
        if existingMode != nil, access(path, W_OK) != 0 { return errno == EACCES || errno == EPERM ? "permission denied" : InputFile.reason(errno) }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        if name.isEmpty { return "the path names a folder, not a file" }

        var temporary = ""
        var descriptor: Int32 = -1
        for attempt in 0..<100 {
            temporary = temporaryName(in: slash == nil ? nil : folder, attempt: attempt)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else {
            let code = errno
            // An existing file in a folder that takes no new files: it can only be rewritten in place.
            if existingMode != nil, code == EACCES || code == EPERM { return writeInPlace(text, toPath: path) }
            return createProblem(code, folder: folder)
        }
        if let existingMode { _ = fchmod(descriptor, existingMode) }
        var failure = writeAll(text, to: descriptor)
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        guard let failure else { return nil }
        unlink(temporary)
        return failure == EISDIR ? "it is a directory" : InputFile.reason(failure)
    }

    /// A temporary file's path in `folder` (the current one when `nil`): short whatever the final
    /// name's length, so that a final name of up to `NAME_MAX` bytes (255) still has a temporary one.
    private static func temporaryName(in folder: String?, attempt: Int) -> String {
        (folder.map { $0 + "/" } ?? "") + ".bgbudget-\(getpid())-\(attempt).tmp"
    }

    /// Why `text` could not be written to `path` by ``replace(_:with:)``, found without writing it:
    /// used before a long search, so that a path that cannot be written is refused before anything
    /// is found. It refuses what ``replace(_:with:)`` refuses (a directory, a device, a pipe, a
    /// missing folder, a file it may not write) and, when no file is there yet, creates and removes a
    /// temporary one in the folder, so a read-only folder or file system is refused too.
    /// - Returns: `nil` when the path looks writable, else the same sentence ``replace(_:with:)`` gives.
    static func problemWriting(_ path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            if let kind = InputFile.kindName(mode: Int(info.st_mode)) { return refusal(kind) }
            // An existing regular file (or a link to one) is writable when it may be opened for writing.
            let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { return errno == EACCES || errno == EPERM ? "permission denied" : InputFile.reason(errno) }
            close(descriptor)
            return nil
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        if let slash, path.index(after: slash) == path.endIndex { return "the path names a folder, not a file" }
        var link = stat()
        if lstat(path, &link) == 0 { return nil }   // a dangling symbolic link: written in place, creating its target
        for attempt in 0..<100 {
            let temporary = temporaryName(in: slash == nil ? nil : folder, attempt: attempt)
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 {
                close(descriptor)
                unlink(temporary)
                // The name itself may still be too long for the file system.
                let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
                if name.utf8.count > Int(NAME_MAX) { return InputFile.reason(ENAMETOOLONG) }
                return nil
            }
            if errno != EEXIST { return createProblem(errno, folder: folder) }
        }
        return InputFile.reason(EEXIST)
    }

    /// `it is a directory`, or `it is a named pipe (FIFO), not a regular file`, as input says it.
    private static func refusal(_ kind: String) -> String {
        InputFileError(problem: .notARegularFile(kind)).description
    }

    /// Opens the regular file a symbolic link names (creating it when there is none) and writes
    /// `text` to it. Opening does not wait (`O_NONBLOCK`) and truncates only after the open file is
    /// seen to be regular, so a pipe or device put in its place meanwhile is refused untouched.
    private static func writeInPlace(_ text: String, toPath path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            let code = errno
            var info = stat()
            if code == ENXIO || code == EOPNOTSUPP, stat(path, &info) == 0, let kind = InputFile.kindName(mode: Int(info.st_mode)) {
                return refusal(kind)
            }
            return code == ELOOP ? "too many levels of symbolic links (is there a loop?)" : InputFile.reason(code)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            return InputFile.reason(code)
        }
        if let kind = InputFile.kindName(mode: Int(info.st_mode)) {
            close(descriptor)
            return refusal(kind)
        }
        guard ftruncate(descriptor, 0) == 0 else {
            let code = errno
            close(descriptor)
            return InputFile.reason(code)
        }
        // Back to blocking writes: a regular file never waits, but the flag is not needed any more.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var failure = writeAll(text, to: descriptor)
        if close(descriptor) != 0, failure == nil { failure = errno }
        return failure.map(InputFile.reason)
    }

    /// Why a file could not be created in `folder`.
    private static func createProblem(_ code: Int32, folder: String) -> String {
        let quoted = BoundedText.clipped(folder, limit: 4096)
        switch code {
        case ENOENT:
            var info = stat()
            return stat(folder, &info) == 0 ? InputFile.reason(code) : "the folder '\(quoted)' does not exist"
        case ENOTDIR: return "'\(quoted)' is not a folder"
        case EACCES, EPERM: return "permission denied: cannot create a file in '\(quoted)'"
        case ELOOP: return "too many levels of symbolic links (is there a loop?)"
        default: return InputFile.reason(code)
        }
    }
}
