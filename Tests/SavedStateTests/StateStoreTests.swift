import Foundation
import Testing
@testable import SavedState

/// A small state with a nested array, so decoding errors have a coding path to report.
struct Note: Codable, Sendable, Equatable {
    struct Item: Codable, Sendable, Equatable {
        var title: String
        var done: Bool
    }

    var title: String
    var items: [Item] = []
}

/// Runs `body` with a fresh folder under the temporary directory, removed afterwards.
func withStateFolder(_ body: (URL) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statestore-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try body(folder)
}

/// The names of the files in a folder, sorted, without the lock files (`….state.lock`): every save
/// and load leaves one, empty, and the tests of the lock check it themselves.
func fileNames(in folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".state.lock") }.sorted()
}

@Suite struct StateStoreTests {
    @Test func aSavedValueLoadsBackFromTheCurrentFile() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note")
            let note = Note(title: "Lunch", items: [.init(title: "book a table", done: false)])
            #expect(try store.save(note) == [])
            #expect(try store.load() == .init(value: note, source: .current))
            #expect(try fileNames(in: folder) == ["note.state"])
            // The lock file is there, empty: it holds no data, only the lock.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["note.state", "note.state.lock"])
            #expect(try Data(contentsOf: folder.appendingPathComponent("note.state.lock")).isEmpty)
        }
    }

    @Test func eachSaveKeepsTheOneBeforeAsThePreviousCopy() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note")
            for title in ["one", "two", "three"] { try store.save(Note(title: title)) }
            #expect(try fileNames(in: folder) == ["note.state", "note.state.previous"])
            #expect(try store.load().value == Note(title: "three"))
            // A second store over the same files sees the same two copies.
            try FileManager.default.removeItem(at: store.fileURL)
            let reopened = try StateStore<Note>(directory: folder, name: "note")
            #expect(try reopened.load().value == Note(title: "two"))
        }
    }

    @Test func nothingSavedLoadsAsNothingSavedEvenWithoutTheFolder() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder.appendingPathComponent("not/yet"), name: "note")
            #expect(try store.load() == .init(value: nil, source: .nothingSaved, issues: []))
        }
    }

    @Test func theFirstSaveCreatesTheFolder() throws {
        try withStateFolder { folder in
            let nested = folder.appendingPathComponent("Application Support/drafts")
            let store = try StateStore<Note>(directory: nested, name: "note")
            try store.save(Note(title: "made it"))
            #expect(try store.load().value == Note(title: "made it"))
        }
    }

    @Test func theFileIsAHeaderThenSortedJSON() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note")
            try store.save(Note(title: "A"))
            let bytes = [UInt8](try Data(contentsOf: store.fileURL))
            let json = Array(#"{"items":[],"title":"A"}"#.utf8)
            #expect(bytes[0..<8] == [0x89, 0x42, 0x42, 0x53, 0x0D, 0x0A, 0x1A, 0x0A])     // signature
            #expect(bytes[8..<12] == [1, 0, 0, 0])                                       // version 1
            #expect(bytes[12..<20] == [UInt8(json.count), 0, 0, 0, 0, 0, 0, 0])           // payload length
            #expect(bytes[20..<24] == littleEndian(CRC32.checksum(json)))                   // payload CRC-32
            #expect(bytes[24..<28] == littleEndian(CRC32.checksum(bytes[..<24])))            // header CRC-32
            #expect(Array(bytes[28...]) == json)
        }

        func littleEndian(_ value: UInt32) -> ArraySlice<UInt8> {
            [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) }[...]
        }
    }

    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    @Test(arguments: ["", ".", "..", "a/b", "nul\u{0}", String(repeating: "x", count: 201)])
    func aNameThatIsNotAPlainFileNameIsRefused(name: String) throws {
        #expect {
            _ = try StateStore<Note>(directory: URL(fileURLWithPath: "/tmp"), name: name)
        } throws: { error in
            guard let error = error as? StateStoreError, case .invalidName = error.problem else { return false }
            return true
        }
    }

    @Test func settingsOutOfRangeAreRefusedByName() throws {
        let folder = URL(fileURLWithPath: "/tmp")
        #expect(throws: StateStoreError(.invalidSetting("maximumFileSize is 63 bytes; it must be at least 64"), path: "/tmp/note")) {
            _ = try StateStore<Note>(directory: folder, name: "note", maximumFileSize: 63)
        }
        #expect(throws: StateStoreError(.invalidSetting("lockTimeout is -1.0 seconds; it must not be negative"), path: "/tmp/note")) {
            _ = try StateStore<Note>(directory: folder, name: "note", lockTimeout: .seconds(-1))
        }
    }

    @Test func aValueLargerThanTheLimitIsRefusedBeforeAnythingIsWritten() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note", maximumFileSize: 100)
            try store.save(Note(title: "small"))
            let big = Note(title: String(repeating: "x", count: 100))
            let frameSize = UInt64(StateFrame.headerSize + #"{"items":[],"title":""}"#.utf8.count + 100)
            #expect(throws: StateStoreError(.tooLarge(bytes: frameSize, limit: 100), path: store.fileURL.path)) {
                try store.save(big)
            }
            #expect(try store.load() == .init(value: Note(title: "small"), source: .current))
            #expect(try fileNames(in: folder) == ["note.state"])
        }
    }

    @Test func aValueJSONCannotHoldIsRefusedWithItsCodingPathAndNothingChanges() throws {
        struct Reading: Codable, Sendable, Equatable { var values: [Double] }
        try withStateFolder { folder in
            let store = try StateStore<Reading>(directory: folder, name: "reading")
            try store.save(Reading(values: [1]))
            let error = try #require(throws: StateStoreError.self) { try store.save(Reading(values: [2, .nan])) }
            guard case .encodingFailed(let codingPath, _) = error.problem else {
                Issue.record("expected encodingFailed, got \(error)")
                return
            }
            #expect(codingPath == "$.values[1]")
            #expect(try store.load().value == Reading(values: [1]))
        }
    }

    @Test func concurrentSavesFromEightThreadsEndWithOneCompleteState() throws {
        try withStateFolder { folder in
            let store = try StateStore<Note>(directory: folder, name: "note")
            let savesPerThread = 12
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for save in 0..<savesPerThread {
                    let note = Note(title: "thread \(thread) save \(save)",
                                    items: (0..<50).map { .init(title: "item \($0) of \(thread)/\(save)", done: $0 % 2 == 0) })
                    #expect(throws: Never.self) { try store.save(note) }
                }
            }
            let loaded = try store.load()
            #expect(loaded.source == .current)
            #expect(loaded.issues == [])
            let note = try #require(loaded.value)
            // Complete: the items match the title they were saved with.
            let parts = note.title.split(separator: " ")
            #expect(parts.count == 4 && Int(parts[1])! < 8 && Int(parts[3])! < savesPerThread)
            #expect(note.items.map(\.title) == (0..<50).map { "item \($0) of \(parts[1])/\(parts[3])" })
            #expect(try fileNames(in: folder) == ["note.state", "note.state.previous"])
        }
    }

    @Test func theReadmeExampleRestoresTheDraftSavedInTheBackground() throws {
        struct Draft: Codable, Sendable, Equatable { var text = "" }
        try withStateFolder { folder in
            let draft = Draft(text: "Friday?")
            let store = try StateStore<Draft>(directory: folder, name: "draft")
            try store.save(draft)                                   // in applicationDidEnterBackground
            let loaded = try store.load()                           // at launch
            #expect(loaded.issues.isEmpty)
            let restored = loaded.value ?? Draft()
            #expect(restored == draft)
        }
    }

    @Test func errorsNameTheFileAndWhatWasWrong() {
        let checksum = StateStoreError(.checksumMismatch(stored: 0x1C29_1CA3, computed: 0xAB), path: "/data/note.state")
        #expect("\(checksum)" == "/data/note.state: checksum mismatch: the header says 0x1C291CA3, the payload's is 0x000000AB")
        let denied = StateStoreError(.io(operation: "open", errno: EACCES), path: "/data/note.state.tmp")
        #expect("\(denied)" == "/data/note.state.tmp: open failed: Permission denied (errno 13)")
        let magic = StateStoreError(.badMagic(found: Array("{\"ti".utf8)), path: "/data/note.state")
        #expect("\(magic)" == "/data/note.state: not a state file: it starts with 7B 22 74 69, not the signature 89 42 42 53 0D 0A 1A 0A")
        let issue = StateStoreIssue(checksum, keptAt: "/data/note.state.corrupt-1")
        #expect("\(issue)" == "\(checksum); set aside as /data/note.state.corrupt-1")
        let none = StateStoreError(.noGoodCopy([issue]), path: "/data/note.state")
        #expect("\(none)" == "/data/note.state: no saved copy can be used:\n  \(issue)")
    }
}
