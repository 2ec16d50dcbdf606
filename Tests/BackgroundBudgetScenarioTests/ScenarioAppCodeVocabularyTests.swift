import BackgroundBudgetExplorer
import Foundation
import Testing
import BackgroundBudgetCore
@testable import BackgroundBudgetScenario

/// The scenario words for an app's own code (`task`, `queue`), the yes-or-no policy overrides written
/// as booleans, and `bgbudget validate` reporting every problem of a file.
@Suite struct ScenarioAppCodeVocabularyTests {
    /// A one-app scenario whose `applicationDidEnterBackground` takes `steps`, with `events` after an
    /// open at 0 and Home at 5.
    static func scenario(steps: String, events: String, end: Int = 200) -> String {
        """
        {"apps": [{"id": "com.example.sync", "behaviour": {"applicationDidEnterBackground": [\(steps)]}}],
         "events": [{"at": 0, "do": "open", "app": "com.example.sync"}, {"at": 5, "do": "home"}\(events)],
         "end": \(end)}
        """
    }

    /// The instants at which the app read its remaining time, and what it read.
    static func reads(_ json: String) throws -> [String] {
        try Scenario(json: json).run().trace.events(of: .backgroundTimeRemainingRead).map(\.jsonLine)
    }

    static let read = #"{"do": "readBackgroundTimeRemaining"}"#

