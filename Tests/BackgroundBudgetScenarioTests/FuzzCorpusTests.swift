import Foundation
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
