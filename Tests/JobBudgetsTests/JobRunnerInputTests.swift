import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The JobRunner example's input, as a hostile user or a broken deployment gives it: seconds that are
/// not plain decimals are refused before anything runs, with exit status 2 and a line naming the flag
/// and the value. Each case is one short child process; the backstop (20 s) only turns a hang into a
/// failure.
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
}
