import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The JobRunner example's input, as a hostile user or a broken deployment gives it: seconds that are
/// not plain decimals, a jobs path that is not a jobs file (a FIFO, a device, a folder, bytes that are
/// not UTF-8, a file it may not read, no file at all), and job ids that would break a line of output.
/// Each is refused before anything runs, with exit status 2 and one line naming the value or the path
/// and what was expected. Each case is one short child process; the backstop (20 s) only turns a hang
/// (a FIFO opened for reading waits for a writer) into a failure.
@Suite struct JobRunnerInputTests {
    /// The backstop of every run, in milliseconds: far beyond the few milliseconds a refusal takes.
    static let backstop: Int32 = 20_000

    // MARK: Decimal seconds

    /// A value of a seconds flag that is not a plain decimal, and the first line of the message.
    struct NotDecimal: Sendable, CustomTestStringConvertible {
        var flag: String
        var value: String
        var bound: String
        var testDescription: String { "\(flag) \(value)" }
    }

    static let notDecimal: [NotDecimal] = [
        .init(flag: "--grace", value: "0x10", bound: "0 or more"),
        .init(flag: "--allowance", value: "0x1p3", bound: "more than 0"),
        .init(flag: "--grace", value: "1e3", bound: "0 or more"),
        .init(flag: "--warning-lead", value: "2.5E-1", bound: "more than 0"),
        .init(flag: "--allowance", value: "inf", bound: "more than 0"),
        .init(flag: "--warning-lead", value: "nan", bound: "more than 0"),
        .init(flag: "--grace", value: "+1", bound: "0 or more"),
        .init(flag: "--grace", value: "-1", bound: "0 or more"),
        .init(flag: "--allowance", value: ".5", bound: "more than 0"),
        .init(flag: "--allowance", value: "5.", bound: "more than 0"),
        .init(flag: "--grace", value: " 1", bound: "0 or more"),
        .init(flag: "--grace", value: "1,5", bound: "0 or more"),
        .init(flag: "--grace", value: "1_000", bound: "0 or more"),
        .init(flag: "--grace", value: "\u{663}", bound: "0 or more"),      // ARABIC-INDIC DIGIT THREE
        .init(flag: "--grace", value: "", bound: "0 or more"),
    ]

    @Test(arguments: notDecimal)
    func secondsThatAreNotAPlainDecimalAreAUsageError(_ bad: NotDecimal) throws {
        let folder = try JobRunnerEndToEndCommandLineTests.folder(jobs: [#"{"id": "a", "steps": 1, "stepMilliseconds": 0}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state")
        let run = try ProductProcess.run("JobRunner", [folder.appendingPathComponent("jobs.jsonl").path, "--state", state.path,
                                                       bad.flag, bad.value], in: folder, backstop: Self.backstop)
        #expect(run.status == 2, "exit \(run.status): \(run.standardOutput) \(run.standardError)")
        let lines = run.standardError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let message = "JobRunner: \(bad.flag) \(bad.value): needs decimal seconds (digits, or digits.digits: 30, 0.25), "
            + "\(bad.bound), at most 31536000"
        #expect(lines.first == message, "\(run.standardError)")
        #expect(lines.dropFirst().first?.hasPrefix("usage: JobRunner") == true, "\(run.standardError)")
        #expect(run.standardOutput.isEmpty, "\(run.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: state.path), "nothing is written before the arguments are checked")
    }

    /// Plain decimals (leading zeros too) and printable ids, accents and spaces included, still run:
    /// the checks above refuse only what they say.
    @Test func plainDecimalsAndPrintableIdsRun() throws {
        let folder = try JobRunnerEndToEndCommandLineTests.folder(jobs: [#"{"id": "café ☕ 1", "steps": 2, "stepMilliseconds": 0}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ProductProcess.run("JobRunner", [folder.appendingPathComponent("jobs.jsonl").path,
                                                       "--state", folder.appendingPathComponent("state").path,
                                                       "--allowance", "02.50", "--warning-lead", "0.05", "--grace", "0"],
                                         in: folder, backstop: Self.backstop)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.split(separator: "\n") == [
            "start café ☕ 1", "done café ☕ 1 result \(JobRunnerEndToEndTests.expected(steps: 2))", "all jobs done",
        ], "\(run.standardOutput)")
    }

    // MARK: Jobs files it cannot read

    /// What follows a path the jobs path cannot be read as.
    static let expectedJobs = "expected a jobs file (a regular file, one JSON job a line) or a queue folder (one *.json job a file)"
    /// What follows a file of a queue folder that cannot be read as a job.
    static let expectedJob = "expected a job file (a regular file holding one JSON job)"

    /// Runs JobRunner on `jobs` with a state folder in `folder`, and checks that it refused with
    /// status 2 and exactly `message` on standard error, and ran nothing.
    static func expectRefusal(jobs: String, in folder: URL, message: String,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let state = folder.appendingPathComponent("state")
        let run = try ProductProcess.run("JobRunner", [jobs, "--state", state.path], in: folder, backstop: backstop)
        check(status: run.status, standardOutput: run.standardOutput, standardError: run.standardError, state: state,
              message: message, sourceLocation: sourceLocation)
    }

    static func check(status: Int32, standardOutput: String, standardError: String, state: URL, message: String,
                      sourceLocation: SourceLocation) {
        #expect(status == 2, "exit \(status): \(standardError)", sourceLocation: sourceLocation)
        #expect(standardError == "JobRunner: \(message)\n", sourceLocation: sourceLocation)
        #expect(standardOutput.isEmpty, "\(standardOutput)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: state.path), "nothing is written before the jobs are read",
                sourceLocation: sourceLocation)
    }

