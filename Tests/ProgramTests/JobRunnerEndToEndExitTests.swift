import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The JobRunner example's exit status when a job fails, its one-worker-per-state-folder lock, and the
/// restart that reports a result an earlier run saved but never reported. Short child processes whose
/// jobs take milliseconds; the waits are bounded backstops, not timers under test.
@Suite struct JobRunnerEndToEndExitTests {
    @Test func aRunWhereAJobFailedExitsWithOne() throws {
        let folder = try JobRunnerEndToEndCommandLineTests.folder(jobs: [
            #"{"id": "a", "steps": 3, "stepMilliseconds": 1}"#,
            #"{"id": "b", "steps": 5, "stepMilliseconds": 1, "failAtStep": 2}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = [folder.appendingPathComponent("jobs.jsonl").path, "--state", folder.appendingPathComponent("state").path]
        let first = try ProductProcess.run("JobRunner", arguments, in: folder)
        let lines = first.standardOutput.split(separator: "\n").map(String.init)
        #expect(first.status == 1, "\(lines) \(first.standardError)")
        #expect(lines.contains("done a result \(JobRunnerEndToEndTests.expected(steps: 3))"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("failed b: failed at step 2") }, "\(lines)")
        #expect(lines.last == "failed: b; 1 job(s) left for the next run", "\(lines)")

        // The next run tries the failed job again (it fails again) and does not run or report "a" again.
        let second = try ProductProcess.run("JobRunner", arguments, in: folder)
        let again = second.standardOutput.split(separator: "\n").map(String.init)
        #expect(second.status == 1, "\(again)")
        #expect(again.first == "skip a: done in an earlier run", "\(again)")
        #expect(again.contains("resume b from step 0") || again.contains("start b"), "\(again)")
        #expect(!again.contains { $0.hasPrefix("done ") }, "\(again)")
    }

    @Test func aSecondWorkerOnTheSameStateFolderExitsWithThreeAndTheLockDiesWithTheFirst() throws {
        // One step of 200 s: the first worker is surely still running it when the second starts.
        let folder = try JobRunnerEndToEndCommandLineTests.folder(jobs: [#"{"id": "a", "steps": 1, "stepMilliseconds": 200000}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state")
        let arguments = [folder.appendingPathComponent("jobs.jsonl").path, "--state", state.path,
                         "--allowance", "600", "--warning-lead", "300"]
        let executable = try #require(ProductProcess.executable("JobRunner"))

        let first = try ChildProcess(executable: executable, arguments: arguments)
        #expect(first.nextLine(timeout: .seconds(20)) == "start a")
        let second = try ProductProcess.run("JobRunner", arguments, in: folder)
        #expect(second.status == 3, "\(second.standardError)")
        #expect(second.standardError == "JobRunner: another worker is using the state folder \(state.path) (one worker per state folder)\n")
        #expect(second.standardOutput.isEmpty, "the second worker ran nothing: \(second.standardOutput)")

        // SIGKILL runs no code of the first worker's: the kernel releases its lock, and a third starts.
        first.kill()
        let third = try ChildProcess(executable: executable, arguments: arguments)
        #expect(third.nextLine(timeout: .seconds(20)) == "start a")
        third.kill()
    }

    @Test func aRestartReportsAResultThatWasSavedButNeverReported() throws {
        let folder = try JobRunnerEndToEndCommandLineTests.folder(jobs: [
            #"{"id": "a", "steps": 4, "stepMilliseconds": 0}"#,
            #"{"id": "b", "steps": 6, "stepMilliseconds": 0}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state")
        let arguments = [folder.appendingPathComponent("jobs.jsonl").path, "--state", state.path]
        let first = try ProductProcess.run("JobRunner", arguments, in: folder)
        #expect(first.status == 0)
        #expect(first.standardOutput.split(separator: "\n").last == "all jobs done", "\(first.standardOutput)")
        let mark = state.appendingPathComponent("job-b.reported")
        #expect(FileManager.default.fileExists(atPath: mark.path))

        // What a SIGKILL between saving b's result and printing it leaves behind: a result, no mark.
        try FileManager.default.removeItem(at: mark)
        let second = try ProductProcess.run("JobRunner", arguments, in: folder)
        #expect(second.status == 0)
        #expect(second.standardOutput.split(separator: "\n") == [
            "skip a: done in an earlier run", "done b result \(JobRunnerEndToEndTests.expected(steps: 6))", "all jobs done",
        ], "\(second.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: mark.path), "reported, so marked")

        let third = try ProductProcess.run("JobRunner", arguments, in: folder)
        #expect(third.standardOutput.split(separator: "\n") == [
            "skip a: done in an earlier run", "skip b: done in an earlier run", "all jobs done",
        ], "\(third.standardOutput)")
    }
}
