import Foundation
import FuzzSupport
#if DEBUG || FUZZING
@testable import SavedState
#else
import SavedState
#endif

/// A saved state shaped like an app's: strings, numbers, optionals, a date, data, a dictionary and
/// a nested list, so decoding errors have coding paths to report.
struct FuzzState: Codable, Sendable, Equatable {
    struct Item: Codable, Sendable, Equatable {
        var title: String
        var done: Bool
        var children: [Item]?
    }

    var title: String
    var seq: Int?
    var ratio: Double?
    var items: [Item]?
    var tags: [String: Int]?
    var saved: Date?
    var blob: Data?
}

/// The checks for one input, as a state file and as a payload.
enum StateFrameCheck {
    static let path = "fuzz.state"

    /// Every property of one input.
    static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        #if DEBUG || FUZZING
        try checkFrame(bytes)
        try checkPayload(bytes[...])
        #else
        try checkStore(bytes)
        #endif
    }

    #if DEBUG || FUZZING
    /// The frame reader on the input as a whole file: a payload only from an intact, canonical frame;
    /// otherwise a damage error naming the file.
    static func checkFrame(_ bytes: [UInt8]) throws(PropertyFailure) {
        switch StateFrame.payload(of: bytes, path: path) {
        case .success(let payload):
            try require(payload.count <= bytes.count - StateFrame.headerSize,
                        "a payload of \(payload.count) bytes from a \(bytes.count)-byte file")
            try require(Array(payload) == Array(bytes.dropFirst(StateFrame.headerSize)), "the payload is not the bytes after the header")
            // A frame is fully determined by its payload: the reader accepts only what the writer writes.
            try require(StateFrame.encode(payload: Array(payload)) == bytes, "an accepted frame that the writer would not write")
            try checkPayload(payload)
        case .failure(let error):
            try require(error.path == path, "error names \(error.path), not \(path)")
            try require(error.isDamage, "a framing error that is not damage: \(error)")
            try require(!error.description.isEmpty, "an empty description")
            switch error.problem {
            case .badMagic(let found):
                try require(found.count <= 8 && found == Array(bytes.prefix(found.count)), "badMagic reports \(found), not the file's first bytes")
            case .truncated(_, let found), .lengthMismatch(_, let found):
                try require(found == UInt64(bytes.count), "reports \(found) bytes for a \(bytes.count)-byte file")
            case .unsupportedVersion, .headerChecksumMismatch, .checksumMismatch:
                break
            default:
                throw PropertyFailure("an unexpected problem from the frame reader: \(error)")
            }
        }
        // Any bytes, framed, read back as themselves.
        let framed = StateFrame.encode(payload: bytes)
        guard case .success(let payload) = StateFrame.payload(of: framed, path: path), Array(payload) == bytes else {
            throw PropertyFailure("a freshly framed payload of \(bytes.count) bytes does not read back")
        }
    }

    /// The payload decoded as the store decodes it: a value that round-trips through the store's
    /// encoder, or a decoding error with a JSONPath.
    static func checkPayload(_ payload: ArraySlice<UInt8>) throws(PropertyFailure) {
        switch StateCoding.decode(FuzzState.self, from: payload, path: path) {
        case .success(let value):
            guard case .success(let encoded) = StateCoding.encode(value, path: path) else {
                throw PropertyFailure("a decoded value does not encode: \(value)")
            }
            guard case .success(let again) = StateCoding.decode(FuzzState.self, from: encoded[...], path: path) else {
                throw PropertyFailure("re-encoded JSON does not decode: \(String(decoding: encoded, as: UTF8.self))")
            }
            try require(again == value, "the value changed in a round trip: \(value) became \(again)")
        case .failure(let error):
            guard case .decodingFailed(let codingPath, _) = error.problem else {
                throw PropertyFailure("decoding failed with a problem other than decodingFailed: \(error)")
            }
            try require(codingPath.hasPrefix("$"), "coding path \(codingPath) is not a JSONPath")
            try require(error.isDamage && error.path == path, "a decoding error that is not damage of \(path): \(error)")
        }
    }
    #endif

    /// The public way in: the input saved as a store's current file, then loaded. A value only when
    /// the frame is intact and decodes; otherwise an error or an issue, never a trap.
    static func checkStore(_ bytes: [UInt8]) throws(PropertyFailure) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-stateframe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: folder.appendingPathComponent("fuzz.state"))
        } catch {
            throw PropertyFailure("cannot set up a store folder: \(error)")
        }
        let store: StateStore<FuzzState>
        do {
            store = try StateStore<FuzzState>(directory: folder, name: "fuzz")
        } catch {
            throw PropertyFailure("cannot open a store: \(error)")
        }
        let loaded: StateStore<FuzzState>.LoadResult
        do {
            loaded = try store.load()
        } catch {
            guard case .noGoodCopy(let issues) = error.problem else {
                throw PropertyFailure("load failed with \(error), not noGoodCopy")
            }
            try require(!issues.isEmpty && issues.allSatisfy { $0.error.isDamage }, "noGoodCopy with issues \(issues)")
            return
        }
        if loaded.value != nil {
            try require(loaded.issues.isEmpty, "a value with issues from a single intact file: \(loaded.issues)")
        }
    }
}

