import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock

/// The wake rules for a scene-based app: woken from suspension for a refresh, it gets the task and no
/// callback of its scene, nor `applicationDidEnterBackground`, which its scenes replace [S10] (that a
/// wake calls no scene callback is the model's assumption: Apple documents scene callbacks for a
/// scene's own moves, and a wake moves none).
@Suite struct SceneWakeTests {
    static let refresh = "com.example.notes.refresh"

    final class Notes: ApplicationDelegate, SceneDelegate {
        let log = TestLog<String>()

        func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
            application.register(forTaskWithIdentifier: SceneWakeTests.refresh) { [log] task in
                log.append("task")
                task.setTaskCompleted(success: true)
            }
        }
        func applicationDidEnterBackground(_ application: Application) { log.append("applicationDidEnterBackground") }
        func sceneDidEnterBackground(_ scene: Scene) {
            log.append("sceneDidEnterBackground")
            try? scene.application.submit(TaskRequest(identifier: SceneWakeTests.refresh, kind: .appRefresh))
        }
        func sceneWillEnterForeground(_ scene: Scene) { log.append("sceneWillEnterForeground") }
        func scene(_ scene: Scene, willConnectTo session: SceneSession) { log.append("willConnect") }
    }

    @Test func aSceneBasedAppWokenForARefreshGetsTheTaskAndNoSceneCallback() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let notes = Notes()
        var manifest = AppManifest(id: "com.example.notes", backgroundModes: [.fetch], permittedTaskIdentifiers: [Self.refresh])
        manifest.sceneManifest = SceneManifest()
        let app = try system.install(manifest, delegate: notes)
        app.sceneDelegate = notes
        try system.open(app)
        try system.pressHome()
        #expect(app.applicationState == .suspended)
        let before = notes.log.entries
        clock.advance(by: .seconds(1_000))           // the refresh is due at 900 s
        #expect(system.trace.events(of: .taskStarted).map(\.time) == [.seconds(900)])
        #expect(system.trace.events(of: .stateChange).filter { $0.time == .seconds(900) }.map(\.reason) == ["backgroundTask", "scheduledTaskCompleted"])
        #expect(Array(notes.log.entries.dropFirst(before.count)) == ["task"])
        #expect(system.trace.events.filter { $0.time == .seconds(900) && $0.kind.tag == .sceneCallback }.isEmpty)
        #expect(app.applicationState == .suspended)
    }
}
