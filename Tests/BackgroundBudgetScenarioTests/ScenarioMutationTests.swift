import BackgroundBudgetExplorer
import Foundation
import Testing
import TestSupport
import BackgroundBudgetScenario

/// Feeds 100,000 mutated scenario files to the parser, the validator and, when they pass, the runner:
/// nothing may crash, and every error must name a path and a position inside the file.
@Suite struct ScenarioMutationTests {
    static let filesPerShard = LongRun.cases(25_000, quick: 1_000)
    static let shards = 0..<4

    /// Valid scenarios to mutate: the examples, and one that uses every verb and key.
    static let seeds: [[UInt8]] = {
        var seeds = ["state-lab.json", "answer-call-during-upload.json", "switching-apps.json"].map { name in
            Array((try? Data(contentsOf: ExampleScenarioTests.directory.appendingPathComponent(name))) ?? Data())
        }
        seeds.append(Array("""
            {"description": "every verb", "policy": {"preset": "iOS7", "overrides": {"backgroundTaskAllowance": 120,
             "allowanceResetsOnForeground": true, "maxOpenBackgroundTasks": 10}}, "device": {},
             "apps": [{"id": "com.example.a", "displayName": "A", "exitsOnSuspend": false,
                       "backgroundModes": ["audio", "fetch"], "permittedTaskIdentifiers": ["com.example.a.refresh"],
                       "behaviour": {"applicationDidEnterBackground": [{"do": "work", "for": 2}],
                                     "application:didFinishLaunchingWithOptions": [{"do": "work", "for": 0.5}]}},
                      {"id": "com.example.b", "exitsOnSuspend": true},
                      {"infoPlist": "\(SampleFiles.infoPlists.appendingPathComponent("VoiceCall.plist").path)", "displayName": "C"}],
             "events": [{"at": 0, "do": "launch", "app": "com.example.a"}, {"at": 1, "do": "beginInterruption"},
                        {"at": 2, "do": "dismissInterruption"}, {"at": 3, "do": "switchTo", "app": "com.example.b"},
                        {"at": 4, "do": "open", "app": "com.example.a"}, {"at": 5, "do": "beginInterruption"},
                        {"at": 6, "do": "answerInterruption"}, {"at": 7, "do": "purge", "app": "com.example.a"},
                        {"at": 8, "do": "launchInBackground", "app": "com.example.a", "reason": "voip"},
                        {"at": 20, "do": "killFromAppSwitcher", "app": "com.example.a"}, {"at": 21, "do": "home"},
                        {"at": 22, "do": "terminate", "app": "com.example.a", "reason": "watchdog"}],
             "end": 30}
            """.utf8))
        return seeds
    }()

    static let numbers = ["1e308", "-0", "1e-400", "-1e308", "99999999999999999999999", "0.0000001", "1e9", "1000000001",
                          "NaN", "Infinity", "-Infinity", "1e309", "0e0", "-", "1.", "01", ".5", "4.9e-324", "true", "null"]
    static let strings = ["", "home", "open", "work", "iOS13", "com.example.a", "com.example.b", "é", "\\u0000", "\\ud800",
                          "applicationWillTerminate", "a b", String(repeating: "x", count: 300), "\\\"", "$.events[0]"]
    static let bytes: [UInt8] = Array("{}[]\",:\\0-e. \n".utf8) + [0x00, 0x7F, 0xC3, 0xFF, 0xE2, 0x80]

    @Test(arguments: shards) func mutatedScenariosNeverCrashAndErrorsPointInsideTheFile(shard: Int) {
        var mutator = ByteMutator(seed: 0x5CE7A210 &+ UInt64(shard))
        var decoded = 0, refused = 0, ran = 0
        for _ in 0..<Self.filesPerShard {
            let text = mutator.mutatedFile(from: Self.seeds, edit: Self.mutate)
            do {
                let scenario = try Scenario(jsonBytes: text, file: "fuzz.json")
                decoded += 1
                if let run = try? scenario.run() {
                    ran += 1
                    if mutator.next(below: 64) == 0 { _ = run.rendered(as: .svg) }
                }
            } catch {
                refused += 1
                let lines = ByteMutator.count(of: UInt8(ascii: "\n"), in: text) + 1
                #expect(error.path.hasPrefix("$"))
                if let position = error.position {
                    #expect(position.line >= 1 && position.line <= lines && position.column >= 1, "\(error)")
                } else {
                    Issue.record("no position: \(error)")
                }
            }
        }
        // Both sides are exercised: mutations that still decode (and run) and ones that are refused.
        #expect(decoded > Self.filesPerShard / 40)
        #expect(ran > 0)
        #expect(refused > Self.filesPerShard / 2)
    }

    /// One edit: the shared ones (``ByteMutator``) and ones that mean something to JSON.
    static func mutate(_ text: inout [UInt8], _ random: inout ByteMutator) {
        func index(_ bound: Int) -> Int { random.index(bound) }
        func positions(of byte: UInt8) -> [Int] { ByteMutator.offsets(in: text) { $0 == byte } }
        let at = index(text.count + 1)
        switch random.next(below: 10) {
        case 0: // flip a bit
            random.flipBit(in: &text, at: at)
        case 1: // delete a few bytes
            random.deleteFewBytes(from: &text, at: at)
        case 2: // insert a byte that means something to JSON, or breaks UTF-8
            text.insert(random.pick(bytes), at: at)
        case 3: // truncate
            ByteMutator.truncate(&text, at: at)
        case 4, 5: // duplicate or remove a member or element: the text between two commas
            let commas = positions(of: UInt8(ascii: ","))
            guard commas.count >= 2 else { return }
            let first = index(commas.count - 1)
            let chunk = Array(text[commas[first]..<commas[first + 1]])
            if random.next(below: 2) == 0 { text.insert(contentsOf: chunk, at: commas[first + 1]) } else {
                text.removeSubrange(commas[first]..<commas[first + 1])
            }
        case 6: // replace a number with an extreme or invalid one
            let digits = ByteMutator.offsets(in: text) { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard !digits.isEmpty else { return }
            var start = digits[index(digits.count)], end = start
            while end < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[end]) || text[end] == UInt8(ascii: ".") { end += 1 }
            while start > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[start - 1]) { start -= 1 }
            text.replaceSubrange(start..<end, with: Array(numbers[index(numbers.count)].utf8))
        case 7: // replace a string's contents
            let quotes = positions(of: UInt8(ascii: "\""))
            guard quotes.count >= 2 else { return }
            let pair = index(quotes.count / 2) * 2
            text.replaceSubrange((quotes[pair] + 1)..<quotes[pair + 1], with: Array(strings[index(strings.count)].utf8))
        case 8: // deep nesting
            let depth = 1 + index(200)
            let nest = random.next(below: 2) == 0
                ? String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                : String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
            text.insert(contentsOf: Array(nest.utf8), at: at)
        default: // swap two chunks
            guard text.count > 8 else { return }
            let a = index(text.count - 4), b = index(text.count - 4), length = 1 + index(min(16, text.count - max(a, b)))
            let first = Array(text[a..<(a + length)]), second = Array(text[b..<(b + length)])
            text.replaceSubrange(a..<(a + length), with: second)
            text.replaceSubrange(b..<(b + length), with: first)
        }
    }
}
