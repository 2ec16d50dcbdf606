import Foundation
import Testing
import TestSupport

/// The JobRunner example's command line and jobs file: every number it cannot use is a usage error
/// (exit 2) naming the flag and the value, never a trap, and nothing is written to the state folder.
/// Each case is one short child process that exits before running any job.
@Suite struct JobRunnerEndToEndCommandLineTests {
    /// A bad option, and a piece of the message that names it.
    struct BadArguments: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var named: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badArguments: [BadArguments] = [
        .init(arguments: ["--allowance", "inf"], named: "--allowance inf"),
        .init(arguments: ["--allowance", "-inf"], named: "--allowance -inf"),
        .init(arguments: ["--grace", "1e300"], named: "--grace 1e300"),
        .init(arguments: ["--grace", "31536001"], named: "--grace 31536001"),
        .init(arguments: ["--grace", "-0.5"], named: "--grace -0.5"),
        .init(arguments: ["--warning-lead", "nan"], named: "--warning-lead nan"),
        .init(arguments: ["--allowance", "0"], named: "--allowance 0"),
        .init(arguments: ["--allowance", "1e-12"], named: "--allowance 1e-12"),
        .init(arguments: ["--warning-lead", "0"], named: "--warning-lead 0"),
        .init(arguments: ["--allowance", "-1"], named: "--allowance -1"),
        .init(arguments: ["--allowance", "ten"], named: "--allowance ten"),
        .init(arguments: ["--concurrency", "0"], named: "--concurrency 0"),
        .init(arguments: ["--concurrency", "-3"], named: "--concurrency -3"),
        .init(arguments: ["--concurrency", "99999999999999999999"], named: "--concurrency 99999999999999999999"),
        .init(arguments: ["--concurrency", "1025"], named: "--concurrency 1025"),
        .init(arguments: ["--allowance", "0.1", "--warning-lead", "0.2"], named: "--warning-lead 0.2 must be less than --allowance 0.1"),
        .init(arguments: ["--allowance", "0.5", "--warning-lead", "0.5"], named: "--warning-lead 0.5 must be less than --allowance 0.5"),
        .init(arguments: ["--grace"], named: "--grace needs a value"),
        .init(arguments: ["--speed", "2"], named: "unknown option --speed"),
    ]

    @Test(arguments: badArguments)
    func aNumberItCannotUseIsAUsageErrorNamingTheFlag(_ bad: BadArguments) throws {
        let folder = try Self.folder(jobs: [#"{"id": "a", "steps": 3, "stepMilliseconds": 1}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state")
        let run = try ProductProcess.run("JobRunner", [folder.appendingPathComponent("jobs.jsonl").path, "--state", state.path] + bad.arguments,
                                         in: folder)
        #expect(run.status == 2, "exit \(run.status): \(run.standardError)")
        #expect(run.standardError.hasPrefix("JobRunner: \(bad.named)"), "\(run.standardError)")
        #expect(run.standardError.contains("usage: JobRunner"), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty, "\(run.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: state.path), "nothing is written before the arguments are checked")
    }

    /// A job line the clock cannot run, and a piece of the message that names it.
    @Test(arguments: [
        (#"{"id": "a", "steps": 3, "stepMilliseconds": 100000000000}"#, "jobs.jsonl:1: a job needs"),
        (#"{"id": "a", "steps": 3, "stepMilliseconds": -1}"#, "jobs.jsonl:1: a job needs"),
        (#"{"id": "a", "steps": 0}"#, "jobs.jsonl:1: a job needs"),
        (#"{"id": "a", "steps": 3, "failAtStep": 3}"#, "jobs.jsonl:1: a job needs"),
        (#"{"id": "a", "steps": 1e300}"#, "jobs.jsonl:1: not a job"),
        (#"{"id": "a", "steps": 3, "stepMilliseconds": 300}"#, "job a: its step (0.3 s) must be shorter than --warning-lead 0.25"),
    ])
    func aJobItCannotRunIsAnErrorNamingTheLine(line: String, named: String) throws {
        let folder = try Self.folder(jobs: [line])
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state")
        let run = try ProductProcess.run("JobRunner", [folder.appendingPathComponent("jobs.jsonl").path, "--state", state.path], in: folder)
        #expect(run.status == 2, "exit \(run.status): \(run.standardError)")
        #expect(run.standardError.contains(named), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: state.path), "nothing is written before the jobs are checked")
    }

    /// A new folder holding `jobs.jsonl` with these lines.
    static func folder(jobs: [String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("JobRunnerCLI-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try (jobs.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("jobs.jsonl"), atomically: true, encoding: .utf8)
        return folder
    }
}
