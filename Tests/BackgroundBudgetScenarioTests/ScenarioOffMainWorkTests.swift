import BackgroundBudgetExplorer
import BudgetTime
import Testing
import BackgroundBudgetScenario

/// A scenario's background-thread work (a task's `work`, a handler's `progress`) runs beside the main
/// queue, at exact instants, however long a callback keeps the main queue busy.
@Suite struct ScenarioOffMainWorkTests {
    /// The entries of `app` named `name` (or all, with `nil`) as `time event` lines.
    func lines(_ run: ScenarioRun, app: String, matching: (String) -> Bool) -> [String] {
        run.trace.events.filter { $0.app.rawValue == app && matching($0.eventName) }.map { "\($0.time) \($0.eventName)" }
    }

    /// An upload begun at 1 s with 8 s of work ends its task at 9 s, while the 4.5 s
    /// `applicationDidEnterBackground` begun at 6 s runs until 10.5 s.
    @Test func anUploadEndsOnTimeWhileDidEnterBackgroundWorks() throws {
        let run = try Scenario(json: """
            {"apps": [{"id": "com.example.mail", "behaviour": {"applicationDidEnterBackground": [{"do": "work", "for": 4.5}]}}],
             "events": [{"at": 0, "do": "open", "app": "com.example.mail"},
                        {"at": 1, "do": "beginTask", "app": "com.example.mail", "name": "upload", "work": 8},
                        {"at": 6, "do": "home"}],
             "end": 60}
            """).run()
        #expect(lines(run, app: "com.example.mail") { ["beginBackgroundTask", "endBackgroundTask", "stateChange"].contains($0) } == [
            "t=0.000s stateChange", "t=0.000s stateChange", "t=1.000s beginBackgroundTask",
            "t=6.000s stateChange", "t=6.000s stateChange", "t=9.000s endBackgroundTask", "t=10.500s stateChange",
        ])
    }

    /// A continued-processing export started at 6 s, 4 s of work in 4 steps, reports progress at 7, 8,
    /// 9 and 10 s and completes at 10 s, though the app's `applicationDidEnterBackground` (Home at 6 s)
    /// keeps the main queue busy until 10.5 s.
    @Test func anExportReportsProgressOnTimeWhileDidEnterBackgroundWorks() throws {
        let run = try Scenario(json: """
            {"apps": [{"id": "com.example.photos", "permittedTaskIdentifiers": ["com.example.photos.export.*"],
                       "behaviour": {"application:didFinishLaunchingWithOptions": [
                                        {"do": "registerTask", "identifier": "com.example.photos.export.*", "work": 4, "progress": 4}],
                                     "applicationDidEnterBackground": [{"do": "work", "for": 4.5}]}}],
             "events": [{"at": 0, "do": "open", "app": "com.example.photos"},
                        {"at": 6, "do": "submitTask", "app": "com.example.photos", "identifier": "com.example.photos.export.a",
                         "kind": "continuedProcessing"},
                        {"at": 6, "do": "home"}],
             "end": 60}
            """).run()
        #expect(lines(run, app: "com.example.photos") { $0.hasPrefix("task") } == [
            "t=0.000s taskRegistered", "t=6.000s taskSubmitted", "t=6.000s taskStarted", "t=6.000s taskProgress",
            "t=7.000s taskProgress", "t=8.000s taskProgress", "t=9.000s taskProgress", "t=10.000s taskProgress",
            "t=10.000s taskCompleted",
        ])
    }
}
