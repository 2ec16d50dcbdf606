import Foundation
import Testing
@testable import SavedState

/// The line of the lock file in ``LockFileQueue`` does not depend on whether the folder existed when
/// a save or load first looked: every thread that may open the lock file waits in the folder's own
/// line, so a load and a save of one folder exclude each other even with process-wide record locks
/// (Darwin). Single-threaded: the folder appears from the hook `enterLine` calls when first in line.
@Suite struct StateStoreLockLineTests {
    @Test func aLoadThatFindsTheFolderMadeOnceFirstInLineMovesToTheFoldersLine() throws {
        try withStateFolder { parent in
            let folder = parent.appendingPathComponent("made-later")
            let store = try StateStore<Note>(directory: folder, name: "note")
            var looks = 0
            let line = try store.enterLine(creatingFolder: false, until: .now + .seconds(5)) {
                looks += 1
                if looks == 1 { try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false) }
            }
            defer { LockFileQueue.leave(line.key, ticket: line.ticket) }
            #expect(looks == 2, "first in the line of the path as spelt, then in the folder's")
            #expect(line.isFolders)
            #expect(line.key == store.folderLineKey())
            // The key a save takes for the same folder, under another spelling of it.
            let spelt = try StateStore<Note>(directory: parent.appendingPathComponent("./made-later/."), name: "note")
            #expect(spelt.folderLineKey() == line.key)
        }
    }

    @Test func aLoadWhoseFolderAppearsWhileASaveHoldsItsLineWaitsForThatSave() throws {
        // The folder appears, and another thread's save takes its line, while this load waits in the
        // line of the path as spelt: the load must not go on to the lock file beside that save.
        try withStateFolder { parent in
            let folder = parent.appendingPathComponent("made-by-a-save")
            let store = try StateStore<Note>(directory: folder, name: "note", lockTimeout: .zero)
            var held: (key: String, ticket: UInt64)?
            let error = try #require(throws: StateStoreError.self) {
                _ = try store.enterLine(creatingFolder: false, until: .now) {
                    guard held == nil else { return }
                    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
                    guard let key = store.folderLineKey(), let ticket = LockFileQueue.enter(key, until: .now) else { return }
                    held = (key, ticket)
                }
            }
            let (key, ticket) = try #require(held)
            LockFileQueue.leave(key, ticket: ticket)
            #expect(error == StateStoreError(.lockTimeout(waited: .zero), path: store.lockPath))
            #expect(!FileManager.default.fileExists(atPath: store.lockPath), "the load never opened the lock file")
        }
    }

    @Test func aLoadOfAMissingFolderWaitsInTheSpeltLineAndNeverMakesTheFolder() throws {
        try withStateFolder { parent in
            let folder = parent.appendingPathComponent("never-made")
            let store = try StateStore<Note>(directory: folder, name: "note")
            let line = try store.enterLine(creatingFolder: false, until: .now + .seconds(5))
            LockFileQueue.leave(line.key, ticket: line.ticket)
            #expect(line == StateStore<Note>.LockLine(key: store.lockPath, isFolders: false, ticket: line.ticket))
            #expect(try store.load() == .init(value: nil, source: .nothingSaved))
            #expect(!FileManager.default.fileExists(atPath: folder.path))
        }
    }

    @Test func aSaveMakesItsFolderFirstSoItWaitsInTheFoldersLine() throws {
        try withStateFolder { parent in
            let folder = parent.appendingPathComponent("a/b")
            let store = try StateStore<Note>(directory: folder, name: "note")
            let line = try store.enterLine(creatingFolder: true, until: .now + .seconds(5))
            LockFileQueue.leave(line.key, ticket: line.ticket)
            #expect(line.isFolders && line.key == store.folderLineKey())
            #expect(FileManager.default.fileExists(atPath: folder.path))
        }
    }

    @Test func aSaveUnderAFileThrowsWhyItsFolderCannotBeMadeAndALoadThereFindsNothing() throws {
        try withStateFolder { parent in
            let file = parent.appendingPathComponent("plain-file")
            try Data("x".utf8).write(to: file)
            let store = try StateStore<Note>(directory: file.appendingPathComponent("sub"), name: "note")
            let error = try #require(throws: StateStoreError.self) { try store.save(Note(title: "x")) }
            #expect(error == StateStoreError(.io(operation: "mkdir", errno: ENOTDIR), path: file.appendingPathComponent("sub").path))
            #expect(try store.load() == .init(value: nil, source: .nothingSaved))
            #expect(try Data(contentsOf: file) == Data("x".utf8))
        }
    }

    @Test func theLockTimeoutSaysAnotherWriterHeldTheLockAndHowLongItWaited() {
        let error = StateStoreError(.lockTimeout(waited: .milliseconds(20)), path: "/data/note.state.lock")
        #expect("\(error)" == "/data/note.state.lock: another writer held the lock: gave up after waiting 20 ms for it; nothing was changed")
        #expect(spokenDuration(.zero) == "0 s")
        #expect(spokenDuration(.seconds(5)) == "5 s")
        #expect(spokenDuration(.milliseconds(1500)) == "1.5 s")
        #expect(spokenDuration(.microseconds(250)) == "250 µs")
        #expect(spokenDuration(.nanoseconds(500)) == "0.5 µs")
        #expect(spokenDuration(.nanoseconds(20_000_001)) == "20.000001 ms")
        #expect(spokenDuration(.seconds(Int64.max)) == "\(Int64.max) s")
    }
}
