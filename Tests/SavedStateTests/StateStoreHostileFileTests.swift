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

/// Things at the store's file names that are not state files the store wrote: named pipes, symbolic
/// links, folders, giant sparse files. Each is rejected cheaply, without blocking, following a link or
/// reading more than a header; it is set aside and reported, and later saves work again.
@Suite struct StateStoreHostileFileTests {
    let older = Note(title: "older")
    let newer = Note(title: "newer")

    /// A store with `older` as the previous copy and `newer` as the current file.
    private func storeWithTwoCopies(in folder: URL) throws -> StateStore<Note> {
        let store = try StateStore<Note>(directory: folder, name: "note")
        try store.save(older)
        try store.save(newer)
        return store
    }

    /// Replaces whatever is at `url` with a named pipe.
    private func makePipe(at url: URL) throws {
        try? FileManager.default.removeItem(at: url)
        try #require(mkfifo(url.path, 0o644) == 0, "mkfifo: \(String(cString: strerror(errno)))")
    }

    /// Replaces whatever is at `url` with a symbolic link to `target`.
    private func makeLink(at url: URL, to target: String) throws {
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
    }

    @Test(.timeLimit(.minutes(1)))     // a backstop: before the fix, opening the pipe blocked forever
    func aNamedPipeAtTheCurrentFileNeitherBlocksLoadNorSave() throws {
        try withStateFolder { folder in
            let store = try storeWithTwoCopies(in: folder)
            try makePipe(at: store.fileURL)
            let keptAt = store.fileURL.path + ".corrupt-1"
            #expect(try store.load() == .init(value: older, source: .previous, issues: [
                StateStoreIssue(StateStoreError(.notARegularFile(.fifo), path: store.fileURL.path), keptAt: keptAt),
            ]))
            try makePipe(at: store.fileURL)
            #expect(try store.save(newer) == [
                StateStoreIssue(StateStoreError(.notARegularFile(.fifo), path: store.fileURL.path), keptAt: store.fileURL.path + ".corrupt-2"),
            ])
            #expect(try store.load() == .init(value: newer, source: .current))
        }
    }

    @Test(.timeLimit(.minutes(1)))     // a backstop: before the fix, the read never ended
    func aLinkToDevZeroIsRejectedWithoutFollowingIt() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note")
            try makeLink(at: store.fileURL, to: "/dev/zero")
            let error = try #require(throws: StateStoreError.self) { try store.load() }
            #expect(error == StateStoreError(.noGoodCopy([
                StateStoreIssue(StateStoreError(.notARegularFile(.symbolicLink), path: store.fileURL.path),
                                keptAt: store.fileURL.path + ".corrupt-1"),
            ]), path: store.fileURL.path))
            try store.save(newer)
            #expect(try store.load() == .init(value: newer, source: .current))
        }
    }

    @Test func aLinkToAGoodStateFileElsewhereIsNotFollowed() throws {
        try withStateFolder { folder in
            let elsewhere = try StateStore<Note>(directory: folder.appendingPathComponent("elsewhere"), name: "note")
            try elsewhere.save(Note(title: "someone else's"))
            let store = try storeWithTwoCopies(in: folder)
            try makeLink(at: store.fileURL, to: elsewhere.fileURL.path)
            let loaded = try store.load()
            #expect(loaded.value == older && loaded.source == .previous)
            #expect(loaded.issues.map(\.error.problem) == [.notARegularFile(.symbolicLink)])
            #expect(try elsewhere.load() == .init(value: Note(title: "someone else's"), source: .current))
        }
    }

    @Test func aLinkAtTheTemporaryFileNameIsNotFollowedAndItsTargetIsUnchanged() throws {
        try withStateFolder { folder in
            let victim = folder.appendingPathComponent("victim.txt")
            try Data("keep me".utf8).write(to: victim)
            let store = try storeWithTwoCopies(in: folder)
            let temporary = folder.appendingPathComponent("note.state.tmp")
            try makeLink(at: temporary, to: victim.path)
            let issues = try store.save(Note(title: "after"))
            #expect(try Data(contentsOf: victim) == Data("keep me".utf8))
            #expect(issues == [StateStoreIssue(StateStoreError(.notARegularFile(.symbolicLink), path: temporary.path),
                                               keptAt: temporary.path + ".corrupt-1")])
            #expect(try store.load() == .init(value: Note(title: "after"), source: .current))
        }
    }

    /// A file claims to be 64 MiB (sparse: it takes no space) and the store's limit is 1 MiB.
    @Test func aGiantSparseFileIsRejectedFromItsHeaderAlone() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note", maximumFileSize: 1 << 20)
            try store.save(older)
            try store.save(newer)
            let size = 64 << 20
            // A valid header declaring a 64 MiB payload, then nothing written: the file is sparse.
            var header = StateFrame.encode(payload: [])
            for index in 0..<8 { header[12 + index] = UInt8(truncatingIfNeeded: UInt64(size - 28) >> (8 * index)) }
            let headerCRC = CRC32.checksum(header[..<24])
            for index in 0..<4 { header[24 + index] = UInt8(truncatingIfNeeded: headerCRC >> (8 * index)) }
            try Data(header).write(to: store.fileURL)
            try #require(truncate(store.fileURL.path, off_t(size)) == 0)
            let loaded = try store.load()
            #expect(loaded.value == older && loaded.source == .previous)
            #expect(loaded.issues == [StateStoreIssue(StateStoreError(.tooLarge(bytes: UInt64(size), limit: 1 << 20), path: store.fileURL.path),
                                                      keptAt: store.fileURL.path + ".corrupt-1")])
        }
    }

    @Test func aGiantSparseFileWithABadSignatureIsRejectedAfterReadingOnlyItsHeader() throws {
        try withStateFolder { folder in
            let path = folder.appendingPathComponent("note.state").path
            try Data("garbage!".utf8).write(to: URL(fileURLWithPath: path))
            try #require(truncate(path, 64 << 20) == 0)
            let read = DurableFileIO.readStateFile(path, maximumSize: 64 << 20)
            guard case .damaged(let error, let bytesRead) = read else {
                Issue.record("expected a damaged file, got \(read)")
                return
            }
            #expect(error.problem == .badMagic(found: Array("garbage!".utf8)))
            #expect(bytesRead == StateFrame.headerSize)
        }
    }

    enum Name: String, CaseIterable, CustomTestStringConvertible {
        case current = "note.state", previous = "note.state.previous", temporary = "note.state.tmp", lock = "note.state.lock"
        var testDescription: String { rawValue }
    }

    /// The things a save may find at a name instead of a regular file.
    enum Obstacle: CaseIterable, CustomTestStringConvertible {
        case folder, namedPipe, linkToDevZero

        var kind: StateStoreError.FileKind {
            switch self {
            case .folder: .directory
            case .namedPipe: .fifo
            case .linkToDevZero: .symbolicLink
            }
        }

        var testDescription: String { "\(self)" }
    }

    @Test(.timeLimit(.minutes(1)), arguments: Name.allCases, Obstacle.allCases)
    func anythingButARegularFileAtAnyOfTheStoresNamesIsSetAsideAndLaterSavesWork(at name: Name, obstacle: Obstacle) throws {
        try withStateFolder { folder in
            let store = try storeWithTwoCopies(in: folder)
            let url = folder.appendingPathComponent(name.rawValue)
            try? FileManager.default.removeItem(at: url)
            switch obstacle {
            case .folder: try FileManager.default.createDirectory(at: url.appendingPathComponent("in-the-way"), withIntermediateDirectories: true)
            case .namedPipe: try makePipe(at: url)
            case .linkToDevZero: try makeLink(at: url, to: "/dev/zero")
            }
            let issues = try store.save(Note(title: "after"))
            #expect(issues == [StateStoreIssue(StateStoreError(.notARegularFile(obstacle.kind), path: url.path),
                                               keptAt: url.path + ".corrupt-1")])
            try store.save(Note(title: "later"))
            #expect(try store.load() == .init(value: Note(title: "later"), source: .current))
            #expect(try fileNames(in: folder) == ["note.state", "note.state.previous", name.rawValue + ".corrupt-1"].sorted())
            // What was in the way is kept, as it was.
            let keptAt = url.path + ".corrupt-1"
            switch obstacle {
            case .folder: #expect(FileManager.default.fileExists(atPath: keptAt + "/in-the-way"))
            case .namedPipe: #expect(try DurableFileIO.entry(at: keptAt) == .other(.fifo))
            case .linkToDevZero: #expect(try FileManager.default.destinationOfSymbolicLink(atPath: keptAt) == "/dev/zero")
            }
        }
    }

    @Test func aFolderAtThePreviousCopyIsSetAsideByLoadAndTheCurrentFileUsed() throws {
        try withStateFolder { folder in
            let store = try storeWithTwoCopies(in: folder)
            try FileManager.default.removeItem(at: store.previousFileURL)
            try FileManager.default.createDirectory(at: store.previousFileURL, withIntermediateDirectories: false)
            #expect(try store.load() == .init(value: newer, source: .current, issues: [
                StateStoreIssue(StateStoreError(.notARegularFile(.directory), path: store.previousFileURL.path),
                                keptAt: store.previousFileURL.path + ".corrupt-1"),
            ]))
        }
    }
}
