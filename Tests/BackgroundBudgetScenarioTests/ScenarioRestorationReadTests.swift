import BackgroundBudgetExplorer
import Testing
import BackgroundBudgetCore
@testable import BackgroundBudgetScenario

/// The `readRestorationActivity` step: a scene's code reads what its session carries for state
/// restoration, so a trace shows the activity the scene handed back come back when it reconnects
/// [S76]; outside a scene callback the step is refused with a located error.
@Suite struct ScenarioRestorationReadTests {
    static let read = #"{"do": "readRestorationActivity"}"#

    /// A single-scene notes app that reads its session as each scene connects, with `behaviour` keys
    /// added: opened at 0, Home at 5, purged at 10, opened again at 20.
    static func scenario(_ behaviour: String, scenes: Bool = true) -> String {
        """
        {"apps": [{"id": "com.example.notes"\(scenes ? #", "scenes": "single""# : ""),
                   "behaviour": {"scene:willConnectToSession:options": [\(read)]\(behaviour)}}],
         "events": [{"at": 0, "do": "open", "app": "com.example.notes"}, {"at": 5, "do": "home"},
                    {"at": 10, "do": "purge", "app": "com.example.notes"}, {"at": 20, "do": "open", "app": "com.example.notes"}],
         "end": 30}
        """
    }

    /// The app's `restorationActivityRead` entries, as JSON Lines.
    static func reads(_ json: String) throws -> [String] {
        try Scenario(json: json).run().trace.events(of: .restorationActivityRead).map(\.jsonLine)
    }

    @Test func theStepDecodesInSceneCallbacks() throws {
        let scenario = try Scenario(json: Self.scenario(#", "sceneDidDisconnect": [\#(Self.read)], "applicationDidBecomeActive": [\#(Self.read)]"#))
        let behaviour = scenario.apps[0].behaviour
        #expect(behaviour.sceneSteps == [.willConnect: [.readRestorationActivity], .didDisconnect: [.readRestorationActivity]])
        #expect(behaviour.steps[.didBecomeActive] == [.readRestorationActivity])
    }

    @Test func theActivityHandedBackInTheBackgroundIsReadAtReconnectAfterAPurge() throws {
        let lines = try Self.reads(Self.scenario(#", "stateRestorationActivity": {"activityType": "com.example.notes.editing", "userInfo": {"note": "42"}}, "applicationDidEnterBackground": [\#(Self.read)]"#))
        #expect(lines == [
            // The first connection restores nothing.
            #"{"t":0.000,"app":"com.example.notes","event":"restorationActivityRead","name":"scene-1","activityType":null}"#,
            // The system asks for the activity after sceneDidEnterBackground returns: not yet in the session.
            #"{"t":5.000,"app":"com.example.notes","event":"restorationActivityRead","name":"scene-1","activityType":null}"#,
            // The purged app's scene reconnects with what it handed back.
            #"{"t":20.000,"app":"com.example.notes","event":"restorationActivityRead","name":"scene-1","activityType":"com.example.notes.editing"}"#,
        ])
    }

    @Test func aSceneThatHandedBackNothingReadsNone() throws {
        let lines = try Self.reads(Self.scenario(""))
        #expect(lines == [
            #"{"t":0.000,"app":"com.example.notes","event":"restorationActivityRead","name":"scene-1","activityType":null}"#,
            #"{"t":20.000,"app":"com.example.notes","event":"restorationActivityRead","name":"scene-1","activityType":null}"#,
        ])
    }

    @Test func theLogLineAndTheTimelineShowTheRead() throws {
        let run = try Scenario(json: Self.scenario(#", "stateRestorationActivity": {"activityType": "com.example.notes.editing"}"#)).run()
        let reads = run.trace.events(of: .restorationActivityRead)
        #expect(reads.last?.description == #"t=20.000s com.example.notes restorationActivityRead name="scene-1" activityType="com.example.notes.editing""#)
        #expect(TimelineMark(reads[0].kind) == .request)
    }

    @Test func theStepOutsideASceneCallbackIsALocatedError() {
        let outside = #""readRestorationActivity" reads the scene whose callback runs it"#
        // An app-delegate-only callback of a scene-based app.
        let launch = decodingFailure(Self.scenario(#", "application:didFinishLaunchingWithOptions": [{"do": "work", "for": 1}, \#(Self.read)]"#))
        #expect(launch.hasPrefix("2:"))
        #expect(launch.contains("$.apps[0].behaviour.application:didFinishLaunchingWithOptions[1]: " + outside))
        // A foreground callback of an app without scenes, where no scene runs it.
        #expect(decodingFailure(Self.scenario("", scenes: false)).contains("$.apps[0].behaviour.scene:willConnectToSession:options[0]: " + outside))
        // The app's later code, a system event, a notification observer.
        #expect(decodingFailure(Self.scenario(#", "applicationDidEnterBackground": [{"do": "task", "sleep": 1, "then": [\#(Self.read)]}]"#))
            .contains("$.apps[0].behaviour.applicationDidEnterBackground[0].then[0]: " + outside))
        #expect(decodingFailure(Self.scenario(#", "application:didReceive": [\#(Self.read)]"#))
            .contains("$.apps[0].behaviour.application:didReceive[0]: " + outside))
        #expect(decodingFailure(Self.scenario(#", "UIApplicationDidEnterBackgroundNotification": [\#(Self.read)]"#))
            .contains("$.apps[0].behaviour.UIApplicationDidEnterBackgroundNotification[0]: " + outside))
        // Bad input to the step itself.
        #expect(decodingFailure(Self.scenario(#", "applicationDidBecomeActive": [{"do": "readRestorationActivity", "scene": "scene-1"}]"#))
            .contains(#"$.apps[0].behaviour.applicationDidBecomeActive[0].scene: unknown key "scene""#))
        #expect(decodingFailure(Self.scenario(#", "sceneDidDisconnect": {"do": "readRestorationActivity"}"#))
            .hasSuffix("$.apps[0].behaviour.sceneDidDisconnect: expected an array, found an object"))
    }

    @Test func aScenarioBuiltInCodeIsValidatedToo() throws {
        var behaviour = ScenarioBehaviour([.willTerminate: [.readRestorationActivity]])
        behaviour.sceneSteps[.willConnect] = [.readRestorationActivity]
        let app = ScenarioApp(AppManifest(id: "com.example.notes"), behaviour: behaviour)
        func firstProblem(_ app: ScenarioApp) -> String? {
            do { try Scenario(apps: [app], events: []).validate() } catch { return error.path }
            return nil
        }
        #expect(firstProblem(app) == "$.apps[0].behaviour.applicationWillTerminate[0]")
        behaviour.steps = [:]
        // No scenes in the manifest: the scene-only callback never runs, so it cannot read.
        #expect(firstProblem(ScenarioApp(AppManifest(id: "com.example.notes"), behaviour: behaviour))
                == "$.apps[0].behaviour.scene:willConnectToSession:options[0]")
        var sceneBased = AppManifest(id: "com.example.notes")
        sceneBased.sceneManifest = SceneManifest(supportsMultipleScenes: false)
        #expect(firstProblem(ScenarioApp(sceneBased, behaviour: behaviour)) == nil)
    }
}
