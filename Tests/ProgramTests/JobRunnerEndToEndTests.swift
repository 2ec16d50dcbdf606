import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The JobRunner example as a child process on real time: SIGTERM in the middle of a run, a restart,
/// and every job's result exactly once, right. A long suite (about two seconds of real work).
@Suite(LongRun.only) struct JobRunnerEndToEndTests {
    /// The example's checksum of a job of `steps` steps (see `Examples/JobRunner/Job.swift`).
    static func expected(steps: Int) -> Int {
        (0..<steps).reduce(0) { ($0 &* 31 &+ $1 &+ 1) % 1_000_000_007 }
    }

    @Test func aSigtermMidRunThenARestartGivesEveryResultExactlyOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("JobRunnerE2E-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The allowance (5 s) outlasts every job, so only the shutdown warns one; "b" (1.5 s) is surely
        // mid-run when the first job ("a", 0.3 s) is done and the signal is sent.
        let steps = ["a": 30, "b": 150, "c": 20, "d": 60, "e": 35]
        let jobs = steps.keys.sorted().map { "{\"id\": \"\($0)\", \"steps\": \(steps[$0]!), \"stepMilliseconds\": 10}" }
        try (jobs.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("jobs.jsonl"), atomically: true, encoding: .utf8)
        let executable = try #require(ProductProcess.executable("JobRunner"))
        let arguments = [folder.appendingPathComponent("jobs.jsonl").path, "--state", folder.appendingPathComponent("state").path,
                         "--concurrency", "2", "--allowance", "5", "--warning-lead", "0.05", "--grace", "5"]

        // First run: SIGTERM once the first job is done, while others are mid-run.
        let first = try ChildProcess(executable: executable, arguments: arguments)
        var firstLines: [String] = []
        while let line = first.nextLine(timeout: .seconds(20)) {
            firstLines.append(line)
            if line.hasPrefix("done ") { break }
        }
        first.send(signal: SIGTERM)
        firstLines += first.remainingLines()
        #expect(first.waitForExit() == 0)
        #expect(firstLines.contains { $0.hasPrefix("signal SIGTERM") }, "\(firstLines)")
        #expect(firstLines.contains { $0.hasPrefix("checkpoint b at step ") && $0.hasSuffix("(shutdown)") },
                "the running job checkpointed on the shutdown's warning: \(firstLines)")
        // Every job the first run started or resumed left a checkpoint or a result before it exited.
        var running = Set<String>()
        for words in firstLines.map({ $0.split(separator: " ") }) where words.count >= 2 {
            switch words[0] {
            case "start", "resume": running.insert(String(words[1]))
            case "checkpoint", "done": running.remove(String(words[1]))
            default: break
            }
        }
        #expect(running.isEmpty, "jobs that left nothing behind: \(running.sorted()) in \(firstLines)")
        #expect(firstLines.last?.hasPrefix("shutdown:") == true, "\(firstLines)")

        // Second run: resumes from the checkpoints and finishes the rest.
        let second = try ChildProcess(executable: executable, arguments: arguments)
        let secondLines = second.remainingLines()
        #expect(second.waitForExit() == 0)
        #expect(secondLines.last == "all jobs done", "\(secondLines)")
        #expect(secondLines.contains { $0.hasPrefix("resume ") }, "\(secondLines)")

        let done = (firstLines + secondLines).filter { $0.hasPrefix("done ") }.map { $0.split(separator: " ") }
        #expect(done.map { String($0[1]) }.sorted() == steps.keys.sorted(), "each job done exactly once: \(done)")
        for line in done {
            #expect(Int(line[3]) == Self.expected(steps: steps[String(line[1])]!), "\(line)")
        }
    }
}
