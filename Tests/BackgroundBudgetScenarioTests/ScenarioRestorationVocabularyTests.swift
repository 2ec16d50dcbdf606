import BackgroundBudgetExplorer
import Testing
import BackgroundBudget
import BackgroundBudgetCore
@testable import BackgroundBudgetScenario
import BudgetClock

/// The scenario word for what a scene hands back for state restoration (`stateRestorationActivity`
/// in `behaviour`): it decodes, refuses bad input with a located error, and the scenario's scene
/// delegate hands it to the system, which gives it back when the scene reconnects [S76].
@Suite struct ScenarioRestorationVocabularyTests {
    /// A scene-based notes app whose behaviour carries `activity` as its restoration activity.
    static func scenario(_ activity: String) -> String {
        """
        {"apps": [{"id": "com.example.notes", "scenes": "single",
                   "behaviour": {"stateRestorationActivity": \(activity)}}],
         "events": []}
        """
    }

    /// The error a text produces, as `line:column path: message`.
    func failure(_ text: String) -> String { decodingFailure(text) }

    @Test func theActivityDecodesWithItsUserInfo() throws {
        let scenario = try Scenario(json: Self.scenario(#"{"activityType": "com.example.notes.editing", "userInfo": {"note": "42"}}"#))
        #expect(scenario.apps[0].behaviour.restorationActivity
                == UserActivity(activityType: "com.example.notes.editing", userInfo: ["note": "42"]))
        let bare = try Scenario(json: Self.scenario(#"{"activityType": "com.example.notes.list"}"#))
        #expect(bare.apps[0].behaviour.restorationActivity == UserActivity(activityType: "com.example.notes.list"))
        #expect(try Scenario(json: #"{"apps": [{"id": "a"}], "events": []}"#).apps[0].behaviour.restorationActivity == nil)
    }

    @Test func badActivitiesAreLocatedErrors() {
        #expect(failure(Self.scenario(#"{"userInfo": {}}"#)).hasSuffix(#"$.apps[0].behaviour.stateRestorationActivity: missing required key "activityType""#))
        #expect(failure(Self.scenario(#"{"activityType": "x", "title": "y"}"#)).contains(#"$.apps[0].behaviour.stateRestorationActivity.title: unknown key "title""#))
        #expect(failure(Self.scenario(#"{"activityType": "x", "userInfo": {"note": 42}}"#))
            .hasSuffix("$.apps[0].behaviour.stateRestorationActivity.userInfo.note: expected a string, found a number"))
        #expect(failure(Self.scenario(#"{"activityType": "x", "userInfo": ["note"]}"#))
            .hasSuffix("$.apps[0].behaviour.stateRestorationActivity.userInfo: expected an object, found an array"))
        #expect(failure(Self.scenario(#""editing""#)).hasSuffix("$.apps[0].behaviour.stateRestorationActivity: expected an object, found a string"))
    }

    /// Records the session each connecting scene gets, then lets the scenario's delegate answer.
    final class Recorder: SceneDelegate {
        let base: ScenarioDelegate
        let sessions = LockedValue<[SceneSession]>([])
        init(_ base: ScenarioDelegate) { self.base = base }
        func scene(_ scene: Scene, willConnectTo session: SceneSession) { sessions.withLock { $0.append(session) } }
        func stateRestorationActivity(for scene: Scene) -> UserActivity? { base.stateRestorationActivity(for: scene) }
    }

    @Test func theSystemHandsTheActivityBackWhenTheReclaimedSceneReconnects() throws {
        let scenario = try Scenario(json: Self.scenario(#"{"activityType": "com.example.notes.editing", "userInfo": {"note": "42"}}"#))
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let delegate = ScenarioDelegate(scenario.apps[0].behaviour)
        let notes = try system.install(scenario.apps[0].manifest, delegate: delegate)
        let recorder = Recorder(delegate)
        notes.sceneDelegate = recorder
        try system.open(notes)
        try system.pressHome()
        try system.reclaimScene(SceneID(rawValue: "scene-1"), of: notes)
        try system.open(notes)
        let sessions = recorder.sessions.withLock { $0 }
        #expect(sessions.map(\.persistentIdentifier) == [SceneID(rawValue: "scene-1"), SceneID(rawValue: "scene-1")])
        #expect(sessions.map(\.stateRestorationActivity) == [nil, UserActivity(activityType: "com.example.notes.editing", userInfo: ["note": "42"])])
    }
}
