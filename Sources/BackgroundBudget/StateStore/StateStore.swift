import Foundation

/// Saves one app's (or one job runner's) state in a folder on disk, so that it survives the app being
/// purged without a word, a crash, or a kill at any instant.
///
/// iOS suspends an app in the background and may later purge it to free memory without running any
/// more of its code. The state an app wants back at the next launch must therefore already be on disk
/// when it is suspended: save in `applicationDidEnterBackground`, restore at launch.
///
/// ```swift
/// struct Draft: Codable, Sendable { var title: String; var body: String }
///
/// let store = try StateStore<Draft>(directory: .applicationSupportDirectory, name: "draft")
///
/// // applicationDidEnterBackground: the app may be suspended, then purged, at any moment after this.
/// try store.save(Draft(title: "Lunch", body: "Friday?"))
///
/// // At launch: restore, and log any damaged file that was passed over (it is kept for inspection).
/// let loaded = try store.load()
/// for issue in loaded.issues { logger.error("\(issue)") }
/// let draft = loaded.value ?? Draft(title: "", body: "")
/// ```
///
/// The state is written as JSON inside a small checksummed frame (see *Saving state* in the
/// documentation for the format), to a temporary file that is flushed to disk and then renamed over
/// the current file, keeping the current file as the previous copy. A kill at any instant leaves a
/// complete copy, and ``load()`` falls back to the previous copy when the current one is damaged,
/// reporting why through ``LoadResult/issues``; it throws only when no copy can be used.
///
/// The folder holds `name.state`, `name.state.previous`, `name.state.tmp` while saving (or after a kill
/// during a save; the next save replaces it), and any damaged file set aside as `name.state.corrupt-N`
/// or `name.state.previous.corrupt-N`. The folder is created on the first save if it does not exist.
///
/// One store may be used from many threads: saves and loads are serialised, and the value's
/// `encode(to:)` and `init(from:)` run outside the store's lock. Use one store per folder and name in
/// one process at a time; two processes saving under the same name would share the temporary file.
public final class StateStore<Value: Codable & Sendable>: Sendable {
    /// What the store knows about the current file, kept across calls so that a save need not read it.
    enum CurrentFile: Sendable {
        /// Not checked yet (or it could not be read): the next save checks it before keeping it.
        case unknown
        /// A complete frame: the next save may keep it as the previous copy.
        case intact
        /// There is no current file.
        case absent
    }

    /// What one saved file turned out to be when read.
    enum Inspection: Sendable {
        case missing
        case unreadable(StateStoreError)
        case damaged(StateStoreError, bytes: [UInt8])
        case intact(bytes: [UInt8])
    }

    /// The folder the state files are in.
    public let directory: URL
    /// The store's name; the state files are called `name.state` and `name.state.previous`.
    public let name: String
    /// The current state file, `name.state`.
    public let fileURL: URL
    /// The previous good copy, `name.state.previous`.
    public let previousFileURL: URL

    let directoryPath: String
    let currentPath: String
    let previousPath: String
    let temporaryPath: String
    private let current = LockedValue(CurrentFile.unknown)

    /// Creates a store for the state called `name` in a folder. Nothing is read or written until the
    /// first ``save(_:)`` or ``load()``.
    ///
    /// ```swift
    /// let store = try StateStore<Settings>(directory: folder, name: "settings")
    /// ```
    ///
    /// - Parameters:
    ///   - directory: The folder, which need not exist yet: the first save creates it.
    ///   - name: A file name without a folder: not empty, no `/` or NUL, not `.` or `..`, at most 200
    ///     bytes of UTF-8.
    /// - Throws: A ``StateStoreError`` with ``StateStoreError/Problem/invalidName(_:)``.
    public init(directory: URL, name: String) throws(StateStoreError) {
        let why: String? = switch name {
        case "": "it is empty"
        case ".", "..": "it names a folder"
        case _ where name.contains("/"): "it contains \"/\""
        case _ where name.utf8.contains(0): "it contains a NUL character"
        case _ where name.utf8.count > 200: "it is longer than 200 bytes"
        default: nil
        }
        if let why { throw StateStoreError(.invalidName(why), path: directory.appendingPathComponent(name).path) }
        self.directory = directory
        self.name = name
        fileURL = directory.appendingPathComponent(name + ".state")
        previousFileURL = directory.appendingPathComponent(name + ".state.previous")
        directoryPath = directory.path
        currentPath = fileURL.path
        previousPath = previousFileURL.path
        temporaryPath = directory.appendingPathComponent(name + ".state.tmp").path
    }

