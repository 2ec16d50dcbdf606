import Testing
@testable import BackgroundBudget
@testable import BackgroundBudgetCore
@testable import BackgroundBudgetScenario
@testable import BudgetClock

/// The words issue 13 added to the scenario vocabulary: each decodes, refuses what it must with a
/// located error, and runs to exact trace entries.
@Suite struct ScenarioVocabularyTests {
    /// The error a text produces, as `line:column path: message`.
    private func failure(_ text: String) -> String {
        do {
            _ = try Scenario(json: text)
            return "decoded"
        } catch {
            return "\(error.position.map(\.description) ?? "-") \(error.path): \(error.message)"
        }
    }

    /// The trace of a run as JSON Lines, for one app (or the device) only.
    private func lines(_ run: ScenarioRun, of app: AppID) -> [String] {
        run.trace.events.filter { $0.app == app }.map(\.jsonLine)
    }

    // MARK: Fetch results

    @Test func aFetchResultOfNeverDecodesAsACompletionNeverCalled() throws {
        func fetch(_ result: String?) throws -> ScenarioFetch? {
            let key = result.map { "\"result\": \"" + $0 + "\", " } ?? ""
            let scenario = try Scenario(json: """
                {"apps": [{"id": "com.example.news", "behaviour": {"application:performFetchWithCompletionHandler": {\(key)"work": 2}}}],
                 "events": []}
                """)
            return scenario.apps[0].behaviour.fetch
        }
        #expect(try fetch("never") == ScenarioFetch(result: nil, work: .seconds(2)))
        #expect(try fetch(nil) == ScenarioFetch(result: .newData, work: .seconds(2)))
        #expect(try fetch("noData") == ScenarioFetch(result: .noData, work: .seconds(2)))
        #expect(failure(#"{"apps": [{"id": "a", "behaviour": {"application:performFetchWithCompletionHandler": {"result": "later"}}}], "events": []}"#)
            == #"1:97 $.apps[0].behaviour['application:performFetchWithCompletionHandler'].result: unknown value "later"; accepted: "newData", "noData", "failed", "never""#)
    }

    @Test func aFetchThatNeverCompletesIsKilledWhenItsRuntimeEnds() throws {
        let run = try Scenario(json: """
            {"policy": {"preset": "iOS13", "overrides": {"fetchSeed": 7}},
             "apps": [{"id": "com.example.news", "backgroundModes": ["fetch"],
                       "behaviour": {"application:didFinishLaunchingWithOptions": [{"do": "setFetchInterval", "interval": "minimum"}],
                                     "application:performFetchWithCompletionHandler": {"result": "never"}}}],
             "events": [{"at": 0, "do": "open", "app": "com.example.news"}, {"at": 10, "do": "home"}],
             "end": 86400}
            """).run()
        let events = run.trace.events
        let start = try #require(events.first { $0.kind == .fetchStarted })
        #expect(!events.contains { $0.eventName == "fetchCompleted" })
        let exit = try #require(events.first { $0.eventName == "exit" })
        #expect(exit.reason == "backgroundFetchNotCompleted")
        #expect(exit.time == start.time + BudgetPolicy.iOS13.fetchRuntime)
    }

    // MARK: Background App Refresh restricted

    @Test func restrictingBackgroundAppRefreshDecodesAndIsLocated() throws {
        let scenario = try Scenario(json: """
            {"apps": [{"id": "com.example.news"}],
             "events": [{"at": 1, "do": "setBackgroundAppRefreshRestricted", "restricted": true}]}
            """)
        #expect(scenario.events[0].action == .setBackgroundAppRefreshRestricted(true))
        #expect(scenario.events[0].action.app == nil)
        #expect(failure(#"{"apps": [], "events": [{"at": 1, "do": "setBackgroundAppRefreshRestricted"}]}"#)
            == #"1:25 $.events[0]: missing required key "restricted""#)
        #expect(failure(#"{"apps": [], "events": [{"at": 1, "do": "setBackgroundAppRefreshRestricted", "restricted": "yes"}]}"#)
            == "1:92 $.events[0].restricted: expected true or false, found a string")
        #expect(failure(#"{"apps": [], "events": [{"at": 1, "do": "setBackgroundAppRefreshRestricted", "enabled": true}]}"#)
            == #"1:78 $.events[0].enabled: unknown key "enabled"; accepted: "at", "do", "restricted""#)
    }

    @Test func aRestrictedDeviceDropsSilentPushesUntilItIsLifted() throws {
        let run = try Scenario(json: """
            {"apps": [{"id": "com.example.news", "backgroundModes": ["remote-notification"]}],
             "events": [{"at": 0, "do": "open", "app": "com.example.news"}, {"at": 10, "do": "home"},
                        {"at": 20, "do": "setBackgroundAppRefreshRestricted", "restricted": true},
                        {"at": 30, "do": "deliver", "app": "com.example.news", "event": "silentPush"},
                        {"at": 40, "do": "setBackgroundAppRefreshRestricted", "restricted": false}],
             "end": 50}
            """).run()
        #expect(lines(run, of: .device) == [
            #"{"t":20.000,"app":"(device)","event":"deviceChanged","name":"backgroundAppRefreshRestricted","value":"on"}"#,
            #"{"t":40.000,"app":"(device)","event":"deviceChanged","name":"backgroundAppRefreshRestricted","value":"off"}"#,
        ])
        #expect(run.trace.events.contains { $0.kind == .eventDropped(.silentPush, .backgroundAppRefreshOff) && $0.time == .seconds(30) })
    }
}
