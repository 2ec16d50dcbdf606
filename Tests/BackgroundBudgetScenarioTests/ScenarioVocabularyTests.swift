import BackgroundBudgetExplorer
import Testing
import BackgroundBudget
import BackgroundBudgetCore
import BackgroundBudgetScenario

/// The words issue 13 added to the scenario vocabulary: each decodes, refuses what it must with a
/// located error, and runs to exact trace entries.
@Suite struct ScenarioVocabularyTests {
    /// The error a text produces, as `line:column path: message`.
    func failure(_ text: String) -> String { decodingFailure(text) }

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

    // MARK: Cancelling task requests

    private static let photos = """
        {"id": "com.example.photos", "backgroundModes": ["fetch", "processing"],
         "permittedTaskIdentifiers": ["com.example.photos.refresh", "com.example.photos.index"],
         "behaviour": {"application:didFinishLaunchingWithOptions": [
            {"do": "registerTask", "identifier": "com.example.photos.refresh"},
            {"do": "registerTask", "identifier": "com.example.photos.index"},
            {"do": "submitTask", "identifier": "com.example.photos.refresh", "earliest": 600},
            {"do": "submitTask", "identifier": "com.example.photos.index", "kind": "processing"}],
          "applicationDidEnterBackground": [STEPS]}}
        """

