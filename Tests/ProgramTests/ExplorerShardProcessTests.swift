import Foundation
import Testing
import TestSupport

/// `bgbudget explore --shard I/4` as four processes running at once, and `bgbudget merge` of their
/// reports: the merged report is the report of the same exploration in one process, byte for byte,
/// and so is what merge prints, but the time explore measured.
@Suite(.timeLimit(.minutes(5))) struct ExplorerShardProcessTests {
    static let draftLoss = SampleFiles.root.appendingPathComponent("Examples/scenarios/draft-loss.json").path
    static let options = ["--invariant", "dataSaved:applicationWillTerminate", "--seeds", "6", "--sequences", "50", "--depth", "2"]

    /// Runs `bgbudget` with `arguments` on a thread of its own, its output captured in `folder`.
    private func bgbudget(_ arguments: [String], in folder: URL) async throws -> ProductProcess.Result {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outcome = await onDedicatedThread { () -> Result<ProductProcess.Result, any Error> in
            Result { try ProductProcess.run("bgbudget", arguments, in: folder, backstop: 240_000) }
        }
        return try outcome.get()
    }

    @Test func fourShardProcessesMergeIntoTheSingleRunByteForByte() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let single = folder.appendingPathComponent("single.json").path
        let shards = (1...4).map { folder.appendingPathComponent("shard-\($0).json").path }
        let one = try await bgbudget(["explore", Self.draftLoss] + Self.options + ["--jobs", "1", "--report", single],
                                     in: folder.appendingPathComponent("single"))
        #expect(one.status == 1, "\(one.standardError)")
        // The four shards at once, as an Indexed Job's pods would run them.
        let results = try await withThrowingTaskGroup(of: (Int, ProductProcess.Result).self) { group in
            for (index, path) in shards.enumerated() {
                group.addTask {
                    let arguments = ["explore", Self.draftLoss] + Self.options + ["--shard", "\(index + 1)/4", "--report", path]
                    return (index, try await bgbudget(arguments, in: folder.appendingPathComponent("shard-\(index + 1)")))
                }
            }
            var results: [Int: ProductProcess.Result] = [:]
            for try await (index, result) in group { results[index] = result }
            return results
        }
        for (index, result) in results.sorted(by: { $0.key < $1.key }) {
            #expect([0, 1].contains(result.status), "shard \(index + 1) exited with \(result.status): \(result.standardError)")
            #expect(result.standardOutput.contains("shard \(index + 1)/4: "))
        }
        let mergedPath = folder.appendingPathComponent("merged.json").path
        let merged = try await bgbudget(["merge"] + shards.reversed() + ["--report", mergedPath], in: folder.appendingPathComponent("merge"))
        #expect(merged.status == 1, "\(merged.standardError)")
        #expect(merged.standardError == "bgbudget: 1 invariant broke: dataSaved\n")
        let singleReport = try #require(FileManager.default.contents(atPath: single))
        let mergedReport = try #require(FileManager.default.contents(atPath: mergedPath))
        #expect(!singleReport.isEmpty)
        #expect(mergedReport == singleReport)
        let timeless = one.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("distinct shrunk failures:") ? String($0.prefix { $0 != "," }) : String($0) }
            .joined(separator: "\n")
        #expect(merged.standardOutput == timeless)
    }
}
