extension StateStore {
    /// Loads the last saved value, falling back to the previous copy when the current file is missing,
    /// damaged or does not decode.
    ///
    /// ```swift
    /// let loaded = try store.load()
    /// for issue in loaded.issues { logger.error("\(issue)") }   // e.g. "…/draft.state: checksum mismatch: …; set aside as …/draft.state.corrupt-1"
    /// let draft = loaded.value ?? Draft()                       // nil: nothing saved yet
    /// ```
    ///
    /// A damaged file (a bad frame, JSON that does not decode as `Value`, a file larger than
    /// ``maximumFileSize``, or a folder, named pipe, symbolic link or device at its name) is renamed
    /// aside to `….corrupt-N`, never deleted, and reported in ``LoadResult/issues`` with its new
    /// path. A file that cannot be read (a failed system call) is left in place and reported. Nothing
    /// is followed, nothing blocks, and no more than the header is read from a file whose header is
    /// wrong.
    ///
    /// The files are read, and damaged ones set aside, with the lock file held (see ``lockTimeout``),
    /// so a load never sees a save half-way and never sets aside a file a save has just replaced.
    ///
    /// - Returns: The value and where it came from; ``LoadResult/Source/nothingSaved`` when there are
    ///   no state files.
    /// - Throws: A ``StateStoreError`` with ``StateStoreError/Problem/noGoodCopy(_:)`` listing each
    ///   file and what was wrong with it, only when files exist and none of them can be used;
    ///   ``StateStoreError/Problem/lockTimeout(waited:)`` when the saves and loads ahead of it kept
    ///   the lock for longer than ``lockTimeout``; ``StateStoreError/Problem/io(operation:errno:)`` when the lock file
    ///   could not be opened or locked in a folder this process can write to.
    public func load() throws(StateStoreError) -> LoadResult {
        // With the lock file held: read both files, and set aside those that are damaged.
        let ((inspections, frameIssues), lockIssues) = try withLockFile(creatingFolder: false) { (_: inout [StateStoreIssue]) in
            let inspections = [DurableFileIO.readStateFile(currentPath, maximumSize: maximumFileSize),
                               DurableFileIO.readStateFile(previousPath, maximumSize: maximumFileSize)]
            var issues: [[StateStoreIssue]] = [[], []]
            for (index, path) in [currentPath, previousPath].enumerated() {
                switch inspections[index] {
                case .missing, .intact:
                    break
                case .unreadable(let error):
                    issues[index].append(StateStoreIssue(error, keptAt: path))
                case .damaged(let error, _):
                    issues[index] += setAsideReporting(error, path: path)
                }
            }
            return (inspections, issues)
        }
        var issues = frameIssues
        if case .missing = inspections[0], !isMissing(inspections[1]) {
            issues[0].append(StateStoreIssue(StateStoreError(.missing, path: currentPath), keptAt: nil))
        }

        // With no lock held, as decoding runs the value's `init(from:)`: the newest copy that decodes.
        var undecodable: [(index: Int, error: StateStoreError, bytes: [UInt8])] = []
        var found: (value: Value, source: LoadResult.Source)?
        for (index, inspection) in inspections.enumerated() {
            guard case .intact(let bytes) = inspection else { continue }
            let path = index == 0 ? currentPath : previousPath
            switch StateCoding.decode(Value.self, from: bytes[StateFrame.headerSize...], path: path) {
            case .success(let value):
                found = (value, index == 0 ? .current : .previous)
            case .failure(let error):
                undecodable.append((index, error, bytes))
            }
            if found != nil { break }
        }

        // With the lock file held again: set aside the files that did not decode, unless a save
        // replaced them meanwhile.
        var laterLockIssues: [StateStoreIssue] = []
        if !undecodable.isEmpty {
            let (decodingIssues, moreLockIssues) = try withLockFile(creatingFolder: false) { (_: inout [StateStoreIssue]) in
                undecodable.map { index, error, bytes in
                    let path = index == 0 ? currentPath : previousPath
                    guard case .intact(let now) = DurableFileIO.readStateFile(path, maximumSize: maximumFileSize), now == bytes else {
                        return [StateStoreIssue(error, keptAt: nil)]          // a save replaced it meanwhile
                    }
                    return setAsideReporting(error, path: path)
                }
            }
            for (slot, reported) in zip(undecodable.map(\.index), decodingIssues) { issues[slot] += reported }
            laterLockIssues = moreLockIssues
        }

        let allIssues = Array(issues.joined()) + lockIssues + laterLockIssues
        if let found { return LoadResult(value: found.value, source: found.source, issues: allIssues) }
        if inspections.allSatisfy(isMissing) { return LoadResult(value: nil, source: .nothingSaved, issues: allIssues) }
        throw StateStoreError(.noGoodCopy(allIssues), path: currentPath)
    }

    /// Sets a damaged file aside and returns the issue to report: with its new path, or, if it could
    /// not be renamed, left in place and followed by the rename's error.
    private func setAsideReporting(_ error: StateStoreError, path: String) -> [StateStoreIssue] {
        do {
            return [StateStoreIssue(error, keptAt: try setAside(path))]
        } catch let renameError {
            return [StateStoreIssue(error, keptAt: (try? DurableFileIO.exists(path)) == false ? nil : path),
                    StateStoreIssue(renameError, keptAt: nil)]
        }
    }

    private func isMissing(_ inspection: DurableFileIO.StateFileRead) -> Bool {
        if case .missing = inspection { return true }
        return false
    }
}
