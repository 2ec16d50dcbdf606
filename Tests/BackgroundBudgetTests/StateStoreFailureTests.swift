import Foundation
import Testing
@testable import BackgroundBudget

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Saves that stop part-way, by a kill (the folder states a kill can leave, built by hand) or by a
/// failing system call: the state saved before is never lost.
@Suite struct StateStoreFailureTests {
    let older = Note(title: "older")
    let newer = Note(title: "newer")
    let next = Note(title: "next")

    /// The folder states a save of `next` passes through, after `older` and `newer` were saved, in
    /// order, and the value a load must return from each (see `StateStore.install`).
    enum KillPoint: CaseIterable, CustomTestStringConvertible {
        case whileWritingTheTemporaryFile, afterSyncingTheTemporaryFile, afterKeepingThePreviousCopy, afterInstalling

        var testDescription: String { "\(self)" }
    }

    @Test(arguments: KillPoint.allCases)
    func everyFolderStateAKillCanLeaveLoadsACompleteState(at point: KillPoint) throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note")
            try store.save(older)
            try store.save(newer)
            let frame = StateFrame.encode(payload: Array(try JSONEncoder().encode(next)))
            let temporary = folder.appendingPathComponent("note.state.tmp")
            switch point {
            case .whileWritingTheTemporaryFile:
                try Data(frame.prefix(frame.count / 2)).write(to: temporary)
            case .afterSyncingTheTemporaryFile:
                try Data(frame).write(to: temporary)
            case .afterKeepingThePreviousCopy:
                try Data(frame).write(to: temporary)
                try FileManager.default.removeItem(at: store.previousFileURL)
                try FileManager.default.moveItem(at: store.fileURL, to: store.previousFileURL)
            case .afterInstalling:
                try FileManager.default.removeItem(at: store.previousFileURL)
                try FileManager.default.moveItem(at: store.fileURL, to: store.previousFileURL)
                try Data(frame).write(to: store.fileURL)
            }
            let loaded = try StateStore<Note>(directory: folder, name: "note").load()
            switch point {
            case .whileWritingTheTemporaryFile, .afterSyncingTheTemporaryFile:
                #expect(loaded == .init(value: newer, source: .current))
            case .afterKeepingThePreviousCopy:
                #expect(loaded == .init(value: newer, source: .previous, issues: [
                    StateStoreIssue(StateStoreError(.missing, path: store.fileURL.path), keptAt: nil),
                ]))
            case .afterInstalling:
                #expect(loaded == .init(value: next, source: .current))
            }
            // The store carries on from any of them: a leftover temporary file is overwritten.
            try store.save(Note(title: "after"))
            #expect(try store.load().value == Note(title: "after"))
            #expect(try fileNames(in: folder) == ["note.state", "note.state.previous"])
        }
    }

    @Test func aSaveThatCannotCreateItsTemporaryFileThrowsAndKeepsTheSavedState() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note")
            try store.save(older)
            try store.save(newer)
            // A folder where the temporary file should be: `open` fails with EISDIR, even as root.
            let temporary = folder.appendingPathComponent("note.state.tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
            #expect(throws: StateStoreError(.io(operation: "open", errno: EISDIR), path: temporary.path)) {
                try store.save(next)
            }
            #expect(try store.load() == .init(value: newer, source: .current))
            try FileManager.default.removeItem(at: temporary)
            try store.save(next)
            #expect(try store.load().value == next)
        }
    }

    @Test func aSaveThatCannotKeepThePreviousCopyThrowsAndKeepsTheSavedState() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note")
            try store.save(older)
            try store.save(newer)
            // A non-empty folder where the previous copy goes: the first rename fails, even as root.
            try FileManager.default.removeItem(at: store.previousFileURL)
            try FileManager.default.createDirectory(at: store.previousFileURL.appendingPathComponent("in-the-way"),
                                                    withIntermediateDirectories: true)
            let error = try #require(throws: StateStoreError.self) { try store.save(next) }
            guard case .io(let operation, _) = error.problem else {
                Issue.record("expected an I/O error, got \(error)")
                return
            }
            #expect(operation == "rename to \(store.previousFileURL.path)")
            #expect(error.path == store.fileURL.path)
            let loaded = try store.load()
            #expect(loaded.value == newer && loaded.source == .current)
            #expect(loaded.issues == [StateStoreIssue(StateStoreError(.io(operation: "read", errno: EISDIR), path: store.previousFileURL.path),
                                                      keptAt: store.previousFileURL.path)])
            #expect(try fileNames(in: folder) == ["note.state", "note.state.previous"])      // no temporary file left
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root may write to any folder"))
    func aSaveIntoAFolderWithoutWritePermissionThrowsAndKeepsTheSavedState() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note")
            try store.save(newer)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
            #expect(throws: StateStoreError(.io(operation: "open", errno: EACCES),
                                            path: folder.appendingPathComponent("note.state.tmp").path)) {
                try store.save(next)
            }
            #expect(try store.load() == .init(value: newer, source: .current))
        }
    }

    @Test func aSaveUnderAFileInsteadOfAFolderThrowsWithTheFolderInTheError() throws {
        try withStateFolder { folder in
            let file = folder.appendingPathComponent("plain-file")
            try Data("x".utf8).write(to: file)
            let store = try StateStore<Note>(directory: file, name: "note")
            let error = try #require(throws: StateStoreError.self) { try store.save(next) }
            #expect(error == StateStoreError(.io(operation: "open", errno: ENOTDIR),
                                             path: file.appendingPathComponent("note.state.tmp").path))
            #expect("\(error)".hasSuffix("plain-file/note.state.tmp: open failed: Not a directory (errno 20)"))
        }
    }
}
