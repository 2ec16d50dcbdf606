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

/// Damaged, missing and unreadable files: the previous good copy is used, the damaged file is kept
/// under a new name and reported, and `load()` throws only when no copy can be used.
@Suite struct StateStoreRecoveryTests {
    let older = Note(title: "older", items: [.init(title: "a", done: true)])
    let newer = Note(title: "newer", items: [.init(title: "a", done: true), .init(title: "b", done: false)])

    /// A store with `older` as the previous copy and `newer` as the current file.
    private func storeWithTwoCopies(in folder: URL) throws -> StateStore<Note> {
        let store = try StateStore<Note>(directory: folder, name: "note")
        try store.save(older)
        try store.save(newer)
        return store
    }

    /// Rewrites a file's bytes.
    private func damage(_ url: URL, _ change: (inout [UInt8]) -> Void) throws {
        var bytes = [UInt8](try Data(contentsOf: url))
        change(&bytes)
        try Data(bytes).write(to: url)
    }

    /// Damages the current file, loads with a fresh store, and checks that the previous copy is used,
    /// the damaged file is kept as `note.state.corrupt-1` byte for byte, and the issue says why.
    private func expectRecovery(from change: (inout [UInt8]) -> Void,
                                reportedAs expected: StateStoreError.Problem) throws {
        try withStateFolder { folder in
            let store = try storeWithTwoCopies(in: folder)
            try damage(store.fileURL, change)
            let damaged = try Data(contentsOf: store.fileURL)
            let loaded = try StateStore<Note>(directory: folder, name: "note").load()
            let keptAt = store.fileURL.path + ".corrupt-1"
            #expect(loaded == .init(value: older, source: .previous, issues: [
                StateStoreIssue(StateStoreError(expected, path: store.fileURL.path), keptAt: keptAt),
            ]))
            #expect(try Data(contentsOf: URL(fileURLWithPath: keptAt)) == damaged)
            #expect(try fileNames(in: folder) == ["note.state.corrupt-1", "note.state.previous"])
        }
    }

    @Test func aTruncatedFileIsSetAsideAndThePreviousCopyUsed() throws {
        let fullSize = UInt64(StateFrame.headerSize + #"{"items":[{"done":true,"title":"a"},{"done":false,"title":"b"}],"title":"newer"}"#.utf8.count)
        try expectRecovery(from: { $0.removeLast(10) },
                           reportedAs: .truncated(expectedBytes: fullSize, foundBytes: fullSize - 10))
    }

    @Test func aFileCutInsideItsHeaderIsTruncated() throws {
        try expectRecovery(from: { $0.removeLast($0.count - 20) }, reportedAs: .truncated(expectedBytes: 28, foundBytes: 20))
        try expectRecovery(from: { $0.removeAll() }, reportedAs: .truncated(expectedBytes: 28, foundBytes: 0))
    }

    @Test func aFlippedPayloadByteFailsTheChecksum() throws {
        try withStateFolder { folder in
            let store = try storeWithTwoCopies(in: folder)
            let bytes = [UInt8](try Data(contentsOf: store.fileURL))
            var flipped = bytes
            flipped[40] ^= 0x04
            let stored = CRC32.checksum(bytes[28...]), computed = CRC32.checksum(flipped[28...])
            try expectRecovery(from: { $0[40] ^= 0x04 }, reportedAs: .checksumMismatch(stored: stored, computed: computed))
        }
    }

    @Test func aFlippedLengthByteFailsTheHeaderChecksumRatherThanLookingTruncated() throws {
        try withStateFolder { folder in
            var header = [UInt8](try Data(contentsOf: storeWithTwoCopies(in: folder).fileURL))[..<28]
            let stored = UInt32(header[24]) | UInt32(header[25]) << 8 | UInt32(header[26]) << 16 | UInt32(header[27]) << 24
            header[12] ^= 0x01
            let computed = CRC32.checksum(header[..<24])
            try expectRecovery(from: { $0[12] ^= 0x01 }, reportedAs: .headerChecksumMismatch(stored: stored, computed: computed))
        }
    }

    @Test func aFileThatIsNotAStateFileHasABadMagic() throws {
        try expectRecovery(from: { $0 = Array(#"{"title":"x"}"#.utf8) }, reportedAs: .badMagic(found: Array(#"{"title""#.utf8)))
    }

    @Test func aFutureFormatVersionIsRefusedByName() throws {
        try expectRecovery(from: { $0[8] = 2 }, reportedAs: .unsupportedVersion(found: 2, supported: 1))
    }

    @Test func bytesAfterThePayloadAreALengthMismatch() throws {
        try withStateFolder { folder in
            let size = UInt64(try storeWithTwoCopies(in: folder).fileURL.resourceValues(forKeys: [.fileSizeKey]).fileSize!)
            try expectRecovery(from: { $0 += [0x0A] }, reportedAs: .lengthMismatch(expectedBytes: size, foundBytes: size + 1))
        }
    }

    @Test func jsonOfTheWrongShapeReportsItsCodingPath() throws {
        try expectRecovery(from: { $0 = StateFrame.encode(payload: Array(#"{"items":[]}"#.utf8)) },
                           reportedAs: .decodingFailed(codingPath: "$.title", reason: #"missing key "title""#))
        try withStateFolder { folder in
            let store = try storeWithTwoCopies(in: folder)
            let wrongShape = #"{"items":[{"done":true,"title":"a"},{"done":false,"title":3}],"title":"newer"}"#
            try damage(store.fileURL) { $0 = StateFrame.encode(payload: Array(wrongShape.utf8)) }
            let loaded = try store.load()
            #expect(loaded.value == older)
            guard case .decodingFailed(let codingPath, let reason)? = loaded.issues.first?.error.problem else {
                Issue.record("expected a decoding failure, got \(loaded.issues)")
                return
            }
            #expect(codingPath == "$.items[1].title")
            #expect(reason.contains("String"))              // Foundation's wording varies by platform
            #expect(loaded.issues.first?.keptAt == store.fileURL.path + ".corrupt-1")
        }
    }

    @Test func whenNoCopyCanBeUsedLoadThrowsAndKeepsEveryFile() throws {
        try withStateFolder { folder in
            let store = try storeWithTwoCopies(in: folder)
            try damage(store.fileURL) { $0[40] ^= 0xFF }
            try damage(store.previousFileURL) { $0.removeLast() }
            let error = try #require(throws: StateStoreError.self) { try store.load() }
            guard case .noGoodCopy(let issues) = error.problem else {
                Issue.record("expected noGoodCopy, got \(error)")
                return
            }
            #expect(issues.map(\.keptAt) == [store.fileURL.path + ".corrupt-1", store.previousFileURL.path + ".corrupt-1"])
            #expect(issues.map(\.error.path) == [store.fileURL.path, store.previousFileURL.path])
            #expect(try fileNames(in: folder) == ["note.state.corrupt-1", "note.state.previous.corrupt-1"])
            // The app starts afresh; the damaged files stay for inspection.
            try store.save(newer)
            #expect(try store.load() == .init(value: newer, source: .current))
            #expect(try fileNames(in: folder) == ["note.state", "note.state.corrupt-1", "note.state.previous.corrupt-1"])
        }
    }

    @Test func aSecondDamagedFileIsSetAsideUnderTheNextFreeNumber() throws {
        try withStateFolder { folder in
            let store = try storeWithTwoCopies(in: folder)
            try damage(store.fileURL) { $0[0] = 0 }
            _ = try store.load()
            try store.save(newer)
            try damage(store.fileURL) { $0[0] = 0 }
            #expect(try store.load().issues.map(\.keptAt) == [store.fileURL.path + ".corrupt-2"])
        }
    }

    @Test func aMissingCurrentFileMeansAnInterruptedSaveAndThePreviousCopyIsUsed() throws {
        try withStateFolder { folder in
            let store = try storeWithTwoCopies(in: folder)
            try FileManager.default.removeItem(at: store.fileURL)
            #expect(try store.load() == .init(value: older, source: .previous, issues: [
                StateStoreIssue(StateStoreError(.missing, path: store.fileURL.path), keptAt: nil),
            ]))
            // The next save installs a new current file and keeps the previous copy as it was.
            try store.save(newer)
            try FileManager.default.removeItem(at: store.fileURL)
            #expect(try store.load().value == older)
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root may read any file"))
    func anUnreadableCurrentFileIsLeftInPlaceAndThePreviousCopyUsed() throws {
        try withStateFolder { folder in
            let store = try storeWithTwoCopies(in: folder)
            // No read permission: `open` fails with EACCES, which may pass, so the file stays.
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: store.fileURL.path)
            #expect(try store.load() == .init(value: older, source: .previous, issues: [
                StateStoreIssue(StateStoreError(.io(operation: "open", errno: EACCES), path: store.fileURL.path),
                                keptAt: store.fileURL.path),
            ]))
            #expect(try fileNames(in: folder) == ["note.state", "note.state.previous"])
        }
    }

    @Test func aSaveSetsADamagedCurrentFileAsideInsteadOfKeepingIt() throws {
        try withStateFolder { folder in
            _ = try storeWithTwoCopies(in: folder)
            try damage(folder.appendingPathComponent("note.state")) { $0[30] ^= 0x20 }
            // A fresh store has not checked the current file: the save does, before keeping it.
            let store = try StateStore<Note>(directory: folder, name: "note")
            let issues = try store.save(Note(title: "newest"))
            #expect(issues.map(\.keptAt) == [store.fileURL.path + ".corrupt-1"])
            guard case .checksumMismatch? = issues.first?.error.problem else {
                Issue.record("expected a checksum mismatch, got \(issues)")
                return
            }
            // The previous copy is still the last good one, not the damaged file.
            try FileManager.default.removeItem(at: store.fileURL)
            #expect(try store.load().value == older)
        }
    }

    @Test func aSaveNeverKeepsADamagedCurrentFileAsThePreviousCopyEvenOneItWroteItself() throws {
        try withStateFolder { folder in
            let store = try storeWithTwoCopies(in: folder)
            // Damaged after this store wrote it (a bad sector, another program): the same store saves.
            try damage(store.fileURL) { $0[30] ^= 0x20 }
            let issues = try store.save(Note(title: "newest"))
            #expect(issues.map(\.keptAt) == [store.fileURL.path + ".corrupt-1"])
            guard case .checksumMismatch? = issues.first?.error.problem else {
                Issue.record("expected a checksum mismatch, got \(issues)")
                return
            }
            // The good previous copy was kept, not replaced by the damaged file: one more fault (the
            // new current file lost) still leaves a good copy.
            try FileManager.default.removeItem(at: store.fileURL)
            #expect(try store.load().value == older)
        }
    }
}