    @Test func cancellingTaskRequestsDecodesAndIsLocated() throws {
        let scenario = try Scenario(json: """
            {"apps": [\(Self.photos.replacingOccurrences(of: "STEPS", with: #"{"do": "cancelTaskRequest", "identifier": "com.example.photos.index"}, {"do": "cancelAllTaskRequests"}"#))], "events": []}
            """)
        #expect(scenario.apps[0].behaviour.steps[.didEnterBackground] == [
            .cancelTaskRequest(identifier: "com.example.photos.index"), .cancelAllTaskRequests,
        ])
        let app = #"{"id": "a", "behaviour": {"applicationDidEnterBackground": [STEP]}}"#
        #expect(failure(#"{"apps": [\#(app.replacingOccurrences(of: "STEP", with: #"{"do": "cancelTaskRequest"}"#))], "events": []}"#)
            == #"1:71 $.apps[0].behaviour.applicationDidEnterBackground[0]: missing required key "identifier""#)
        #expect(failure(#"{"apps": [\#(app.replacingOccurrences(of: "STEP", with: #"{"do": "cancelAllTaskRequests", "identifier": "x"}"#))], "events": []}"#)
            == #"1:103 $.apps[0].behaviour.applicationDidEnterBackground[0].identifier: unknown key "identifier"; accepted: "do""#)
    }

    @Test func aCancelledRequestNeverRuns() throws {
        let one = try Scenario(json: """
            {"apps": [\(Self.photos.replacingOccurrences(of: "STEPS", with: #"{"do": "cancelTaskRequest", "identifier": "com.example.photos.refresh"}"#))],
             "events": [{"at": 0, "do": "open", "app": "com.example.photos"}, {"at": 10, "do": "home"},
                        {"at": 20, "do": "setDeviceIdle", "enabled": true}],
             "end": 3600}
            """).run()
        let tasks = one.trace.events.filter { $0.eventName.hasPrefix("task") }.map(\.jsonLine)
        #expect(tasks == [
            #"{"t":0.000,"app":"com.example.photos","event":"taskRegistered","name":"com.example.photos.refresh"}"#,
            #"{"t":0.000,"app":"com.example.photos","event":"taskRegistered","name":"com.example.photos.index"}"#,
            #"{"t":0.000,"app":"com.example.photos","event":"taskSubmitted","name":"com.example.photos.refresh"}"#,
            #"{"t":0.000,"app":"com.example.photos","event":"taskSubmitted","name":"com.example.photos.index"}"#,
            #"{"t":10.000,"app":"com.example.photos","event":"taskRequestCancelled","name":"com.example.photos.refresh"}"#,
            #"{"t":20.000,"app":"com.example.photos","event":"taskStarted","name":"com.example.photos.index"}"#,
            #"{"t":20.000,"app":"com.example.photos","event":"taskCompleted","name":"com.example.photos.index","reason":"success"}"#,
        ])
        let all = try Scenario(json: """
            {"apps": [\(Self.photos.replacingOccurrences(of: "STEPS", with: #"{"do": "cancelAllTaskRequests"}"#))],
             "events": [{"at": 0, "do": "open", "app": "com.example.photos"}, {"at": 10, "do": "home"},
                        {"at": 20, "do": "setDeviceIdle", "enabled": true}],
             "end": 3600}
            """).run()
        #expect(all.trace.events.filter { $0.eventName.hasPrefix("task") && $0.time > .zero }.map(\.jsonLine) == [
            #"{"t":10.000,"app":"com.example.photos","event":"taskRequestCancelled","name":"com.example.photos.refresh"}"#,
            #"{"t":10.000,"app":"com.example.photos","event":"taskRequestCancelled","name":"com.example.photos.index"}"#,
        ])
    }

    // MARK: Reading backgroundTimeRemaining

    @Test func readingTheRemainingTimeDecodesAndIsLocated() throws {
        let scenario = try Scenario(json: """
            {"apps": [{"id": "a", "behaviour": {"applicationDidEnterBackground": [{"do": "readBackgroundTimeRemaining"}]}}], "events": []}
            """)
        #expect(scenario.apps[0].behaviour.steps[.didEnterBackground] == [.readBackgroundTimeRemaining])
        #expect(failure(#"{"apps": [{"id": "a", "behaviour": {"applicationDidEnterBackground": [{"do": "readBackgroundTimeRemaining", "at": 1}]}}], "events": []}"#)
            == #"1:109 $.apps[0].behaviour.applicationDidEnterBackground[0].at: unknown key "at"; accepted: "do""#)
    }

    @Test func theTraceRecordsTheRemainingTimeWhereverTheAppReadsIt() throws {
        let run = try Scenario(json: """
            {"apps": [{"id": "com.example.news", "behaviour": {
                "applicationDidBecomeActive": [{"do": "readBackgroundTimeRemaining"}],
                "applicationDidEnterBackground": [{"do": "beginTask", "name": "save", "work": 12},
                                                  {"do": "readBackgroundTimeRemaining"}, {"do": "work", "for": 4},
                                                  {"do": "readBackgroundTimeRemaining"}]}}],
             "events": [{"at": 0, "do": "open", "app": "com.example.news"}, {"at": 10, "do": "home"}],
             "end": 60}
            """).run()
        #expect(run.trace.events.filter { $0.eventName == "backgroundTimeRemaining" }.map(\.jsonLine) == [
            #"{"t":0.000,"app":"com.example.news","event":"backgroundTimeRemaining","remaining":null}"#,
            #"{"t":10.000,"app":"com.example.news","event":"backgroundTimeRemaining","remaining":30.000}"#,
            #"{"t":14.000,"app":"com.example.news","event":"backgroundTimeRemaining","remaining":26.000}"#,
        ])
    }

    // MARK: Completing a silent push

    @Test func completingARemoteNotificationDecodesAndIsLocated() throws {
        let scenario = try Scenario(json: """
            {"apps": [{"id": "a", "behaviour": {"application:didReceive": [{"do": "completeRemoteNotification"}, {"do": "completeRemoteNotification", "result": "failed"}]}}], "events": []}
            """)
        #expect(scenario.apps[0].behaviour.onEvent == [.completeRemoteNotification(.newData), .completeRemoteNotification(.failed)])
        #expect(failure(#"{"apps": [{"id": "a", "behaviour": {"application:didReceive": [{"do": "completeRemoteNotification", "result": "never"}]}}], "events": []}"#)
            == #"1:111 $.apps[0].behaviour['application:didReceive'][0].result: unknown value "never"; accepted: "newData", "noData", "failed""#)
    }

    /// A suspended news app with the remote-notification mode gets a silent push at 20 s; it works
    /// 2 s in `application:didReceive`, then runs `steps`.
    private func push(_ steps: String) throws -> [String] {
        let run = try Scenario(json: """
            {"apps": [{"id": "com.example.news", "backgroundModes": ["remote-notification"],
                       "behaviour": {"application:didReceive": [{"do": "work", "for": 2}\(steps)]}}],
             "events": [{"at": 0, "do": "open", "app": "com.example.news"}, {"at": 10, "do": "home"},
                        {"at": 20, "do": "deliver", "app": "com.example.news", "event": "silentPush"}],
             "end": 60}
            """).run()
        return run.trace.events.filter { $0.time >= .seconds(20) }.map(\.jsonLine)
    }

    @Test func completingASilentPushEndsItsWindowAndSuspendsTheApp() throws {
        #expect(try push(#", {"do": "completeRemoteNotification", "result": "noData"}"#) == [
            #"{"t":20.000,"app":"com.example.news","event":"stateChange","state":"background","reason":"remoteNotification"}"#,
            #"{"t":20.000,"app":"com.example.news","event":"applicationDidEnterBackground"}"#,
            #"{"t":20.000,"app":"com.example.news","event":"eventWindowStarted","until":50.000}"#,
            #"{"t":20.000,"app":"com.example.news","event":"eventDelivered","name":"silentPush"}"#,
            #"{"t":22.000,"app":"com.example.news","event":"remoteNotificationCompleted","name":"noData"}"#,
            #"{"t":22.000,"app":"com.example.news","event":"stateChange","state":"suspended","reason":"eventWindowEnded"}"#,
        ])
        // Without the completion the app runs until the window runs out, and is terminated then [S63][S64].
        #expect(try push("").suffix(2) == [
            #"{"t":50.000,"app":"com.example.news","event":"exit","reason":"backgroundFetchNotCompleted","code":"0x2182bad4"}"#,
            #"{"t":50.000,"app":"com.example.news","event":"stateChange","state":"notRunning","reason":"backgroundFetchNotCompleted"}"#,
        ])
    }

    @Test func aCompletionOutsideAWindowIsRecordedAndChangesNothing() throws {
        let run = try Scenario(json: """
            {"apps": [{"id": "com.example.news", "behaviour": {"applicationDidBecomeActive": [{"do": "completeRemoteNotification"}]}}],
             "events": [{"at": 0, "do": "open", "app": "com.example.news"}], "end": 5}
            """).run()
        #expect(run.trace.events.map(\.jsonLine).suffix(2) == [
            #"{"t":0.000,"app":"com.example.news","event":"applicationDidBecomeActive"}"#,
            #"{"t":0.000,"app":"com.example.news","event":"remoteNotificationCompleted","name":"newData"}"#,
        ])
    }

    // MARK: The example

    @Test func theSilentPushExampleCancelsRequestsAndEndsOneWindowEarly() throws {
        let run = try ExampleScenarioTests.load("silent-push-completion.json").run()
        // News completes its push after 3 s and is suspended at 63 s; Mail never does and is terminated at 150 s (`0x2182bad4`).
        // Neither refresh, nor Mail's cleanup, runs once the device is idle.
        #expect(run.trace.events.filter { $0.time >= .seconds(60) }.map(\.jsonLine) == [
            #"{"t":60.000,"app":"com.example.news","event":"stateChange","state":"background","reason":"remoteNotification"}"#,
            #"{"t":60.000,"app":"com.example.news","event":"applicationDidEnterBackground"}"#,
            #"{"t":60.000,"app":"com.example.news","event":"eventWindowStarted","until":90.000}"#,
            #"{"t":60.000,"app":"com.example.news","event":"eventDelivered","name":"silentPush"}"#,
            #"{"t":63.000,"app":"com.example.news","event":"taskRequestCancelled","name":"com.example.news.refresh"}"#,
            #"{"t":63.000,"app":"com.example.news","event":"remoteNotificationCompleted","name":"newData"}"#,
            #"{"t":63.000,"app":"com.example.news","event":"stateChange","state":"suspended","reason":"eventWindowEnded"}"#,
            #"{"t":120.000,"app":"com.example.mail","event":"stateChange","state":"background","reason":"remoteNotification"}"#,
            #"{"t":120.000,"app":"com.example.mail","event":"applicationDidEnterBackground"}"#,
            #"{"t":120.000,"app":"com.example.mail","event":"eventWindowStarted","until":150.000}"#,
            #"{"t":120.000,"app":"com.example.mail","event":"eventDelivered","name":"silentPush"}"#,
            #"{"t":123.000,"app":"com.example.mail","event":"taskRequestCancelled","name":"com.example.mail.refresh"}"#,
            #"{"t":123.000,"app":"com.example.mail","event":"taskRequestCancelled","name":"com.example.mail.cleanup"}"#,
            #"{"t":150.000,"app":"com.example.mail","event":"exit","reason":"backgroundFetchNotCompleted","code":"0x2182bad4"}"#,
            #"{"t":150.000,"app":"com.example.mail","event":"stateChange","state":"notRunning","reason":"backgroundFetchNotCompleted"}"#,
            #"{"t":3000.000,"app":"(device)","event":"deviceChanged","name":"idle","value":"on"}"#,
        ])
    }

    // MARK: Stopping what the app started

    /// A maps app monitors significant changes and two regions and installs a keep-alive handler at
    /// launch; in the background it runs `stops`. Events at 20, 30 and 40 s.
    private func maps(stops: String) throws -> ScenarioRun {
        try Scenario(json: """
            {"apps": [{"id": "com.example.maps", "backgroundModes": ["location", "voip"],
                       "behaviour": {"application:didFinishLaunchingWithOptions": [{"do": "monitorSignificantChanges"},
                                        {"do": "monitorRegion", "region": "home"}, {"do": "monitorRegion", "region": "work"},
                                        {"do": "setKeepAlive", "interval": 600}],
                                     "applicationDidEnterBackground": [\(stops)]}}],
             "events": [{"at": 0, "do": "open", "app": "com.example.maps"}, {"at": 10, "do": "home"},
                        {"at": 20, "do": "deliver", "app": "com.example.maps", "event": "significantLocationChange"},
                        {"at": 30, "do": "deliver", "app": "com.example.maps", "event": "regionBoundary", "region": "home"},
                        {"at": 40, "do": "deliver", "app": "com.example.maps", "event": "regionBoundary", "region": "work"}],
             "end": 1300}
            """).run()
    }

    @Test func stoppingMonitoringAndTheKeepAliveDecodesAndIsLocated() throws {
        let scenario = try Scenario(json: """
            {"apps": [{"id": "a", "behaviour": {"applicationDidEnterBackground": [{"do": "stopMonitoringSignificantChanges"}, {"do": "stopMonitoringRegion", "region": "home"}, {"do": "clearKeepAlive"}]}}], "events": []}
            """)
        #expect(scenario.apps[0].behaviour.steps[.didEnterBackground] == [.stopMonitoringSignificantChanges, .stopMonitoringRegion("home"), .clearKeepAlive])
        #expect(failure(#"{"apps": [{"id": "a", "behaviour": {"applicationDidEnterBackground": [{"do": "stopMonitoringRegion"}]}}], "events": []}"#)
            == #"1:71 $.apps[0].behaviour.applicationDidEnterBackground[0]: missing required key "region""#)
    }

    @Test func stoppedMonitoringDropsItsEventsAndAClearedKeepAliveNeverRuns() throws {
        let stopped = try maps(stops: #"{"do": "stopMonitoringSignificantChanges"}, {"do": "stopMonitoringRegion", "region": "home"}, {"do": "clearKeepAlive"}"#)
        #expect(stopped.trace.events.filter { $0.time >= .seconds(20) }.map(\.jsonLine) == [
            #"{"t":20.000,"app":"com.example.maps","event":"eventDropped","name":"significantLocationChange","reason":"notMonitoring"}"#,
            #"{"t":30.000,"app":"com.example.maps","event":"eventDropped","name":"regionBoundary(home)","reason":"notMonitoring"}"#,
            #"{"t":40.000,"app":"com.example.maps","event":"stateChange","state":"background","reason":"location"}"#,
            #"{"t":40.000,"app":"com.example.maps","event":"applicationDidEnterBackground"}"#,
            #"{"t":40.000,"app":"com.example.maps","event":"eventWindowStarted","until":50.000}"#,
            #"{"t":40.000,"app":"com.example.maps","event":"eventDelivered","name":"regionBoundary(work)"}"#,
            #"{"t":50.000,"app":"com.example.maps","event":"stateChange","state":"suspended","reason":"eventWindowEnded"}"#,
        ])
        // Without clearKeepAlive the handler runs every 600 s.
        let kept = try maps(stops: #"{"do": "stopMonitoringSignificantChanges"}"#)
        #expect(kept.trace.events.filter { $0.eventName == "keepAliveHandler" }.map(\.time) == [.seconds(600), .seconds(1_200)])
    }
}
