import Foundation
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing
@testable import JobWorker

/// The service on real time, shut down gracefully through ServiceLifecycleTestKit: the running job is
/// warned, saves a checkpoint and returns, and a second run skips the finished job, resumes the other
/// from its checkpoint and finishes it: every result exactly once.
@Suite struct JobServiceTests {
    /// Collects the worker's log lines, and streams them to whoever waits for one.
    final class Lines: @unchecked Sendable {
        // Safe: every access to `lines` holds `lock`; the stream's continuation is itself Sendable.
        private let lock = NSLock()
        private var lines: [String] = []
        let (stream, continuation) = AsyncStream<String>.makeStream()
        func append(_ line: String) {
            lock.withLock { lines.append(line) }
            continuation.yield(line)
        }
        var all: [String] { lock.withLock { lines } }
    }

    /// A log handler that keeps the messages.
    struct Collecting: LogHandler {
        let lines: Lines
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? { get { metadata[key] } set { metadata[key] = newValue } }
        func log(event: LogEvent) {
            lines.append(event.message.description)
        }
    }

    @Test func aGracefulShutdownCheckpointsEveryJobAndARestartFinishesThem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("JobService-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobsFile = folder.appendingPathComponent("jobs.jsonl")
        try "{\"id\": \"a\", \"steps\": 5, \"stepMilliseconds\": 10}\n{\"id\": \"b\", \"steps\": 100, \"stepMilliseconds\": 10}\n"
            .write(to: jobsFile, atomically: true, encoding: .utf8)
        let state = folder.appendingPathComponent("state")

        let first = Lines()
        let service = try JobService(jobs: jobsFile.path, state: state, allowance: .seconds(10), grace: .seconds(5),
                                     logger: Logger(label: "test") { _ in Collecting(lines: first) })
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                for await line in first.stream where line.hasPrefix("done a") { break }
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
        let checkpoint = try #require(first.all.first { $0.hasPrefix("checkpoint b at step ") && $0.hasSuffix(" (shutdown)") },
                                      "\(first.all)")
        let step = try #require(Int(checkpoint.split(separator: " ")[4]))
        #expect(step > 0 && step < 100)
        #expect(first.all.last == "shutdown: 1 job(s) left for the next run", "\(first.all)")

        let second = Lines()
        let again = try JobService(jobs: jobsFile.path, state: state, logger: Logger(label: "test") { _ in Collecting(lines: second) })
        try await again.run()
        #expect(second.all.contains("skip a: done in an earlier run"), "\(second.all)")
        #expect(second.all.contains("resume b from step \(step)"), "\(second.all)")
        let done = (first.all + second.all).filter { $0.hasPrefix("done ") }
        #expect(done == ["done a result \(Job.expectedResult(steps: 5))", "done b result \(Job.expectedResult(steps: 100))"])
    }

    @Test func cancellationStopsEveryJobNowWithoutFinishingIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("JobService-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobsFile = folder.appendingPathComponent("jobs.jsonl")
        try "{\"id\": \"b\", \"steps\": 1000, \"stepMilliseconds\": 10}\n".write(to: jobsFile, atomically: true, encoding: .utf8)
        let lines = Lines()
        let service = try JobService(jobs: jobsFile.path, state: folder.appendingPathComponent("state"),
                                     logger: Logger(label: "test") { _ in Collecting(lines: lines) })
        let run = Task { try await service.run() }
        for await line in lines.stream where line.hasPrefix("start b") { break }
        run.cancel()
        try await run.value
        // shutdown(grace: .zero): the warning and the hard stop at once. The job either saw the warning
        // between two steps (a checkpoint) or was cancelled in a step (its last checkpoint stands); it
        // never finishes its thousand steps.
        #expect(lines.all.contains { $0.hasPrefix("stopped b: ") || $0.hasSuffix("(shutdown)") }, "\(lines.all)")
        #expect(!lines.all.contains { $0.hasPrefix("done ") }, "\(lines.all)")
        #expect(lines.all.last == "shutdown: 1 job(s) left for the next run", "\(lines.all)")
    }
}
