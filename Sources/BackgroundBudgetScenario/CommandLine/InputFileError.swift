/// Why `bgbudget` could not read its input file; ``description`` is the sentence after
/// `cannot read 'FILE': `.
struct InputFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    enum Problem: Sendable, Hashable {
        /// Nothing is at the path (`ENOENT`).
        case noSuchFile
        /// The file or a folder on its path may not be read (`EACCES`, `EPERM`).
        case permissionDenied
        /// The path goes through a loop of symbolic links, or too many of them (`ELOOP`).
        case symbolicLinkLoop
        /// A part of the path before the last is not a folder (`ENOTDIR`).
        case notADirectoryOnPath
        /// The path or one of its names is too long (`ENAMETOOLONG`).
        case nameTooLong
        /// The path names something other than a regular file; the string says what: `a directory`.
        case notARegularFile(String)
        /// The file is larger than the limit; it was not read.
        case tooLarge(size: Int64, limit: Int)
        /// Opening, examining or reading the file failed otherwise; the string is the system's reason.
        case failed(String)
    }

    /// What was wrong.
    var problem: Problem

    /// `no such file`, `it is a named pipe (FIFO), not a regular file`, ….
    var description: String {
        switch problem {
        case .noSuchFile: "no such file"
        case .permissionDenied: "permission denied"
        case .symbolicLinkLoop: "too many levels of symbolic links (is there a loop?)"
        case .notADirectoryOnPath: "a part of the path before the file name is not a directory"
        case .nameTooLong: "the path is too long"
        case .notARegularFile("a directory"): "it is a directory"
        case .notARegularFile(let kind): "it is \(kind), not a regular file"
        case .tooLarge(let size, let limit):
            "it is \(size) bytes (\(InputFile.mebibytes(size))); scenario files are limited to \(limit) bytes (\(InputFile.mebibytes(Int64(limit))))"
        case .failed(let reason): reason
        }
    }
}
