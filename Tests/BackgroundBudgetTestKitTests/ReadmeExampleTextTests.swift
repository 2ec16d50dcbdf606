import Foundation
import Testing

/// The README's examples that tests run word for word are still the README's text: the test's body,
/// moved left by one level, appears in README.md as a code block.
@Suite struct ReadmeExampleTextTests {
    @Test func theReadmeHoldsTheTaskSchedulerExampleWordForWord() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ReadmeTaskSchedulerExampleTests.swift")
        let source = try String(contentsOf: here, encoding: .utf8).components(separatedBy: "\n")
        let start = try #require(source.firstIndex { $0.hasPrefix("    @Test func theFeedRefreshesAnHourAfterTheUserLeaves()") })
        let end = try #require(source[start...].firstIndex { $0 == "    }" })
        let example = source[start...end].map { $0.isEmpty ? $0 : String($0.dropFirst(4)) }.joined(separator: "\n")
        let readme = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        #expect(try String(contentsOf: readme, encoding: .utf8).contains("\n" + example + "\n```\n"))
    }
}