#if FUZZING
/// libFuzzer's per-input callback.
/// - Parameters:
///   - start: The input's bytes.
///   - count: Their number.
/// - Returns: 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateFrameInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzOneInput(start, count, check: StateFrameCheck.check)
}

/// The process's entry point in a fuzz build: libFuzzer's driver.
/// - Parameters:
///   - argc: The argument count.
///   - argv: The arguments.
/// - Returns: The exit status.
@_cdecl("FuzzStateFrame_main")
public func fuzzStateFrameMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzStateFrameInput)
}
#else
/// Replays files through the checks: `swift run FuzzStateFrame Tests/Fuzz/Corpus/stateframe`. Each
/// file also goes through a real store's `load()`, which the fuzz build skips for speed.
///
/// `swift run FuzzStateFrame --write-seeds DIR` writes the seed corpus instead: files saved by a real
/// store, and damaged copies of one.
@main enum FuzzStateFrameReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--write-seeds", arguments.count == 2 {
            do {
                try writeSeeds(to: URL(fileURLWithPath: arguments[1]))
            } catch {
                FileHandle.standardError.write(Data("cannot write the seeds: \(error)\n".utf8))
                exit(1)
            }
            exit(0)
        }
        let status = replayCorpus(name: "FuzzStateFrame", paths: arguments) { bytes throws(PropertyFailure) in
            try StateFrameCheck.check(bytes)
            #if DEBUG || FUZZING
            try StateFrameCheck.checkStore(bytes)
            #endif
        }
        exit(status)
    }
}
#endif

#if !FUZZING
/// Writes files saved by a real ``StateStore`` (a few values, each saved twice so a previous copy
/// exists), and damaged copies of one: cut short, a wrong signature, a future version, a flipped
/// payload byte, a payload that is not the store's type.
func writeSeeds(to directory: URL) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let item = FuzzState.Item(title: "book a table", done: false, children: [.init(title: "call", done: true, children: nil)])
    let values = [
        FuzzState(title: ""),
        FuzzState(title: "Lunch", seq: 1, ratio: 0.25, items: [item], tags: ["a": 1, "é": -2],
                  saved: Date(timeIntervalSinceReferenceDate: 86_400.5), blob: Data([0, 1, 2, 255])),
        FuzzState(title: "\u{1F600} \"quoted\" \\ \n", seq: Int.max, ratio: -1e-300, items: [], tags: [:]),
    ]
    var saved: [Data] = []
    for (index, value) in values.enumerated() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-seeds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try StateStore<FuzzState>(directory: folder, name: "seed")
        try store.save(value)
        let data = try Data(contentsOf: folder.appendingPathComponent("seed.state"))
        try data.write(to: directory.appendingPathComponent("saved-\(index).state"))
        saved.append(data)
    }
    let good = Array(saved[1])
    var damaged: [(String, [UInt8])] = [
        ("truncated-header", Array(good.prefix(20))),
        ("truncated-payload", Array(good.dropLast(5))),
        ("bad-magic", [0x7B] + good.dropFirst()),
        ("empty", []),
    ]
    var version2 = good
    version2[8] = 2
    damaged.append(("version-2", version2))
    var flipped = good
    flipped[good.count - 3] ^= 0x20
    damaged.append(("payload-flipped", flipped))
    var longer = good
    longer.append(0x0A)
    damaged.append(("trailing-byte", longer))
    #if DEBUG
    damaged.append(("wrong-type", StateFrame.encode(payload: Array(#"{"title": 7, "items": [{"title": "x"}]}"#.utf8))))
    damaged.append(("not-json", StateFrame.encode(payload: Array("title: Lunch".utf8))))
    #endif
    for (name, bytes) in damaged {
        try Data(bytes).write(to: directory.appendingPathComponent("\(name).state"))
    }
}
#endif
