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
/// the current file, keeping the current file as the previous copy (by a hard link, so a save never
/// leaves `name.state` missing; a damaged current file set aside, or a file system without hard
/// links, can). A kill at any instant leaves a complete copy, and ``load()`` falls back to
/// the previous copy when the current one is damaged, reporting why through ``LoadResult/issues``; it
/// throws only when no copy can be used.
///
/// The folder holds `name.state`, `name.state.previous` and `name.state.lock` (the lock file, empty),
/// a `name.state.tmp-<pid>-<random>` file while a save runs (one left by a killed save is removed by
/// the next save), and any damaged file or other thing in the way set aside as `….corrupt-N`. The
/// folder is created on the first save if it does not exist.
///
/// One store may be used from many threads, and several stores (in one process or in several) may
/// save and load under the same folder and name at once: every save, and the part of every load that
/// reads the files and sets damaged ones aside, holds an advisory lock on `name.state.lock` (record
/// locks, `fcntl`), served first come, first served, whether the others waiting are threads of the
/// same store, other stores or other processes, and waits up to ``lockTimeout`` for its turn. A
/// waiter that gives up or is killed leaves the line and holds up nobody. The value's `encode(to:)`
/// and `init(from:)` run with no lock held. The lock file is opened close-on-exec, but on Linux a
/// child process that another thread forks while a save holds the lock shares the lock until the
/// child calls `exec` (an open-file-description lock belongs to the open file, which `fork` shares):
/// a zero or very short ``lockTimeout`` can then be refused for that moment, so a process that spawns
/// children at any time should give saves a timeout of at least a few milliseconds.
///
/// The store trusts nothing it finds on disk: it never follows a symbolic link, never blocks on a
/// named pipe, refuses anything that is not a regular file, and reads a file's header before the rest,
/// so that a file that is not a state file, or is larger than ``maximumFileSize``, costs one small
/// read. Whatever is in its way is renamed aside and reported as a ``StateStoreIssue``, so a later save
/// works again.
public final class StateStore<Value: Codable & Sendable>: Sendable {
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
    /// The start of every temporary file's name: `name.state.tmp`.
    let temporaryPrefix: String
    /// The lock file, `name.state.lock`.
    let lockPath: String
    /// The largest state file, header included, that the store writes or reads: a larger value is
    /// refused by ``save(_:)`` and a larger file is set aside by ``load()`` without being read.
    public let maximumFileSize: Int
    /// How long a save or load waits for its turn (for the saves and loads that asked before it, in
    /// this process or another, to finish) before it gives up with
    /// ``StateStoreError/Problem/lockTimeout(waited:)``.
    public let lockTimeout: Duration

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
    ///   - maximumFileSize: The largest state file, header included, to write or read: 64 MiB unless
    ///     given; at least 64 bytes. It bounds the memory a load can use whatever is on disk.
    ///   - lockTimeout: How long a save or load waits while another store saves under the same name:
    ///     5 seconds unless given (a save holds the lock for milliseconds; five seconds is all
    ///     `applicationDidEnterBackground` has); `.zero` refuses at once instead of waiting.
    /// - Throws: A ``StateStoreError`` with ``StateStoreError/Problem/invalidName(_:)``, or
    ///   ``StateStoreError/Problem/invalidSetting(_:)`` for a negative timeout or a size under 64.
    public init(directory: URL, name: String, maximumFileSize: Int = 64 << 20,
                lockTimeout: Duration = .seconds(5)) throws(StateStoreError) {
        let why: String? = switch name {
        case "": "it is empty"
        case ".", "..": "it names a folder"
        case _ where name.contains("/"): "it contains \"/\""
        case _ where name.utf8.contains(0): "it contains a NUL character"
        case _ where name.utf8.count > 200: "it is longer than 200 bytes"
        default: nil
        }
        if let why { throw StateStoreError(.invalidName(why), path: directory.appendingPathComponent(name).path) }
        let setting: String? = switch (maximumFileSize, lockTimeout) {
        case (..<64, _): "maximumFileSize is \(maximumFileSize) bytes; it must be at least 64"
        case (_, ..<Duration.zero): "lockTimeout is \(lockTimeout); it must not be negative"
        default: nil
        }
        if let setting { throw StateStoreError(.invalidSetting(setting), path: directory.appendingPathComponent(name).path) }
        self.directory = directory
        self.name = name
        self.maximumFileSize = maximumFileSize
        self.lockTimeout = lockTimeout
        fileURL = directory.appendingPathComponent(name + ".state")
        previousFileURL = directory.appendingPathComponent(name + ".state.previous")
        directoryPath = directory.path
        currentPath = fileURL.path
        previousPath = previousFileURL.path
        temporaryPrefix = directory.appendingPathComponent(name + ".state.tmp").path
        lockPath = directory.appendingPathComponent(name + ".state.lock").path
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
    /// Saves from several threads, and from other stores and processes under the same name, are
    /// serialised by the lock file and served in the order they asked for it; the value is encoded on
    /// the calling thread first, with no lock held.
    ///
    /// - Parameter value: The state to save.
    /// - Returns: What the save found in its way and set aside (almost always nothing): a current
    ///   file that is damaged (it is never kept as the previous copy), or a folder, named pipe,
    ///   symbolic link or other non-regular file at one of the store's names.
    /// - Throws: A ``StateStoreError``: ``StateStoreError/Problem/encodingFailed(codingPath:reason:)``
    ///   or ``StateStoreError/Problem/tooLarge(bytes:limit:)`` before anything is written,
    ///   ``StateStoreError/Problem/lockTimeout(waited:)`` when the saves and loads ahead of it kept the
    ///   lock for longer than ``lockTimeout`` (nothing was changed), or
    ///   ``StateStoreError/Problem/io(operation:errno:)`` naming the call and file that failed. After an error ``load()`` returns the value saved
    ///   before, except when the final `fsync` of the folder failed: the new value is then in place
    ///   but may not survive a power cut.
    @discardableResult
    public func save(_ value: Value) throws(StateStoreError) -> [StateStoreIssue] {
        let payload = try StateCoding.encode(value, path: currentPath).get()     // user code: no lock held
        let frame = StateFrame.encode(payload: payload)
        guard frame.count <= maximumFileSize else {
            throw StateStoreError(.tooLarge(bytes: UInt64(frame.count), limit: UInt64(maximumFileSize)), path: currentPath)
        }
        return try withLockFile(creatingFolder: true) { (issues: inout [StateStoreIssue]) throws(StateStoreError) in
            try install(frame, issues: &issues)
        }.issues
    }

    /// Writes `frame` as the new current file, keeping the current file as the previous copy. Runs
    /// with the lock file held, so no other writer is between any two of these steps.
    ///
    /// Why a kill at any instant leaves a complete copy, step by step (a complete copy is a file whose
    /// frame checks out, see ``StateFrame``):
    /// 0. Before anything, the current file is read back and its frame and checksums verified, every
    ///    time: a damaged (or non-regular) current file is set aside by a rename and never becomes
    ///    the previous copy, so neither a kill later in this save nor one more fault can leave two
    ///    damaged copies. When the read itself fails (`open`, `fstat` or `read` with EMFILE, EIO…),
    ///    the save throws that error and changes nothing: the file may well be good. Temporary files left by killed saves are removed, and
    ///    anything that is not a regular file at the previous copy's name is set aside.
    /// 1. The new state goes to a new `name.state.tmp-<pid>-<random>` (created `O_EXCL | O_NOFOLLOW`)
    ///    and is `fsync`ed. Until the renames below, neither `name.state` nor `name.state.previous` is
    ///    touched, so a kill here leaves them as they were; a torn temporary file is never read, and
    ///    the next save removes it.
    /// 2. `link(current, tmp2)`, then `rename(tmp2, previous)`: the old current file, complete, is
    ///    now also `name.state.previous` (two names for one file), and `name.state` never stopped
    ///    being there. A kill between the two leaves a hard link under a temporary name, which the
    ///    next save removes. (On a file system without hard links, `EPERM` or `ENOTSUP`, this step
    ///    is `rename(current, previous)`, and a kill before step 3 leaves no `name.state`: ``load()``
    ///    reports it missing and uses the previous copy.)
    /// 3. `rename(tmp, current)`: `name.state` is the new state, complete because it was `fsync`ed
    ///    before it got its name. `rename` replaces its destination atomically: no process ever sees
    ///    a half-renamed file, nor a moment without one.
    /// 4. `fsync` on the folder makes the link and the renames durable before `save` returns.
    ///
    /// So at every instant of a save `name.state` is there and complete (where the file system has
    /// hard links, and once a damaged current file has been set aside). A power cut before step 4 may lose
    /// any of the link and the renames; each names a complete, synchronised file, so whatever
    /// survives still leaves a complete copy (at worst the previous copy is one save older).
    private func install(_ frame: [UInt8], issues: inout [StateStoreIssue]) throws(StateStoreError) {
        let current = DurableFileIO.readStateFile(currentPath, maximumSize: maximumFileSize)  // step 0
        // A read that failed (EMFILE, EIO…) says nothing about the file, which may be good: fail the
        // save, changing nothing, rather than set it aside.
        if case .unreadable(let error) = current { throw error }
        issues += try removeTemporaryFiles()
        if case .other(let kind) = try DurableFileIO.entry(at: previousPath) {
            issues.append(StateStoreIssue(StateStoreError(.notARegularFile(kind), path: previousPath),
                                          keptAt: try setAside(previousPath)))
        }
        let keepCurrent: Bool
        switch current {
        case .intact:
            keepCurrent = true
        case .missing, .unreadable:
            keepCurrent = false
        case .damaged(let error, _):
            // If it cannot be set aside, stop: keeping it would replace the previous good copy.
            issues.append(StateStoreIssue(error, keptAt: try setAside(currentPath)))
            keepCurrent = false
        }
        let temporaryPath = try writeTemporaryFile(frame)                     // step 1
        if keepCurrent {                                                      // step 2
            do {
                try keepCurrentAsPrevious()
            } catch let error {
                // ENOENT: someone removed the current file meanwhile; there is nothing to keep.
                if case .io(_, ENOENT) = error.problem {} else {
                    DurableFileIO.removeIfPresent(temporaryPath)
                    throw error
                }
            }
        }
        do {                                                                  // step 3
            try DurableFileIO.rename(temporaryPath, to: currentPath)
        } catch {
            DurableFileIO.removeIfPresent(temporaryPath)
            throw error
        }
        try DurableFileIO.syncDirectory(directoryPath)                        // step 4
    }

    /// Makes the current file the previous copy as well (``install(_:issues:)``, step 2), with no
    /// moment when `name.state` is missing: a hard link to it under a new temporary name, renamed over
    /// `name.state.previous`. On a file system without hard links it renames the current file instead.
    /// - Throws: A ``StateStoreError`` for `link` or `rename`; `ENOENT` when there is no current file.
    private func keepCurrentAsPrevious() throws(StateStoreError) {
        var attempts = 0
        while true {
            attempts += 1
            let linkPath = newTemporaryPath()
            switch DurableFileIO.link(currentPath, to: linkPath) {
            case 0:
                // When both names already were one file (a kill between this step and the next),
                // `rename` does nothing and leaves the link: remove it either way.
                defer { DurableFileIO.removeIfPresent(linkPath) }
                try DurableFileIO.rename(linkPath, to: previousPath)
                return
            case EEXIST where attempts < 4:
                continue                                           // a name already taken: draw another
            case EPERM, ENOTSUP, EOPNOTSUPP, ENOSYS, EMLINK:
                // No hard links here (FAT, some network file systems), or not to this file: rename.
                try DurableFileIO.rename(currentPath, to: previousPath)
                return
            case let code:
                throw StateStoreError(.io(operation: "link to \(linkPath)", errno: code), path: currentPath)
            }
        }
    }

    /// Renames a damaged file (or anything else in the way) to the first free `path.corrupt-N`, and
    /// synchronises the folder. Called with the lock file held (or, for the lock file itself, the
    /// folder's lock), so no other store picks the same name or moves the same thing.
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
}
