import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

extension StateStore {
    /// Runs `body` with the lock file held, so no other save or load (on another thread, by another
    /// store, or in another process) reads, writes or sets aside the store's files meanwhile. Never
    /// calls user code.
    ///
    /// The threads of one process first wait in line for the lock file (``LockFileQueue``, keyed by
    /// the folder's device and inode, so every spelling of the folder shares one line), so they take
    /// it in the order they asked, and only the first in line goes on to the lock file, where it
    /// takes a ticket and waits its turn among the other processes (``StateFileLock``); the whole
    /// wait, in line and for its turn, lasts at most ``lockTimeout``. Something other than a regular
    /// file at the lock file's name is set aside (holding the folder's own lock, so only one store
    /// does it) and reported, and the lock taken on a new file.
    ///
    /// - Parameters:
    ///   - creatingFolder: Whether to create a missing folder (a save). Without it (a load), a folder
    ///     that does not exist or cannot be written runs `body` without the lock file: there is
    ///     nothing to read, or no store can write there either.
    ///   - body: The work; it may append to the issues.
    /// - Returns: What `body` returned and the issues found.
    /// - Throws: What `body` threw, or a ``StateStoreError`` for the lock file: a timeout, a failed
    ///   `open`, `fstat` or `fcntl`, a non-regular file there that could not be set aside, or, for a
    ///   save, the `mkdir` of a folder that cannot be made.
    func withLockFile<Result>(
        creatingFolder: Bool,
        _ body: (inout [StateStoreIssue]) throws(StateStoreError) -> Result
    ) throws(StateStoreError) -> (result: Result, issues: [StateStoreIssue]) {
        var issues: [StateStoreIssue] = []
        let deadline = ContinuousClock.now.advanced(by: lockTimeout)
        let line = try enterLine(creatingFolder: creatingFolder, until: deadline)
        defer { LockFileQueue.leave(line.key, ticket: line.ticket) }
        // Only a thread in the folder's own line may open the lock file (see `enterLine`).
        let descriptor = line.isFolders
            ? try lockDescriptor(creatingFolder: creatingFolder, until: deadline, issues: &issues) : nil
        defer { descriptor.map(StateFileLock.release) }
        let result = try body(&issues)
        return (result, issues)
    }

    /// A place in a line of ``LockFileQueue``.
    struct LockLine: Equatable {
        /// The line's key.
        var key: String
        /// Whether the key is the folder's device and inode (``folderLineKey()``); otherwise it is the
        /// lock file's path as spelt, for a folder that does not exist (a load) or cannot be made.
        var isFolders: Bool
        /// The place, for ``LockFileQueue/leave(_:ticket:)``.
        var ticket: UInt64
    }

    /// Waits first in the line of the store's lock file in ``LockFileQueue``, keyed by the folder's
    /// device and inode, and the lock file's name (``folderLineKey()``), so that two spellings of one
    /// folder (a symbolic link in its path, a bind mount) share a line. POSIX record locks belong to
    /// the process, so two threads of one process must never hold one lock file at once, and on
    /// Darwin, where open-file-description locks are missing, this line is what prevents it: every
    /// thread that opens the lock file must be in the same line.
    ///
    /// A folder that does not exist has no inode, so a load that finds none waits in a line keyed
    /// by the lock file's path as spelt, and never opens the lock file (there is nothing to read). A
    /// save first creates a missing folder. Once first in a line, the key is taken again: if the
    /// folder appeared meanwhile (a save on another thread created it) or was replaced, the thread
    /// moves to the folder's line, so a load and a save of the same folder always meet in one line
    /// whatever the order in which they saw it. A save whose folder still cannot be reached then
    /// tries to make it once more and throws why it cannot.
    ///
    /// - Parameters:
    ///   - creatingFolder: Whether to create a missing folder (a save).
    ///   - deadline: When to give up waiting.
    ///   - firstInLine: Called each time the thread is first in a line, before it looks at the
    ///     folder again (tests make the folder appear there).
    /// - Returns: The line the thread is first in; leave it with ``LockFileQueue/leave(_:ticket:)``.
    /// - Throws: ``StateStoreError/Problem/lockTimeout(waited:)`` when the wait ran out, or, for a
    ///   save, ``StateStoreError/Problem/io(operation:errno:)`` for the folder's `mkdir`.
    func enterLine(
        creatingFolder: Bool, until deadline: ContinuousClock.Instant, firstInLine: () -> Void = {}
    ) throws(StateStoreError) -> LockLine {
        if creatingFolder, folderLineKey() == nil {
            _ = try? DurableFileIO.makeDirectory(directoryPath)      // a failure is reported below
        }
        var key = folderLineKey()
        var moves = 0
        while true {
            guard let ticket = LockFileQueue.enter(key ?? lockPath, until: deadline) else {
                throw StateStoreError(.lockTimeout(waited: lockTimeout), path: lockPath)
            }
            firstInLine()
            let now = folderLineKey()
            let settled = moves >= 3                                  // a folder that keeps changing
            if now == key || settled, key != nil || !creatingFolder {
                return LockLine(key: key ?? lockPath, isFolders: key != nil, ticket: ticket)
            }
            LockFileQueue.leave(key ?? lockPath, ticket: ticket)
            if now == nil, creatingFolder {
                try DurableFileIO.makeDirectory(directoryPath)       // throws why it cannot be made
                guard let made = folderLineKey() else {
                    throw StateStoreError(.io(operation: "stat", errno: ENOENT), path: directoryPath)
                }
                key = made
            } else {
                key = now
            }
            moves += 1
        }
    }

