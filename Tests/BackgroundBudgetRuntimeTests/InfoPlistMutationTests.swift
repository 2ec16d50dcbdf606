import Foundation
import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
@testable import BackgroundBudgetScenario
import JobBudgets
import SavedState

/// Feeds 24,000 mutated Info.plists, half XML and half binary, to the loader: nothing may crash, every
/// failure is an ``InfoPlistError`` with a message, and every manifest that loads is a valid one.
/// Some mutations nest arrays thousands deep, which overflowed Foundation's parser before the
/// nesting limit.
@Suite struct InfoPlistMutationTests {
    static let filesPerShard = LongRun.cases(6_000, quick: 500)
    static let shards = 0..<4

    /// The samples' bytes exactly as committed (four XML files and the binary one), so that the
    /// mutations are the same on every run. (Re-serialising them would not be: a dictionary's key
    /// order, and so the bytes, changes from process to process.)
    static let seeds: [[UInt8]] = {
        // The binary file four times, so that half of the mutated files are binary.
        let names = ["AudioPlayer.plist", "LegacyApp.plist", "LocationTracker.plist", "NewsReader.plist"]
            + Array(repeating: "VoiceCall.plist", count: 4)
        return names.compactMap { name in
            (try? Data(contentsOf: SampleFiles.infoPlists.appendingPathComponent(name))).map(Array.init)
        }
    }()

    /// Text that means something to the loader, spliced between XML tags.
    static let texts = ["", "audio", "gps", "remote-notifications", "$(PRODUCT_BUNDLE_IDENTIFIER)", "my app", "é", "&amp;", "&bogus;",
                        "<", "]]>", String(repeating: "x", count: 300), "com.example.a", "fetch", "\u{0}"]
    /// Tag names to swap in, so values change type.
    static let tags = ["string", "integer", "real", "true/", "false/", "array", "dict", "data", "date", "key", "plist", "strin"]
    /// Bytes that mean something to either format: binary markers, XML syntax, broken UTF-8.
    static let bytes: [UInt8] = [0x00, 0x08, 0x09, 0x10, 0x13, 0x22, 0x33, 0x44, 0x5F, 0x6F, 0xA1, 0xD3, 0xFF, 0x3C, 0x3E, 0x2F, 0xC3, 0x80]

    @Test(arguments: shards) func mutatedInfoPlistsNeverCrashAndEveryFailureIsAnInfoPlistError(shard: Int) {
        var mutator = ByteMutator(seed: 0x1F0_9115 &+ UInt64(shard))
        var loaded = 0, refused = 0
        var problems: Set<String> = []
        for _ in 0..<Self.filesPerShard {
            let plist = mutator.mutatedFile(from: Self.seeds, edit: Self.mutate)
            do {
                let manifest = try AppManifest(plistData: Data(plist), file: "fuzz.plist")
                loaded += 1
                #expect(manifest.id.validationProblem == nil, "\(manifest.id)")
            } catch {
                // The type is the compiler's promise; the contents are checked here.
                refused += 1
                #expect(error.file == "fuzz.plist")
                #expect(!error.message.isEmpty)
                if case .nestedTooDeep = error.problem, let key = error.key {
                    // Any root key: the one the deep value is under, which the file holds.
                    #expect(String(decoding: plist, as: UTF8.self).contains("<key>\(key)<"), "\(error)")
                } else if let key = error.key {
                    #expect(["CFBundleIdentifier", "CFBundleDisplayName", "CFBundleName", "UIBackgroundModes",
                             "UIApplicationExitsOnSuspend", "BGTaskSchedulerPermittedIdentifiers"]
                        .contains(String(key.prefix { $0 != "[" })), "\(error)")
                }
                problems.insert(Self.name(of: error.problem))
            }
        }
        // Both sides are exercised, and the mutations reach past the parser to the keys.
        #expect(loaded > Self.filesPerShard / 20)
        #expect(refused > Self.filesPerShard / 2)
        // A value of the wrong type is the rarest outcome (most mutations that retype a value also break
        // the document): only the full-size run is long enough to be sure of reaching it.
        let expected: Set<String> = ["malformed", "missingKey", "unknownBackgroundMode", "invalidBundleIdentifier", "nestedTooDeep"]
        #expect(problems.isSuperset(of: LongRun.isOn ? expected.union(["wrongType"]) : expected), "\(problems.sorted())")
    }

    static func name(of problem: InfoPlistError.Problem) -> String {
        switch problem {
        case .unreadable: "unreadable"
        case .malformed: "malformed"
        case .rootNotDictionary: "rootNotDictionary"
        case .missingKey: "missingKey"
        case .wrongType: "wrongType"
        case .unknownBackgroundMode: "unknownBackgroundMode"
        case .invalidBundleIdentifier: "invalidBundleIdentifier"
        case .nestedTooDeep: "nestedTooDeep"
        case .tooLarge: "tooLarge"
        case .tooManyObjects: "tooManyObjects"
        }
    }

    /// One edit: the shared ones (``ByteMutator``) and ones that mean something to either plist format.
    static func mutate(_ plist: inout [UInt8], _ random: inout ByteMutator) {
        func index(_ bound: Int) -> Int { random.index(bound) }
        let at = index(plist.count + 1)
        switch random.next(below: 8) {
        case 0: // flip a bit
            random.flipBit(in: &plist, at: at)
        case 1: // overwrite a byte with one that means something
            if !plist.isEmpty { plist[min(at, plist.count - 1)] = random.pick(bytes) }
        case 2: // delete a few bytes
            random.deleteFewBytes(from: &plist, at: at)
        case 3: // truncate
            ByteMutator.truncate(&plist, at: at)
        case 4: // duplicate a chunk
            let start = index(plist.count + 1), end = min(plist.count, start + index(24))
            plist.insert(contentsOf: plist[start..<end], at: at)
        case 5: // replace the text between two tags
            let closes = ByteMutator.offsets(in: plist) { $0 == UInt8(ascii: ">") }
            guard let close = closes.isEmpty ? nil : closes[index(closes.count)],
                  let open = plist[(close + 1)...].firstIndex(of: UInt8(ascii: "<")) else { return }
            plist.replaceSubrange((close + 1)..<open, with: Array(texts[index(texts.count)].utf8))
        case 6: // rename a tag, so a value changes type or the document breaks
            let opens = ByteMutator.offsets(in: plist) { $0 == UInt8(ascii: "<") }
            guard let open = opens.isEmpty ? nil : opens[index(opens.count)] else { return }
            var start = open + 1
            if start < plist.count, plist[start] == UInt8(ascii: "/") { start += 1 }
            guard let end = plist[start...].firstIndex(where: { $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: " ") }) else { return }
            plist.replaceSubrange(start..<end, with: Array(tags[index(tags.count)].utf8))
        default: // point a binary object reference, offset or marker elsewhere: a run of small bytes
            guard plist.starts(with: Array("bplist".utf8)), plist.count > 8 else {
                // In XML, nest arrays before a tag, up to 3,000 deep: past the depth limit, or unbalanced.
                let opens = ByteMutator.offsets(in: plist) { $0 == UInt8(ascii: "<") }
                guard let open = opens.isEmpty ? nil : opens[index(opens.count)] else { return }
                let depth = 1 + index(3_000)
                let nest = String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: index(depth + 1))
                plist.insert(contentsOf: Array(nest.utf8), at: open)
                return
            }
            let position = 8 + index(plist.count - 8)
            plist[position] = UInt8(truncatingIfNeeded: random.next(below: 48))
        }
    }
}