    @Test func theTaskAndQueueStepsDecode() throws {
        let scenario = try Scenario(json: Self.scenario(
            steps: #"{"do": "task", "sleep": 2.5, "then": [\#(Self.read)]}, {"do": "queue", "label": "upload", "after": 1, "then": [{"do": "work", "for": 1}]}, {"do": "queue"}"#,
            events: ""))
        #expect(scenario.apps[0].behaviour.steps[.didEnterBackground] == [
            .appTask(sleep: .milliseconds(2500), then: [.readBackgroundTimeRemaining]),
            .queueWork(label: "upload", after: .seconds(1), then: [.work(.seconds(1))]),
            .queueWork(label: "queue", after: nil, then: []),
        ])
    }

    @Test func badTaskAndQueueStepsAreLocatedErrors() {
        #expect(decodingFailure(Self.scenario(steps: #"{"do": "task", "sleep": -1}"#, events: ""))
            .hasSuffix("$.apps[0].behaviour.applicationDidEnterBackground[0].sleep: -1 is out of range; accepted: seconds from 0 to 1000000000"))
        #expect(decodingFailure(Self.scenario(steps: #"{"do": "queue", "then": [{"do": "wrok"}]}"#, events: ""))
            .contains(#"$.apps[0].behaviour.applicationDidEnterBackground[0].then[0].do: unknown value "wrok""#))
        #expect(decodingFailure(Self.scenario(steps: #"{"do": "task", "then": {"do": "work"}}"#, events: ""))
            .hasSuffix("$.apps[0].behaviour.applicationDidEnterBackground[0].then: expected an array, found an object"))
        var nested = Self.read
        for _ in 0..<10 { nested = #"{"do": "task", "then": [\#(nested)]}"# }
        #expect(decodingFailure(Self.scenario(steps: nested, events: "")).contains("\"then\" nested at most 8 deep"))
    }

    @Test func aTaskHeldRunningWakesAtItsDeadline() throws {
        // A finite task keeps the app running: the sleep ends at 5 + 10 s, in the background.
        let json = Self.scenario(steps: #"{"do": "beginTask", "work": 20}, {"do": "task", "sleep": 10, "then": [\#(Self.read)]}"#, events: "")
        #expect(try Self.reads(json) == [#"{"t":15.000,"app":"com.example.sync","event":"backgroundTimeRemaining","remaining":20.000}"#])
    }

    @Test func aTaskSleepingThroughASuspensionWakesWhenTheAppNextRuns() throws {
        // Suspended at 5 s; the sleep falls due at 15 s, and the task wakes when the user returns at 60 s.
        let json = Self.scenario(steps: #"{"do": "task", "sleep": 10, "then": [\#(Self.read)]}"#,
                                 events: #", {"at": 60, "do": "open", "app": "com.example.sync"}"#)
        let lines = try Self.reads(json)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix(#"{"t":60.000,"#) == true)
    }

    @Test func aTaskOfAPurgedProcessNeverWakes() throws {
        let json = Self.scenario(steps: #"{"do": "task", "sleep": 10, "then": [\#(Self.read)]}"#,
                                 events: #", {"at": 8, "do": "purge", "app": "com.example.sync"}, {"at": 60, "do": "open", "app": "com.example.sync"}"#)
        #expect(try Self.reads(json).isEmpty)
    }

    @Test func queueWorkWaitsForTheAppAndDiesWithItsProcess() throws {
        let step = #"{"do": "queue", "label": "upload", "after": 10, "then": [\#(Self.read)]}"#
        let resumed = try Self.reads(Self.scenario(steps: step, events: #", {"at": 60, "do": "open", "app": "com.example.sync"}"#))
        #expect(resumed.count == 1)
        #expect(resumed.first?.hasPrefix(#"{"t":60.000,"#) == true)
        let purged = try Self.reads(Self.scenario(steps: step,
            events: #", {"at": 8, "do": "purge", "app": "com.example.sync"}, {"at": 60, "do": "open", "app": "com.example.sync"}"#))
        #expect(purged.isEmpty)
        // Held running by a finite task, the queue runs the work at its deadline.
        let held = try Self.reads(Self.scenario(steps: #"{"do": "beginTask", "work": 20}, "# + step, events: ""))
        #expect(held == [#"{"t":15.000,"app":"com.example.sync","event":"backgroundTimeRemaining","remaining":20.000}"#])
    }

    @Test func everyYesOrNoOverrideTakesBooleansAndNumbers() throws {
        let fields = BudgetPolicy.Field.allCases.filter(\.isBoolean)
        #expect(Set(fields.map(\.rawValue)) == ["allowanceResetsOnForeground", "relaunchesLocationAppsAfterUserKill",
                                                 "honoursExitsOnSuspend", "requiresSceneLifecycle", "crashesWithoutLaunchHandler"])
        for field in fields {
            for (written, number) in [("true", 1.0), ("false", 0.0), ("1", 1.0), ("0", 0.0)] {
                let json = #"{"policy": {"overrides": {"\#(field.rawValue)": \#(written)}}, "apps": [], "events": []}"#
                #expect(try Scenario(json: json).policy == BudgetPolicy.iOS13.setting(field, to: number), "\(field) = \(written)")
            }
        }
        #expect(decodingFailure(#"{"policy": {"overrides": {"backgroundTaskAllowance": true}}, "apps": [], "events": []}"#)
            .hasSuffix("$.policy.overrides.backgroundTaskAllowance: expected a number, found a boolean"))
    }

    /// Runs `bgbudget validate`, and `bgbudget run`, on `text` in a fresh file.
    static func validate(_ text: String) throws -> (ScenarioCommand.Outcome, String, run: ScenarioCommand.Outcome) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgbudget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bad.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (ScenarioCommand.run(["validate", path]), path, ScenarioCommand.run(["run", path]))
    }

    @Test func validateReportsEveryProblemWithItsPosition() throws {
        let text = """
            {"apps": [{"id": "com.example.a", "colour": "red",
                       "behaviour": {"applicationDidEnterBackground": [{"do": "wrok"}, {"do": "work", "for": "2"}]}}],
             "events": [{"at": 1, "do": "hme"},
                        {"at": -2, "do": "home"}],
             "end": "later"}
            """
        let (outcome, path, run) = try Self.validate(text)
        #expect(outcome.status == .failure)
        #expect(outcome.standardOutput == "")
        let lines = outcome.standardError.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.replacingOccurrences(of: path, with: "FILE").prefix(while: { $0 != " " }) } == [
            "FILE:1:35:", "FILE:2:67:", "FILE:2:98:", "FILE:3:29:", "FILE:4:20:", "FILE:5:9:", "bgbudget:",
        ])
        #expect(lines[0].contains(#"$.apps[0].colour: unknown key "colour"; accepted: "id""#))
        #expect(lines[1].contains(#"$.apps[0].behaviour.applicationDidEnterBackground[0].do: unknown value "wrok""#))
        #expect(lines[2].hasSuffix("$.apps[0].behaviour.applicationDidEnterBackground[1].for: expected a number, found a string"))
        #expect(lines[3].contains(#"$.events[0].do: unknown value "hme""#))
        #expect(lines[4].contains("$.events[1].at: -2 is out of range"))
        #expect(lines[5].hasSuffix("$.end: expected a number, found a string"))
        #expect(lines[6] == "bgbudget: \(path): 6 problems")
        // The first line is the one error `run` reports.
        #expect(run.standardError == lines[0] + "\n")
    }

    @Test func validateReportsProblemsAcrossValuesOnceEverythingReads() throws {
        let text = #"{"apps": [{"id": "a"}, {"id": "a"}], "events": [{"at": 5, "do": "open", "app": "b"}, {"at": 1, "do": "home"}]}"#
        let (outcome, path, _) = try Self.validate(text)
        let lines = outcome.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].contains("$.apps[1].id: "))
        #expect(lines[1].contains(#"$.events[0].app: "#))
        #expect(lines[2].contains("$.events[1].at: "))
        #expect(lines[3] == "bgbudget: \(path): 3 problems")
    }

    @Test func validateStopsAtTwentyProblemsAndSaysSo() throws {
        let events = (0..<30).map { #"{"at": \#($0), "do": "hme"}"# }.joined(separator: ",\n")
        let (outcome, path, _) = try Self.validate("{\"apps\": [], \"events\": [\n\(events)]}")
        #expect(outcome.status == .failure)
        let lines = outcome.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 21)
        #expect(lines[19].hasPrefix("\(path):21:"))
        #expect(lines[20] == "bgbudget: \(path): stopped after 20 problems")
        // One problem prints as before: no count.
        let (one, _, _) = try Self.validate(#"{"apps": [], "events": [{"at": 1, "do": "hme"}]}"#)
        #expect(one.standardError.split(separator: "\n").count == 1)
        // A syntax error stops the reading.
        let (syntax, _, _) = try Self.validate(#"{"apps": [}"#)
        #expect(syntax.standardError.split(separator: "\n").count == 1)
    }
}
