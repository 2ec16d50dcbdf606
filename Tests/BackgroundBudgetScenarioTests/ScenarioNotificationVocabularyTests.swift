import BackgroundBudgetExplorer
import Testing
import BackgroundBudget
import BackgroundBudgetCore
import BackgroundBudgetScenario
import BudgetClock

/// A scenario app observes a lifecycle notification as a delegate callback: a behaviour key spelled
/// as the notification's name, whose steps run each time it is posted, at the instant the *Lifecycle
/// rules* article lists, in app-delegate and scene-based apps.
@Suite struct ScenarioNotificationVocabularyTests {
    static func run(scenes: Bool) throws -> [String] {
        try Scenario(json: """
            {"apps": [{"id": "wallet", \(scenes ? #""scenes": "single", "# : "")"behaviour": {
                "UIApplicationWillResignActiveNotification": [{"do": "beginTask", "name": "flush", "work": 3}]}}],
             "events": [{"at": 0, "do": "open", "app": "wallet"}, {"at": 10, "do": "home"}], "end": 60}
            """).run().trace.events.filter { $0.time >= .seconds(10) && ![.stateChange, .allowanceStarted].contains($0.kind.tag) }.map(\.jsonLine)
    }

    @Test func theObserverRunsRightAfterWillResignActiveInBothKindsOfApp() throws {
        let sceneless = try Self.run(scenes: false)
        #expect(sceneless.prefix(3) == [
            #"{"t":10.000,"app":"wallet","event":"applicationWillResignActive"}"#,
            #"{"t":10.000,"app":"wallet","event":"beginBackgroundTask","task":1,"name":"flush"}"#,
            #"{"t":10.000,"app":"wallet","event":"notificationObserved","name":"UIApplicationWillResignActiveNotification","count":1}"#,
        ])
        let scenes = try Self.run(scenes: true)
        #expect(scenes.prefix(3) == [
            #"{"t":10.000,"app":"wallet","event":"sceneWillResignActive","name":"scene-1"}"#,
            #"{"t":10.000,"app":"wallet","event":"beginBackgroundTask","task":1,"name":"flush"}"#,
            #"{"t":10.000,"app":"wallet","event":"notificationObserved","name":"UIApplicationWillResignActiveNotification","count":1}"#,
        ])
        #expect(sceneless.contains(#"{"t":13.000,"app":"wallet","event":"endBackgroundTask","task":1}"#))
    }

    @Test func theKeysDecodeAndAnUnknownNotificationIsRefusedWithTheAcceptedKeys() throws {
        let scenario = try Scenario(json: #"""
            {"apps": [{"id": "a", "behaviour": {"NSProcessInfoPowerStateDidChangeNotification": [{"do": "work", "for": 1}]}}], "events": []}
            """#)
        #expect(scenario.apps[0].behaviour.observed.keys.map(\.rawValue) == ["NSProcessInfoPowerStateDidChangeNotification"])
        let failure = decodingFailure(#"{"apps": [{"id": "a", "behaviour": {"UIApplicationDidExplodeNotification": []}}], "events": []}"#)
        #expect(failure.hasPrefix("1:37 $.apps[0].behaviour.UIApplicationDidExplodeNotification: unknown key \"UIApplicationDidExplodeNotification\""),
                "\(failure)")
    }
}