    /// Saves a value atomically and durably: when this returns, the value is on stable storage, and a
    /// kill or power cut at any instant before it returns leaves either this value or the one saved
    /// before, complete. The value saved before is kept as the previous copy.
    ///
    /// ```swift
    /// func applicationDidEnterBackground(_ application: UIApplication) {
    ///     do { try store.save(model.state) } catch { logger.error("\(error)") }
    /// }
    /// ```
    ///
    /// Saves from several threads are serialised; the value is encoded on the calling thread first.
    ///
    /// - Parameter value: The state to save.
    /// - Returns: The issues with a current file that this store had not read yet and found damaged or
    ///   unreadable: it sets such a file aside instead of keeping it as the previous copy. Almost
    ///   always empty.
    /// - Throws: A ``StateStoreError``: ``StateStoreError/Problem/encodingFailed(codingPath:reason:)``
    ///   before anything is written, or ``StateStoreError/Problem/io(operation:errno:)`` naming the call
    ///   and file that failed. After an error ``load()`` returns the value saved before, except when
    ///   the final `fsync` of the folder failed: the new value is then in place but may not survive a
    ///   power cut.
    @discardableResult
    public func save(_ value: Value) throws(StateStoreError) -> [StateStoreIssue] {
        let payload = try StateCoding.encode(value, path: currentPath).get()     // user code: not under the lock
        let frame = StateFrame.encode(payload: payload)
        return try current.withLock { (current: inout CurrentFile) throws(StateStoreError) -> [StateStoreIssue] in
            try install(frame, current: &current)
        }
    }

    /// Writes `frame` as the new current file, keeping the current file as the previous copy.
    ///
    /// Why a kill at any instant leaves a complete copy, step by step (a complete copy is a file whose
    /// frame checks out, see ``StateFrame``):
    /// 0. Before anything, the current file is complete: it was checked (when unknown) or written by
    ///    this store. A damaged one is set aside by a rename and never becomes the previous copy, so a
    ///    kill later in this save cannot leave two damaged copies.
    /// 1. The new state goes to `name.state.tmp` and is `fsync`ed. Until the renames below, neither
    ///    `name.state` nor `name.state.previous` is touched, so a kill here leaves them as they were;
    ///    a torn temporary file is never read, and the next save truncates it.
    /// 2. `rename(current, previous)`: the old current file, complete, is now `name.state.previous`.
    ///    A kill here leaves no `name.state`; ``load()`` reports it missing and uses the previous copy.
    /// 3. `rename(tmp, current)`: `name.state` is the new state, complete because it was `fsync`ed
    ///    before it got its name. `rename` replaces its destination atomically: no process ever sees
    ///    a half-renamed file.
    /// 4. `fsync` on the folder makes the renames themselves durable before `save` returns.
    ///
    /// So at every instant either `name.state` (steps 0, 1 and 3) or `name.state.previous` (between 2
    /// and 3) is complete. A power cut before step 4 may lose either rename or both; each moves a
    /// complete, synchronised file, so whichever survive still leave a complete copy.
    private func install(_ frame: [UInt8], current: inout CurrentFile) throws(StateStoreError) -> [StateStoreIssue] {
        var issues: [StateStoreIssue] = []
        if current == .unknown {                                              // step 0
            switch inspect(currentPath) {
            case .intact:
                current = .intact
            case .missing:
                current = .absent
            case .damaged(let error, _), .unreadable(let error):
                // If it cannot be set aside, stop: keeping it would replace the previous good copy.
                issues.append(StateStoreIssue(error, keptAt: try setAside(currentPath)))
                current = .absent
            }
        }
        do {                                                                  // step 1
            try DurableFileIO.writeAndSync(frame, to: temporaryPath)
        } catch let error where error.problem == .io(operation: "open", errno: ENOENT) {
            try DurableFileIO.makeDirectory(directoryPath)                    // the folder did not exist
            try DurableFileIO.writeAndSync(frame, to: temporaryPath)
        }
        if current == .intact {                                               // step 2
            do {
                try DurableFileIO.rename(currentPath, to: previousPath)
            } catch let error {
                // ENOENT: someone else removed the current file; there is nothing to keep.
                if case .io(_, ENOENT) = error.problem {} else {
                    DurableFileIO.removeIfPresent(temporaryPath)
                    throw error
                }
            }
            current = .absent
        }
        do {                                                                  // step 3
            try DurableFileIO.rename(temporaryPath, to: currentPath)
        } catch {
            DurableFileIO.removeIfPresent(temporaryPath)
            throw error
        }
        current = .intact
        try DurableFileIO.syncDirectory(directoryPath)                        // step 4
        return issues
    }

    /// Reads a file and checks its frame.
    func inspect(_ path: String) -> Inspection {
        switch DurableFileIO.read(path) {
        case .missing:
            return .missing
        case .failed(let error):
            return .unreadable(error)
        case .bytes(let bytes):
            switch StateFrame.payload(of: bytes, path: path) {
            case .success: return .intact(bytes: bytes)
            case .failure(let error): return .damaged(error, bytes: bytes)
            }
        }
    }

    /// Renames a damaged file to the first free `path.corrupt-N`, and synchronises the folder.
    /// - Returns: The file's new path.
    func setAside(_ path: String) throws(StateStoreError) -> String {
        for number in 1...10_000 {
            let target = "\(path).corrupt-\(number)"
            guard try !DurableFileIO.exists(target) else { continue }
            try DurableFileIO.rename(path, to: target)
            try DurableFileIO.syncDirectory(directoryPath)
            return target
        }
        throw StateStoreError(.io(operation: "rename (10000 files already set aside)", errno: EEXIST), path: path)
    }

    /// Runs `body` under the store's lock, with what it knows about the current file.
    func withCurrentFile<Result: Sendable>(_ body: (inout CurrentFile) -> Result) -> Result {
        current.withLock { body(&$0) }
    }
}