    /// The folder's device and inode and the lock file's name, or `nil` when the folder cannot be
    /// reached (`stat` fails).
    func folderLineKey() -> String? {
        var info = stat()
        guard stat(directoryPath, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino)/\(name).state.lock"
    }

    /// Takes the lock file: `nil` when a load may go on without it (see ``withLockFile(creatingFolder:_:)``).
    /// A wait that runs out is reported as one of ``lockTimeout``, the whole wait allowed.
    private func lockDescriptor(
        creatingFolder: Bool,
        until deadline: ContinuousClock.Instant,
        issues: inout [StateStoreIssue]
    ) throws(StateStoreError) -> Int32? {
        var attempts = 0
        while true {
            attempts += 1
            do {
                return try StateFileLock.acquire(lockPath, timeout: max(.zero, deadline - .now))
            } catch let error {
                switch error.problem {
                case .lockTimeout:
                    throw StateStoreError(.lockTimeout(waited: lockTimeout), path: error.path)
                case .notARegularFile where attempts < 3:
                    if let issue = try setAsideLockFileInTheWay(until: deadline) { issues.append(issue) }
                case .io("open", ENOENT) where creatingFolder && attempts < 3:
                    try DurableFileIO.makeDirectory(directoryPath)
                case .io("open", ENOENT), .io("open", ENOTDIR), .io("open", EACCES), .io("open", EROFS), .io("open", EPERM):
                    guard creatingFolder else { return nil }
                    throw error
                default:
                    throw error
                }
            }
        }
    }

    /// Sets aside what is in the way at the lock file's name, holding the folder's own lock
    /// (``StateFileLock/acquireFolder(_:timeout:)``) instead of the lock file, which cannot be taken.
    /// Under that lock it looks again: when another store has set the thing aside meanwhile (there
    /// is nothing, or a new regular lock file, perhaps locked by a save), it changes nothing.
    /// - Returns: The issue to report, or `nil` when another store set the thing aside.
    private func setAsideLockFileInTheWay(until deadline: ContinuousClock.Instant) throws(StateStoreError) -> StateStoreIssue? {
        let folder = try StateFileLock.acquireFolder(directoryPath, timeout: max(.zero, deadline - .now))
        defer { StateFileLock.release(folder) }
        guard case .other(let kind) = try DurableFileIO.entry(at: lockPath) else { return nil }
        return StateStoreIssue(StateStoreError(.notARegularFile(kind), path: lockPath), keptAt: try setAside(lockPath))
    }

    /// A new temporary file name, `name.state.tmp-<pid>-<random>`: the next save removes whatever a
    /// killed save left under such a name.
    func newTemporaryPath() -> String {
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return "\(temporaryPrefix)-\(getpid())-\(String(repeating: "0", count: 16 - suffix.count))\(suffix)"
    }

    /// Writes the frame to a new, uniquely named temporary file (`name.state.tmp-<pid>-<random>`)
    /// and synchronises it.
    /// - Returns: The file's path.
    func writeTemporaryFile(_ frame: [UInt8]) throws(StateStoreError) -> String {
        var attempts = 0
        while true {
            attempts += 1
            let path = newTemporaryPath()
            do {
                try DurableFileIO.writeNewAndSync(frame, to: path)
                return path
            } catch let error where error.problem == .io(operation: "open", errno: EEXIST) && attempts < 4 {
                continue                                       // a name already taken: draw another
            }
        }
    }

    /// Removes what killed saves left behind: every temporary file of this store's name
    /// (`name.state.tmp`, the name older versions used, and `name.state.tmp-<pid>-<hex>`: a new
    /// state, or a hard link to the current file on its way to become the previous copy). Called
    /// with the lock file held, when no save is writing one. Regular files are removed (a symbolic
    /// link is removed itself, never followed); anything else there is set aside and reported.
    /// - Returns: The things set aside.
    func removeTemporaryFiles() throws(StateStoreError) -> [StateStoreIssue] {
        let prefix = (temporaryPrefix as NSString).lastPathComponent
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directoryPath) else { return [] }
        var issues: [StateStoreIssue] = []
        for entry in entries where Self.isTemporaryName(entry, prefix: prefix) {
            let path = directoryPath + "/" + entry
            switch try DurableFileIO.entry(at: path) {
            case .nothing:
                break
            case .regularFile:
                DurableFileIO.removeIfPresent(path)
            case .other(let kind):
                issues.append(StateStoreIssue(StateStoreError(.notARegularFile(kind), path: path), keptAt: try setAside(path)))
            }
        }
        return issues
    }

    /// Whether a file name is one of the store's temporary files: exactly `prefix`, or
    /// `prefix-<digits>-<hex digits>` and nothing more.
    static func isTemporaryName(_ entry: String, prefix: String) -> Bool {
        guard entry.hasPrefix(prefix) else { return false }
        let rest = entry.dropFirst(prefix.count)
        if rest.isEmpty { return true }
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].isEmpty
            && !parts[1].isEmpty && parts[1].allSatisfy { $0.isASCII && $0.isNumber }
            && !parts[2].isEmpty && parts[2].allSatisfy { $0.isASCII && $0.isHexDigit }
    }
}
