import BackgroundBudgetExplorer
import BackgroundBudget
import BackgroundBudgetScenario
import Foundation
import Testing
import TestSupport

/// Stored expected traces, compared byte for byte: the guard that a restructuring (such as splitting
/// the package into modules) changes no output at all.
///
/// `ExpectedTraces/` (beside this file, read from the source tree through `#filePath`; excluded from
/// the target in Package.swift) holds:
///
/// - `scenarios/NAME.log`, `NAME.jsonl`, `NAME.svg` for every `Examples/scenarios/NAME.json`: what
///   `bgbudget run Examples/scenarios/NAME.json --format log|jsonl|svg` prints. The test renders them
///   in-process with `Scenario(jsonBytes:file:)`, `run()` and `rendered(as:)`, which is exactly what
///   `bgbudget` prints (it adds and strips nothing). A scenario without stored traces fails.
/// - `examples/PROGRAM[FLAGS].txt`, e.g. `StateLab--jsonl.txt`: the standard output of the example
///   program run with those flags. The test runs the executables from the build folder next to the test
///   bundle (``ProductProcess``), each in a fresh folder that is also its `TMPDIR`.
///   `NewsFetcher.txt` is `NewsFetcher --svg NewsFetcher.svg` (a relative path, so the line naming it
///   is stable) and `NewsFetcher.svg` the timeline it writes.
///
/// A mismatch reports the first differing line, with both versions.
///
/// To re-record after an intended change of output, run
///
/// ```sh
/// BGBUDGET_RECORD_TRACES=1 swift test --filter ExpectedTrace
/// git diff --stat Tests/ProgramTests/ExpectedTraces   # then review every changed line
/// ```
///
/// A recording run writes the current outputs over the stored files instead of comparing them, and
/// still records an issue for each file it wrote, so it never passes silently.
@Suite struct ExpectedTraceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ExpectedTraces")
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples")
    static let isRecording = ProcessInfo.processInfo.environment["BGBUDGET_RECORD_TRACES"] == "1"

    // MARK: Scenarios

    /// The names of the scenarios in Examples/scenarios, without `.json`, enumerated so that a new one
    /// is checked (and fails until its traces are recorded).
    static let scenarioNames: [String] = ((try? FileManager.default.contentsOfDirectory(
        atPath: examples.appendingPathComponent("scenarios").path)) ?? [])
        .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()

    @Test(arguments: scenarioNames)
    func scenarioTracesAreUnchanged(_ name: String) throws {
        let file = "Examples/scenarios/\(name).json"
        let bytes = try Data(contentsOf: Self.examples.appendingPathComponent("scenarios/\(name).json"))
        let run = try Scenario(jsonBytes: Array(bytes), file: file).run()
        for format in ScenarioRun.Format.allCases {
            Self.check(Data(run.rendered(as: format).utf8), against: "scenarios/\(name).\(format.rawValue)",
                       producedBy: "bgbudget run \(file) --format \(format.rawValue)")
        }
    }

    // MARK: Example programs

    /// One run of an example program: its arguments, the stored file its standard output must equal,
    /// and the files it writes in its folder that must equal stored files of the same names.
    struct ExampleRun: Sendable, CustomTestStringConvertible {
        var program: String
        var arguments: [String]
        var expected: String
        var writes: [String] = []

        init(_ program: String, _ arguments: String..., writes: [String] = []) {
            self.program = program
            self.arguments = arguments
            self.expected = program + (writes.isEmpty ? arguments.joined() : "") + ".txt"
            self.writes = writes
        }

        var testDescription: String { ([program] + arguments).joined(separator: " ") }
    }

    static let exampleRuns: [ExampleRun] = [
        ExampleRun("StateLab"), ExampleRun("StateLab", "--callbacks-only"), ExampleRun("StateLab", "--jsonl"),
        ExampleRun("AudioPlayer"), ExampleRun("AudioPlayer", "--jsonl"),
        ExampleRun("LocationTracker"), ExampleRun("LocationTracker", "--jsonl"),
        ExampleRun("MemoryPressure"), ExampleRun("MemoryPressure", "--trace"),
        ExampleRun("DraftLoss"),
        // Without --svg it would write to $TMPDIR/NewsFetcher.svg and print that path, a different one
        // each run; relative to its folder the path printed is the same every time.
        ExampleRun("NewsFetcher", "--svg", "NewsFetcher.svg", writes: ["NewsFetcher.svg"]),
    ]

    @Test(arguments: exampleRuns)
    func exampleOutputIsUnchanged(_ example: ExampleRun) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expected-trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The output is captured in stdout.txt and stderr.txt in `folder`; the program runs in a folder
        // of its own inside it. The run blocks in `poll` and `waitpid`: on its own thread, not one of
        // the few that run the other tests, so the examples run in parallel.
        let home = folder.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let outcome = await onDedicatedThread { () -> Result<ProductProcess.Result, any Error> in
            Result {
                try ProductProcess.run(example.program, example.arguments, environment: ["TMPDIR": home.path],
                                       currentDirectory: home, in: folder)
            }
        }
        let result = try outcome.get()
        #expect(result.status == 0, "\(example.testDescription) exited with \(result.status): \(result.standardError)")
        Self.check(result.standardOutputData, against: "examples/\(example.expected)", producedBy: example.testDescription)
        for file in example.writes {
            guard let written = FileManager.default.contents(atPath: home.appendingPathComponent(file).path) else {
                Issue.record("\(example.testDescription) did not write \(file)")
                continue
            }
            Self.check(written, against: "examples/\(file)", producedBy: "\(file) written by \(example.testDescription)")
        }
    }

    // MARK: Coverage

    @Test func everyScenarioAndExampleProgramIsCoveredAndNoStoredFileIsStale() throws {
        #expect(Self.scenarioNames.count >= 20, "found only \(Self.scenarioNames) in \(Self.examples.path)/scenarios")
        let expectedScenarioFiles = Set(Self.scenarioNames.flatMap { name in ScenarioRun.Format.allCases.map { "\(name).\($0.rawValue)" } })
        let storedScenarioFiles = try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent("scenarios").path)
            .filter { !$0.hasPrefix(".") }   // a Mac's Finder adds .DS_Store
        for stale in Set(storedScenarioFiles).subtracting(expectedScenarioFiles).sorted() {
            Issue.record("ExpectedTraces/scenarios/\(stale) belongs to no scenario in Examples/scenarios; delete it")
        }

        let expectedExampleFiles = Set(Self.exampleRuns.flatMap { [$0.expected] + $0.writes })
        let storedExampleFiles = try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent("examples").path)
            .filter { !$0.hasPrefix(".") }
        for stale in Set(storedExampleFiles).subtracting(expectedExampleFiles).sorted() {
            Issue.record("ExpectedTraces/examples/\(stale) belongs to no run in ExpectedTraceTests.exampleRuns; delete it")
        }

        // Every folder of Examples with a main.swift is a program whose output is checked here, except the
        // real-time JobRunner, whose output depends on timing: ProgramTests/JobRunnerEndToEndTests runs it.
        let programs = try FileManager.default.contentsOfDirectory(atPath: Self.examples.path).filter {
            FileManager.default.fileExists(atPath: Self.examples.appendingPathComponent("\($0)/main.swift").path)
                && $0 != "JobRunner"
        }
        let checked = Set(Self.exampleRuns.map(\.program))
        for program in programs.sorted() where !checked.contains(program) {
            Issue.record("Examples/\(program) is not in ExpectedTraceTests.exampleRuns; add its runs and record their output")
        }
        #expect(programs.count == checked.count)
    }

    @Test func theFirstDifferenceIsReportedLineByLine() {
        #expect(Self.firstDifference(expected: Data("a\nb\n".utf8), actual: Data("a\nb\n".utf8)) == nil)
        #expect(Self.firstDifference(expected: Data("a\nbxc\nd\n".utf8), actual: Data("a\nbyc\nd\n".utf8)) == """
            first difference at line 2, byte 2 of the line (expected 8 bytes, 3 lines; got 8 bytes, 3 lines)
              expected: "bxc\\n"
              actual:   "byc\\n"
            """)
        #expect(Self.firstDifference(expected: Data("a\nb\n".utf8), actual: Data("a\nb".utf8)) == """
            first difference at line 2, byte 2 of the line (expected 4 bytes, 2 lines; got 3 bytes, 2 lines)
              expected: "b\\n"
              actual:   "b"
            """)
        #expect(Self.firstDifference(expected: Data("a\n".utf8), actual: Data("a\nextra\n".utf8)) == """
            first difference at line 2, byte 1 of the line (expected 2 bytes, 1 line; got 8 bytes, 2 lines)
              expected: (end of file)
              actual:   "extra\\n"
            """)
        let long = String(repeating: "x", count: 500)
        let report = Self.firstDifference(expected: Data((long + "1" + long).utf8), actual: Data((long + "2" + long).utf8)) ?? ""
        #expect(report.hasPrefix("first difference at line 1, byte 501 of the line"))
        #expect(report.count < 600, "a long line is clipped around the difference")
    }

    // MARK: Comparing and recording

    /// Compares `actual` with the stored file `name` (relative to ExpectedTraces), or writes it there
    /// when recording; either way a difference, a missing file or a recording is an issue.
    static func check(_ actual: Data, against name: String, producedBy producer: String,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let url = folder.appendingPathComponent(name)
        let stored = FileManager.default.contents(atPath: url.path)
        if isRecording {
            do {
                try actual.write(to: url)
                let change = stored == actual ? "unchanged" : "changed"
                Issue.record("re-recorded ExpectedTraces/\(name) (\(change)) because BGBUDGET_RECORD_TRACES=1; review the diff and run again without it",
                             sourceLocation: sourceLocation)
            } catch {
                Issue.record("cannot record ExpectedTraces/\(name): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let stored else {
            Issue.record("no stored trace ExpectedTraces/\(name) for \(producer); record it with BGBUDGET_RECORD_TRACES=1 swift test --filter ExpectedTrace",
                         sourceLocation: sourceLocation)
            return
        }
        if let difference = firstDifference(expected: stored, actual: actual) {
            Issue.record("\(producer) differs from ExpectedTraces/\(name): \(difference)", sourceLocation: sourceLocation)
        }
    }

    /// Where `actual` first differs from `expected`: the line (1-based), the byte within it, and both
    /// lines quoted with their newlines, a long line clipped around the difference; `nil` when equal.
    static func firstDifference(expected: Data, actual: Data) -> String? {
        guard expected != actual else { return nil }
        /// The lines, each with its newline (the last one may have none).
        func lines(_ data: Data) -> [Data] {
            var lines: [Data] = []
            var start = data.startIndex
            for index in data.indices where data[index] == UInt8(ascii: "\n") {
                lines.append(data[start...index])
                start = index + 1
            }
            if start < data.endIndex { lines.append(data[start...]) }
            return lines
        }
        let expectedLines = lines(expected), actualLines = lines(actual)
        let line = zip(expectedLines, actualLines).prefix { $0 == $1 }.count
        let expectedLine = line < expectedLines.count ? Array(expectedLines[line]) : nil
        let actualLine = line < actualLines.count ? Array(actualLines[line]) : nil
        let byte = zip(expectedLine ?? [], actualLine ?? []).prefix { $0 == $1 }.count
        func quoted(_ line: [UInt8]?) -> String {
            guard let line else { return "(end of file)" }
            let window = max(0, byte - 80)..<min(line.count, byte + 120)
            return (window.lowerBound > 0 ? "…" : "") + String(decoding: line[window], as: UTF8.self).debugDescription
                + (window.upperBound < line.count ? "…" : "")
        }
        func size(_ data: Data, _ lines: [Data]) -> String { "\(data.count) bytes, \(lines.count) line\(lines.count == 1 ? "" : "s")" }
        return "first difference at line \(line + 1), byte \(byte + 1) of the line "
            + "(expected \(size(expected, expectedLines)); got \(size(actual, actualLines)))\n"
            + "  expected: \(quoted(expectedLine))\n  actual:   \(quoted(actualLine))"
    }
}
