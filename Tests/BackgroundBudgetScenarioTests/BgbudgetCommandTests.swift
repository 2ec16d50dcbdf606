import BackgroundBudgetExplorer
import Foundation
import Testing
import TestSupport
import BackgroundBudget
@testable import BackgroundBudgetScenario

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The `bgbudget` executable keeps its exit codes (0, 1, 2) whatever happens to its input and
/// output: unwritable or closed output, a broken pipe, inputs that are not regular files or too
/// large, and messages about huge scenarios stay short.
@Suite(.timeLimit(.minutes(2))) struct BgbudgetCommandTests {
    /// Runs `body` with a fresh directory, removed afterwards.
    private func withDirectory(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgbudget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory)
    }

    /// Whether the system has `/dev/full`, where every write fails with `ENOSPC` (Linux has; macOS has not).
    private static let hasDevFull = FileManager.default.fileExists(atPath: "/dev/full")

    private let valid = """
        {"apps": [{"id": "com.example.news", "displayName": "News"}],
         "events": [{"at": 0, "do": "open", "app": "com.example.news"}, {"at": 4, "do": "home"}]}
        """

    private func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    // MARK: Output that cannot be written (the real executable)

    @Test(.enabled(if: Self.hasDevFull, "needs /dev/full (Linux)")) func standardOutputOnAFullDeviceExitsOneWithAMessage() throws {
        try withDirectory { directory throws in
            let result = try ProductProcess.run("bgbudget", ["--help"], standardOutput: .devFull, in: directory)
            #expect(result.status == 1)
            #expect(result.standardError == "bgbudget: cannot write to standard output: no space left on device\n")
        }
    }

    @Test func aClosedStandardOutputExitsOne() throws {
        try withDirectory { directory throws in
            let path = try write(valid, "ok.json", in: directory)
            let result = try ProductProcess.run("bgbudget", ["run", path], standardOutput: .closed, in: directory)
            #expect(result.status == 1)
            #expect(result.standardError == "bgbudget: cannot write to standard output: it is closed\n")
            // With --out there is nothing for standard output, so a closed one is no failure.
            let out = directory.appendingPathComponent("out.log").path
            #expect(try ProductProcess.run("bgbudget", ["run", path, "--out", out], standardOutput: .closed, in: directory).status == 0)
            #expect(try String(contentsOfFile: out, encoding: .utf8) == (try Scenario(json: valid).run().rendered(as: .log)))
        }
    }

    @Test func aClosedStandardErrorWithAnErrorExitsOne() throws {
        try withDirectory { directory throws in
            let missing = directory.appendingPathComponent("missing.json").path
            #expect(try ProductProcess.run("bgbudget", ["validate", missing], standardError: .closed, in: directory).status == 1)
            #expect(try ProductProcess.run("bgbudget", ["--help"], standardOutput: .closed, standardError: .closed, in: directory).status == 1)
            if Self.hasDevFull {
                #expect(try ProductProcess.run("bgbudget", ["--help"], standardOutput: .devFull, standardError: .closed, in: directory).status == 1)
                #expect(try ProductProcess.run("bgbudget", ["rn"], standardError: .devFull, in: directory).status == 1)
            }
            #expect(try ProductProcess.run("bgbudget", ["rn"], in: directory).status == 2)
        }
    }

    @Test func aPipeWithNoReaderExitsOneInsteadOfDyingOfSIGPIPE() throws {
        try withDirectory { directory throws in
            let result = try ProductProcess.run("bgbudget", ["--help"], standardOutput: .brokenPipe, in: directory)
            #expect(result.status == 1)
            #expect(result.standardError == "bgbudget: cannot write to standard output: the reading end of the pipe is closed\n")
        }
    }

    @Test func aNamedPipeIsRefusedAtOnceWithoutWaitingForAWriter() throws {
        try withDirectory { directory throws in
            let fifo = directory.appendingPathComponent("events.json").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let result = try ProductProcess.run("bgbudget", ["validate", fifo], in: directory)
            #expect(result.status == 1)
            #expect(result.standardError == "bgbudget: cannot read '\(fifo)': it is a named pipe (FIFO), not a regular file\n")
        }
    }

    // MARK: Inputs that are not regular files, or too large

    @Test func devicesAreRefusedAsWhatTheyAre() {
        for device in ["/dev/null", "/dev/zero"] {
            #expect(ScenarioCommand.run(["validate", device])
                == .failure("bgbudget: cannot read '\(device)': it is a character device, not a regular file"))
        }
    }

    @Test func aSocketIsRefusedAsASocket() throws {
        try withDirectory { directory throws in
            let path = directory.appendingPathComponent("s.sock").path
            #if canImport(Darwin)
            let listener = socket(AF_UNIX, SOCK_STREAM, 0)
            #else
            let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            #endif
            defer { close(listener) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(bound == 0)
            #expect(ScenarioCommand.run(["validate", path]) == .failure("bgbudget: cannot read '\(path)': it is a socket, not a regular file"))
        }
    }

    @Test func aSymbolicLinkLoopIsNamedAsOne() throws {
        try withDirectory { directory throws in
            let first = directory.appendingPathComponent("a.json").path, second = directory.appendingPathComponent("b.json").path
            try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: second)
            try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: first)
            #expect(ScenarioCommand.run(["run", first])
                == .failure("bgbudget: cannot read '\(first)': too many levels of symbolic links (is there a loop?)"))
        }
    }

    @Test(.enabled(if: getuid() != 0, "root may read any file")) func anUnreadableFileSaysPermissionDenied() throws {
        try withDirectory { directory throws in
            let path = try write(valid, "secret.json", in: directory)
            #expect(chmod(path, 0o000) == 0)
            #expect(ScenarioCommand.run(["validate", path]) == .failure("bgbudget: cannot read '\(path)': permission denied"))
        }
    }

    @Test func aFileOverTheLimitIsRefusedWithItsSizeBeforeItIsRead() throws {
        try withDirectory { directory throws in
            // A sparse file one byte over the limit: no disk space, and all zeros if it were read.
            let path = directory.appendingPathComponent("big.json").path
            let descriptor = open(path, O_WRONLY | O_CREAT, 0o644)
            try #require(descriptor >= 0)
            #expect(ftruncate(descriptor, off_t(InputFile.scenarioLimit + 1)) == 0)
            close(descriptor)
            #expect(ScenarioCommand.run(["validate", path]) == .failure(
                "bgbudget: cannot read '\(path)': it is 67108865 bytes (64 MiB); scenario files are limited to 67108864 bytes (64 MiB)"))
            // A small limit shows the check comes from the size, not from the content.
            let small = try write(valid, "ok.json", in: directory)
            #expect(throws: InputFileError(problem: .tooLarge(size: Int64(valid.utf8.count), limit: 10))) {
                try InputFile.contents(of: small, limit: 10)
            }
            #expect(try InputFile.contents(of: small, limit: valid.utf8.count) == Array(valid.utf8))
        }
    }

    // MARK: --out

    @Test func outProblemsAreNamedPlainly() throws {
        try withDirectory { directory throws in
            let path = try write(valid, "ok.json", in: directory)
            #expect(ScenarioCommand.run(["run", path, "--out", directory.path])
                == .failure("bgbudget: cannot write '\(directory.path)': it is a directory"))
            let missing = directory.appendingPathComponent("no/such/out.log").path
            #expect(ScenarioCommand.run(["run", path, "--out", missing])
                == .failure("bgbudget: cannot write '\(missing)': the folder '\(directory.path)/no/such' does not exist"))
            if Self.hasDevFull {
                // A device is refused before a byte is written, as input refuses one.
                #expect(ScenarioCommand.run(["run", path, "--out", "/dev/full"])
                    == .failure("bgbudget: cannot write '/dev/full': it is a character device, not a regular file"))
            }
        }
    }

    @Test func outReplacesAFileWholeAndLeavesNothingElse() throws {
        try withDirectory { directory throws in
            let path = try write(valid, "ok.json", in: directory)
            let out = try write(String(repeating: "old output\n", count: 1000), "out.log", in: directory)
            #expect(ScenarioCommand.run(["run", path, "--out", out]) == .success(""))
            #expect(try String(contentsOfFile: out, encoding: .utf8) == (try Scenario(json: valid).run().rendered(as: .log)))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["ok.json", "out.log"])
        }
    }

    @Test func aFailedWriteToOutLeavesTheOldFileAsItWas() throws {
        try withDirectory { directory throws in
            // Enough events for several kilobytes of log, past a file-size limit of 1 KiB.
            let events = (0..<20).map { #"{"at": \#($0 * 10), "do": "open", "app": "com.example.news"}, {"at": \#($0 * 10 + 5), "do": "home"}"# }
            let path = try write(#"{"apps": [{"id": "com.example.news"}], "events": [\#(events.joined(separator: ", "))]}"#,
                                 "many.json", in: directory)
            let old = String(repeating: "old output\n", count: 10)
            let out = try write(old, "out.log", in: directory)
            let result = try ProductProcess.run("bgbudget", ["run", path, "--out", out], fileSizeLimit: 2, in: directory)
            #expect(result.status == 1)
            #expect(result.standardError == "bgbudget: cannot write '\(out)': file too large\n")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == old)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == ["many.json", "out.log", "stderr.txt", "stdout.txt"])
        }
    }

    @Test(.enabled(if: getuid() != 0, "root may write any file")) func outRefusesAFileItMayNotWrite() throws {
        try withDirectory { directory throws in
            let path = try write(valid, "ok.json", in: directory)
            let out = try write("read-only\n", "out.log", in: directory)
            #expect(chmod(out, 0o444) == 0)
            #expect(ScenarioCommand.run(["run", path, "--out", out]) == .failure("bgbudget: cannot write '\(out)': permission denied"))
            #expect(try String(contentsOfFile: out, encoding: .utf8) == "read-only\n")
        }
    }

    @Test func longArgumentsAreClippedInUsageMessages() {
        let long = String(repeating: "x", count: 100_000)
        #expect(ScenarioCommand.run(["run", "a.json", "--format", long])
            == .usage("unknown format '\(String(repeating: "x", count: 80))…' for --format; accepted: log, jsonl, svg"))
        #expect(ScenarioCommand.run([long]) == .usage("unknown command '\(String(repeating: "x", count: 80))…'; expected one of run, validate, explore, check, merge, --help"))
    }

    // MARK: Delivering output, in-process

    @Test(.enabled(if: Self.hasDevFull, "needs /dev/full (Linux)")) func deliveringToAFullDeviceFailsAndSaysSo() throws {
        try withDirectory { directory throws in
            let full = open("/dev/full", O_WRONLY)
            try #require(full >= 0)
            defer { close(full) }
            let errors = directory.appendingPathComponent("stderr.txt").path
            let log = open(errors, O_WRONLY | O_CREAT, 0o644)
            try #require(log >= 0)
            defer { close(log) }
            let outcome = ScenarioCommand.Outcome(status: .success, standardOutput: "trace\n", standardError: "")
            #expect(ScenarioCommand.deliver(outcome, standardOutput: full, standardError: log) == .failure)
            #expect(ScenarioCommand.deliver(outcome, standardOutput: nil, standardError: nil) == .failure)
            // Any output that fails makes it a failure, even for a usage error.
            #expect(ScenarioCommand.deliver(.usage("bad"), standardOutput: full, standardError: full) == .failure)
            #expect(try String(contentsOfFile: errors, encoding: .utf8)
                == "bgbudget: cannot write to standard output: no space left on device\n")
        }
    }
}
