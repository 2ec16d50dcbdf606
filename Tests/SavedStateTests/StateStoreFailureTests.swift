import Foundation
import Testing
@testable import SavedState

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
            let temporary = folder.appendingPathComponent("note.state.tmp-4242-00000000deadbeef")
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

    @Test func aSaveRemovesTemporaryFilesLeftByKilledSavesAndNothingElse() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note")
            try store.save(older)
            let leftovers = ["note.state.tmp", "note.state.tmp-17-0123456789abcdef", "note.state.tmp-99999-ff"]
            let others = ["note.state.tmp-17-0123456789abcdef.bak", "note.state.tmp-x-1", "note.state.tmp.corrupt-1",
                          "other.state.tmp-17-ab", "note.state.tmp-17-ab-1.state"]
            for name in leftovers + others { try Data("torn".utf8).write(to: folder.appendingPathComponent(name)) }
            #expect(try store.save(newer) == [])
            #expect(try fileNames(in: folder) == (["note.state", "note.state.previous"] + others).sorted())
            #expect(try store.load() == .init(value: newer, source: .current))
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root may write to any folder"))
    func aSaveIntoAFolderWithoutWritePermissionThrowsAndKeepsTheSavedState() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note")
            try store.save(newer)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
            let error = try #require(throws: StateStoreError.self) { try store.save(next) }
            #expect(error.problem == .io(operation: "open", errno: EACCES))
            #expect(error.path.hasPrefix(folder.appendingPathComponent("note.state.tmp-").path))
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
                                             path: file.appendingPathComponent("note.state.lock").path))
            #expect("\(error)".hasSuffix("plain-file/note.state.lock: open failed: Not a directory (errno 20)"))
        }
    }
}
