import BackgroundBudgetExplorer
import Foundation
import BackgroundBudgetScenario
@testable import FuzzExploreArguments
@testable import FuzzInfoPlist
@testable import FuzzScenario
@testable import FuzzStateFrame
import FuzzSupport
import Testing

/// Replays the fuzzers' seed corpora (`Tests/Fuzz/Corpus`) through the same checks the fuzz build
/// runs, so every seed stays a passing regression input. `.ci/fuzz` does the fuzzing itself.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    /// The files of one corpus, sorted.
    static func inputs(_ name: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = corpus.appendingPathComponent(name)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted().map {
            ($0, Array(try Data(contentsOf: folder.appendingPathComponent($0))))
        }
    }

    static func replay(_ name: String, minimum: Int, _ check: FuzzCheck) throws {
        let inputs = try inputs(name)
        #expect(inputs.count >= minimum, "Tests/Fuzz/Corpus/\(name) has \(inputs.count) files")
        for input in inputs {
            do {
                try check(input.bytes)
            } catch {
                Issue.record("Tests/Fuzz/Corpus/\(name)/\(input.name): \(error)")
            }
        }
    }

    @Test func everyScenarioSeedPassesTheFuzzCheck() throws {
        try Self.replay("scenario", minimum: 20, ScenarioCheck.check)
    }

    @Test func everyExploreArgumentsSeedPassesTheFuzzCheck() throws {
        try Self.replay("explore-arguments", minimum: 15, ExploreArgumentsCheck.check)
    }

    /// Every verb of the scenario format (events and callback steps) starts at least one seed and is
    /// in the dictionary, so the fuzzer begins from every part of the decoder and the run; so do
    /// every option of `explore` and every invariant name.
    @Test func theSeedsAndDictionariesCoverEveryVerbAndEveryExploreOption() throws {
        let seeds = try Self.inputs("scenario").map { String(decoding: $0.bytes, as: UTF8.self) }
        let dictionary = try String(contentsOf: Self.corpus.deletingLastPathComponent().appendingPathComponent("Dictionaries/scenario.dict"), encoding: .utf8)
        for verb in ScenarioAction.vocabulary.map(\.name) + ScenarioStep.vocabulary.map(\.name) {
            let used = seeds.contains { $0.range(of: #""do":\s*"\#(verb)""#, options: .regularExpression) != nil }
            #expect(used, "no seed in Tests/Fuzz/Corpus/scenario uses \(verb)")
            #expect(dictionary.contains(#""\"\#(verb)\"""#), "\(verb) is not in scenario.dict")
        }
        let arguments = try Self.inputs("explore-arguments").map { String(decoding: $0.bytes, as: UTF8.self) }
        let argumentDictionary = try String(contentsOf: Self.corpus.deletingLastPathComponent()
            .appendingPathComponent("Dictionaries/explore-arguments.dict"), encoding: .utf8)
        let options = ["--invariant", "--seeds", "--first-seed", "--sequences", "--length", "--depth", "--out", "--jobs", "--shard", "--report", "--help"]
        for word in options + ExplorerInvariant.builtIn.map(\.name) + ["all", "dataSaved:"] {
            #expect(arguments.contains { $0.contains(word) }, "no seed in Tests/Fuzz/Corpus/explore-arguments has \(word)")
            #expect(argumentDictionary.contains("\"\(word)"), "\(word) is not in explore-arguments.dict")
        }
    }

    @Test func everyInfoPlistSeedPassesTheFuzzCheck() throws {
        try Self.replay("infoplist", minimum: 10, InfoPlistCheck.check)
    }

    @Test func everyStateFrameSeedPassesTheFuzzCheckAndLoadsThroughAStore() throws {
        try Self.replay("stateframe", minimum: 10) { bytes throws(PropertyFailure) in
            try StateFrameCheck.check(bytes)
            try StateFrameCheck.checkStore(bytes)
        }
    }
}