    /// A new empty folder.
    static func emptyFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("JobRunnerInput-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aMissingFileIsNamedWithWhatWasExpected() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = folder.appendingPathComponent("missing.jsonl").path
        try Self.expectRefusal(jobs: jobs, in: folder, message: "\(jobs): no such file or folder; \(Self.expectedJobs)")
    }

    /// Before the fix, opening the FIFO waited for a writer forever.
    @Test func aFifoIsRefusedWithoutWaitingForAWriter() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = folder.appendingPathComponent("jobs.fifo").path
        try #require(mkfifo(jobs, 0o644) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        try Self.expectRefusal(jobs: jobs, in: folder, message: "\(jobs): a named pipe (FIFO); \(Self.expectedJobs)")
    }

    /// Before the fix, reading `/dev/zero` ran away with memory; it is never even opened now.
    @Test func aDeviceIsRefusedWithoutReadingIt() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.expectRefusal(jobs: "/dev/zero", in: folder, message: "/dev/zero: a character device; \(Self.expectedJobs)")
    }

    /// A file longer than the bound (sparse: no disk, no time) is refused before any of it is read.
    @Test func aFileLongerThanTheBoundIsRefused() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = folder.appendingPathComponent("jobs.jsonl")
        #expect(FileManager.default.createFile(atPath: jobs.path, contents: nil))
        let handle = try FileHandle(forWritingTo: jobs)
        try handle.truncate(atOffset: 16 * 1024 * 1024 + 1)
        try handle.close()
        try Self.expectRefusal(jobs: jobs.path, in: folder,
                               message: "\(jobs.path): 16777217 bytes, too long; expected a jobs file of at most 16777216 bytes (16 MiB)")
    }

    @Test func bytesThatAreNotUTF8AreNamedByLine() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = folder.appendingPathComponent("jobs.jsonl")
        try (Data(#"{"id": "a", "steps": 1}"#.utf8) + Data("\n".utf8) + Data([0x7B, 0xFF, 0xFE, 0x00, 0xC3, 0x0A])).write(to: jobs)
        try Self.expectRefusal(jobs: jobs.path, in: folder, message: "\(jobs.path):2: not UTF-8 text; expected a job in JSON, in UTF-8")
    }

    @Test func aLinkLoopIsNamedWithWhatWasExpected() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = folder.appendingPathComponent("loop.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: jobs, withDestinationPath: jobs)
        try Self.expectRefusal(jobs: jobs, in: folder, message: "\(jobs): too many levels of symbolic links; \(Self.expectedJobs)")
    }

    /// A `*.json` entry of a queue folder that is not a job file, and the start of the message after its path.
    @Test(arguments: ["folder", "fifo", "garbage"])
    func aQueueFolderEntryThatIsNotAJobFileIsNamed(_ kind: String) throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = folder.appendingPathComponent("queue")
        try FileManager.default.createDirectory(at: queue, withIntermediateDirectories: true)
        try Data(#"{"id": "a", "steps": 1}"#.utf8).write(to: queue.appendingPathComponent("a.json"))
        let entry = queue.appendingPathComponent("b.json").path
        let problem: String
        switch kind {
        case "folder":
            try FileManager.default.createDirectory(atPath: entry, withIntermediateDirectories: false)
            problem = "a folder; \(Self.expectedJob)"
        case "fifo":
            try #require(mkfifo(entry, 0o644) == 0, "mkfifo: \(String(cString: strerror(errno)))")
            problem = "a named pipe (FIFO); \(Self.expectedJob)"
        default:
            try Data([0x7B, 0x22, 0x69, 0x64, 0xFF, 0x80, 0x0A]).write(to: URL(fileURLWithPath: entry))
            problem = "not UTF-8 text; expected a job in JSON, in UTF-8"
        }
        try Self.expectRefusal(jobs: queue.path, in: folder, message: "\(entry): \(problem)")
    }

    /// Whether this process can make a file its child may not read: any user but root can; root reads
    /// every file whatever its mode (`CAP_DAC_OVERRIDE`), so as root the child runs under `setpriv`
    /// without that capability and `CAP_DAC_READ_SEARCH`. Root without `setpriv` cannot: the test is skipped.
    static let canDenyRead = geteuid() != 0 || FileManager.default.isExecutableFile(atPath: setpriv)
    static let setpriv = "/usr/bin/setpriv"

    @Test(.enabled(if: canDenyRead, "running as root without \(setpriv): root reads a file whatever its mode"),
          arguments: ["file", "folder"])
    func aFileOrFolderThisUserMayNotReadIsNamed(_ kind: String) throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs: URL
        if kind == "file" {
            jobs = folder.appendingPathComponent("jobs.jsonl")
            try Data(#"{"id": "a", "steps": 1}"#.utf8).write(to: jobs)
        } else {
            jobs = folder.appendingPathComponent("queue")
            try FileManager.default.createDirectory(at: jobs, withIntermediateDirectories: false)
            try Data(#"{"id": "a", "steps": 1}"#.utf8).write(to: jobs.appendingPathComponent("a.json"))
        }
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: jobs.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: jobs.path) }
        let state = folder.appendingPathComponent("state")
        let message = "\(jobs.path): permission denied (this user may not read it); \(Self.expectedJobs)"
        guard geteuid() == 0 else {
            return try Self.expectRefusal(jobs: jobs.path, in: folder, message: message)
        }
        let executable = try #require(ProductProcess.executable("JobRunner"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.setpriv)
        process.arguments = ["--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search",
                             executable, jobs.path, "--state", state.path]
        let outputs = (folder.appendingPathComponent("stdout.txt"), folder.appendingPathComponent("stderr.txt"))
        for file in [outputs.0, outputs.1] { #expect(FileManager.default.createFile(atPath: file.path, contents: nil)) }
        process.standardOutput = try FileHandle(forWritingTo: outputs.0)
        process.standardError = try FileHandle(forWritingTo: outputs.1)
        try process.run()
        process.waitUntilExit()
        Self.check(status: process.terminationStatus, standardOutput: try String(contentsOf: outputs.0, encoding: .utf8),
                   standardError: try String(contentsOf: outputs.1, encoding: .utf8), state: state, message: message,
                   sourceLocation: #_sourceLocation)
    }

    // MARK: Job ids that would break a line

    /// An id as written in the jobs file (JSON), as the message shows it, and what the message says
    /// the offending character is.
    struct BadId: Sendable, CustomTestStringConvertible {
        var json: String
        var shown: String
        var character: String
        var testDescription: String { json }
    }

    static let badIds: [BadId] = [
        .init(json: #""a\nb""#, shown: #""a\nb""#, character: "U+000A, a control character"),
        .init(json: #""a\rb""#, shown: #""a\rb""#, character: "U+000D, a control character"),
        .init(json: #""\tx""#, shown: #""\tx""#, character: "U+0009, a control character"),
        .init(json: #""x\u0000""#, shown: #""x\u0000""#, character: "U+0000, a control character"),
        .init(json: #""\u001b[31mred""#, shown: #""\u001B[31mred""#, character: "U+001B, a control character"),
        .init(json: #""a\u007fb""#, shown: #""a\u007Fb""#, character: "U+007F, a control character"),
        .init(json: #""a\u0085b""#, shown: #""a\u0085b""#, character: "U+0085, a control character"),
        .init(json: #""a\u2028b""#, shown: #""a\u2028b""#, character: "U+2028, a line separator"),
        .init(json: #""\"q\" \\ \u2029""#, shown: #""\"q\" \\ \u2029""#, character: "U+2029, a paragraph separator"),
    ]

    /// Before the fix, such an id ran, and its `done` line came out split.
    @Test(arguments: badIds)
    func anIdThatWouldBreakALineIsRefusedWithItsLine(_ bad: BadId) throws {
        let folder = try JobRunnerEndToEndCommandLineTests.folder(jobs: [
            #"{"id": "a", "steps": 1, "stepMilliseconds": 0}"#,
            #"{"id": \#(bad.json), "steps": 1, "stepMilliseconds": 0}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = folder.appendingPathComponent("jobs.jsonl").path
        try Self.expectRefusal(jobs: jobs, in: folder, message: "\(jobs):2: the id \(bad.shown) holds \(bad.character); "
                               + "expected an id without control characters or line breaks (it is printed in lines of output)")
    }

    @Test func anIdThatWouldBreakALineIsRefusedInAQueueFolderByFile() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = folder.appendingPathComponent("queue")
        try FileManager.default.createDirectory(at: queue, withIntermediateDirectories: true)
        let entry = queue.appendingPathComponent("x.json")
        try Data(#"{"id": "done x result 1\n", "steps": 1}"#.utf8).write(to: entry)
        try Self.expectRefusal(jobs: queue.path, in: folder, message: #"\#(entry.path): the id "done x result 1\n" holds U+000A, a control character; "#
                               + "expected an id without control characters or line breaks (it is printed in lines of output)")
    }
}
