#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Reads a whole input file of bounded size, refusing anything that is not a regular file.
///
/// The file is opened once and everything after that works on the open descriptor: its type and
/// size come from `fstat`, and the bytes from `read`, so the file cannot be swapped between the
/// check and the read. (A `stat` before opening refuses devices and pipes without opening them.) Opening does not wait (`O_NONBLOCK`), so a named pipe with no writer is
/// refused at once instead of hanging; a file larger than the limit is refused before a byte of it
/// is read, and a file that grows while it is read is refused when it passes the limit.
enum InputFile {
    /// The largest scenario file `bgbudget` reads: 64 MiB. A scenario of a million events is about
    /// 45 MB and validates in about 400 MB; the parsed document takes at most about 19 bytes per byte
    /// of text (a long array of `0`s), so the limit keeps decoding within about 1.2 GB whatever the
    /// file holds, while leaving room for any scenario a person would write.
    static let scenarioLimit = 64 << 20

    /// The bytes of the regular file at `path`.
    /// - Parameters:
    ///   - path: The file's path; symbolic links are followed.
    ///   - limit: The most bytes accepted.
    /// - Throws: ``InputFileError`` saying what the path names or why it could not be read.
    static func contents(of path: String, limit: Int) throws(InputFileError) -> [UInt8] {
        // A first look, so that a device is not even opened (opening some has effects); the check
        // that counts is the one on the open descriptor below.
        var before = stat()
        if stat(path, &before) == 0, let kind = kindName(mode: Int(before.st_mode)) { throw InputFileError(problem: .notARegularFile(kind)) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputFileError(problem: openProblem(errno, path: path)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw InputFileError(problem: .failed(reason(errno))) }
        if let kind = kindName(mode: Int(info.st_mode)) { throw InputFileError(problem: .notARegularFile(kind)) }
        let size = Int64(info.st_size)
        guard size <= Int64(limit) else { throw InputFileError(problem: .tooLarge(size: size, limit: limit)) }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputFileError(problem: .failed("read failed: " + reason(errno)))
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else {
                // The file grew after fstat; whatever its size now, it is more than the limit.
                throw InputFileError(problem: .tooLarge(size: Int64(bytes.count + count), limit: limit))
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// What a file mode names when it is not a regular file: `a directory`, `a named pipe (FIFO)`, ….
    /// The type bits are the same on every POSIX system.
    static func kindName(mode: Int) -> String? {
        switch mode & 0o170000 {
        case 0o100000: nil
        case 0o040000: "a directory"
        case 0o010000: "a named pipe (FIFO)"
        case 0o020000: "a character device"
        case 0o060000: "a block device"
        case 0o140000: "a socket"
        case 0o120000: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// Why `open` failed, in words.
    private static func openProblem(_ code: Int32, path: String) -> InputFileError.Problem {
        switch code {
        case ENOENT: return .noSuchFile
        case EACCES, EPERM: return .permissionDenied
        case ELOOP: return .symbolicLinkLoop
        case ENOTDIR: return .notADirectoryOnPath
        case ENAMETOOLONG: return .nameTooLong
        default:
            // Opening a socket fails (ENXIO on Linux, EOPNOTSUPP on macOS); say what it is.
            var info = stat()
            if stat(path, &info) == 0, let kind = kindName(mode: Int(info.st_mode)) { return .notARegularFile(kind) }
            return .failed(reason(code))
        }
    }

    /// The system's sentence for an error number, lowercased as messages continue it.
    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first else { return "error \(code)" }
        return first.lowercased() + text.dropFirst()
    }

    /// `3.0 GiB`, `64 MiB`, `1.5 MiB`, `512 KiB`: a size to one decimal, without overflow for any size.
    static func mebibytes(_ bytes: Int64) -> String {
        let (unit, name) = bytes >= 1 << 30 ? (Double(1 << 30), "GiB") : bytes >= 1 << 20 ? (Double(1 << 20), "MiB") : (1024.0, "KiB")
        let tenths = (Double(bytes) / unit * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int64(tenths / 10)) \(name)" : "\(tenths / 10) \(name)"
    }
}
