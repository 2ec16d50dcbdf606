/// One saved file that ``StateStore`` could not use, or one thing in its way (a folder, a named pipe,
/// a symbolic link at one of its names), and where that file is now.
///
/// A damaged file, or whatever was in the way, is never deleted: it is renamed aside, with a
/// `.corrupt-N` suffix, so that it can be inspected, and ``keptAt`` says where. ``StateStore/load()`` lists the issues it found in
/// ``StateStore/LoadResult/issues``; ``StateStore/save(_:)`` returns the ones it found.
///
/// ```swift
/// let loaded = try store.load()
/// for issue in loaded.issues {
///     logger.error("\(issue)")
///     // /…/draft.state: checksum mismatch: …; set aside as /…/draft.state.corrupt-1
/// }
/// ```
public struct StateStoreIssue: Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, and the file's path when it was found.
    public var error: StateStoreError
    /// Where the file can be inspected now: its new path when it was set aside, its own path when it
    /// was left in place (it could not be read, so it may be readable later), or `nil` when there is
    /// no file (it was missing, or a newer save replaced it before it could be set aside).
    public var keptAt: String?

    /// Creates an issue.
    /// - Parameters:
    ///   - error: What was wrong, and with which file.
    ///   - keptAt: Where the file is now, if anywhere.
    public init(_ error: StateStoreError, keptAt: String?) {
        self.error = error
        self.keptAt = keptAt
    }

    /// The error, then where the file is: `…; set aside as /…/draft.state.corrupt-1`.
    public var description: String {
        switch keptAt {
        case nil:
            return "\(error)"
        case error.path?:
            return "\(error); left in place"
        case let path?:
            return "\(error); set aside as \(path)"
        }
    }
}
