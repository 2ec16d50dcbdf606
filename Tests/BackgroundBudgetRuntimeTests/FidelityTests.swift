import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BudgetTime
import BackgroundBudgetTestKit

/// App code and the trace see only what iOS shows, with exact instants: the resume comes before any
/// code of the app at a wake or an open [S3]; off-main work is not held back by a busy main queue;
/// work addressed to an app that is not running is refused; a watchdog kill names the scene callback
/// it interrupted.
@Suite struct FidelityTests {
    let clock = VirtualClock()

    /// The app's entries from `from` on, by kind, without their instants.
    private func kinds(_ system: BackgroundSystem, _ app: AppID, from: BudgetInstant) -> [TraceEvent.Kind] {
        system.trace.events.filter { $0.app == app && $0.time >= from }.map(\.kind)
    }

    // MARK: 1. Resume before code

    /// Work queued while the app was suspended runs at a silent push's wake after the resume: the trace
    /// has the state change first, and the work reads `.background`, never `.suspended`.
    @Test func heldWorkRunsAfterTheResumeAtAWakeAndSeesTheBackground() throws {
        let system = BackgroundSystem(clock: clock)
        let seen = TestLog<ApplicationState>()
        let app = try system.install(AppManifest(id: "news", backgroundModes: [.remoteNotification]))
        try system.open(app)
        try system.pressHome()                                  // suspended at 0
        clock.advance(by: .seconds(10))
        app.async {
            seen.append(app.applicationState)
            app.recordBackgroundTimeRemaining()
        }
        #expect(seen.entries == [])
        #expect(system.deliver(.silentPush, to: app) == .delivered)
        #expect(seen.entries == [.background])
        let after = kinds(system, "news", from: .seconds(10))
        #expect(Array(after.prefix(3)) == [
            .stateChange(.background, cause: .wake(.remoteNotification)),
            .backgroundTimeRemainingRead(.seconds(30)),
            .callback(.didEnterBackground),
        ])
    }

    /// The same when the user opens the suspended app: resumed into the background, then the held work
    /// (which sees `.background`), then `applicationWillEnterForeground`.
    @Test func heldWorkRunsAfterTheResumeWhenTheUserOpensTheApp() throws {
        let system = BackgroundSystem(clock: clock)
        let seen = TestLog<ApplicationState>()
        let app = try system.install(AppManifest(id: "news"))
        try system.open(app)
        try system.pressHome()
        clock.advance(by: .seconds(10))
        app.async {
            seen.append(app.applicationState)
            app.recordBackgroundTimeRemaining()
        }
        try system.open(app)
        #expect(seen.entries == [.background])
        let after = kinds(system, "news", from: .seconds(10))
        #expect(Array(after.prefix(3)) == [
            .stateChange(.background, cause: .enterForeground),
            // The system has already decided the return to the foreground, where the time is unbounded.
            .backgroundTimeRemainingRead(nil),
            .callback(.willEnterForeground),
        ])
    }

    /// Code that ends the app's last background task and goes on running is not suspended under its
    /// feet: it reads `.background`, and the suspension is traced after what it did, at the same instant.
    @Test func codeThatEndsTheLastTaskRunsOnInARunningAppUntilItReturns() throws {
        let system = BackgroundSystem(clock: clock)
        let seen = TestLog<ApplicationState>()
        let app = try system.install(AppManifest(id: "mail"))
        try system.open(app)
        let task = app.beginBackgroundTask(withName: "upload")
        app.runLater(after: .seconds(4)) {
            app.endBackgroundTask(task)
            seen.append(app.applicationState)
            app.recordBackgroundTimeRemaining()
        }
        try system.pressHome()
        clock.advance(to: .seconds(10))
        #expect(seen.entries == [.background])
        #expect(Array(system.trace.events.filter { $0.app == "mail" }.suffix(3)) == [
            TraceEvent(time: .seconds(4), app: "mail", kind: .backgroundTaskEnded(task)),
            TraceEvent(time: .seconds(4), app: "mail", kind: .backgroundTimeRemainingRead(.seconds(26))),
            TraceEvent(time: .seconds(4), app: "mail", kind: .stateChange(.suspended, cause: .suspend(.backgroundTasksEnded))),
        ])
    }

    // MARK: 2. Background threads

    /// An upload begun at t = 1 with 8 s of work on a background thread ends its task at 9 s, though
    /// `applicationDidEnterBackground` (from 6 s) keeps the main queue busy until 10.5 s; the same
    /// work on the main queue (`runLater`) waits for the callback and ends at 10.5 s.
    @Test(arguments: [true, false])
    func anUploadOnABackgroundThreadIsNotHeldBackByABusyMainQueue(offMain: Bool) throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didEnterBackground) { $0.simulateWork(for: .milliseconds(4_500)) }
        let app = try system.install(AppManifest(id: "mail"), delegate: delegate)
        try system.open(app)
        clock.advance(to: .seconds(1))
        let task = app.beginBackgroundTask(withName: "upload")
        if offMain {
            app.runInBackground(after: .seconds(8)) { app.endBackgroundTask(task) }
        } else {
            app.runLater(after: .seconds(8)) { app.endBackgroundTask(task) }
        }
        clock.advance(to: .seconds(6))
        try system.pressHome()
        clock.advance(to: .seconds(60))
        #expect(system.trace.instants(of: .backgroundTaskEnded) == [offMain ? .seconds(9) : .milliseconds(10_500)])
    }

    /// Background-thread work is still the process's: held while the app is suspended, run when it
    /// runs again, and dropped with the process.
    @Test func backgroundThreadWorkIsFrozenWithTheAppAndDroppedWithItsProcess() throws {
        let system = BackgroundSystem(clock: clock)
        let log = TestLog<String>()
        let app = try system.install(AppManifest(id: "mail"))
        try system.open(app)
        app.runInBackground(after: .seconds(5)) { [clock] in log.append("first at \(clock.now)") }
        app.runInBackground(after: .seconds(50)) { [clock] in log.append("second at \(clock.now)") }
        try system.pressHome()                                  // suspended at 0
        clock.advance(to: .seconds(20))
        #expect(log.entries == [])
        try system.open(app)                                    // t = 20
        #expect(log.entries == ["first at t=20.000s"])
        try system.pressHome()
        try system.purge(app)
        clock.advance(to: .seconds(100))
        #expect(log.entries == ["first at t=20.000s"])
    }

    // MARK: 3. No process, no code

    /// Work addressed from outside to an app that is not running is refused: it never runs, not at
    /// once (as code of no process) and not at the next launch.
    @Test func workForAnAppThatIsNotRunningIsRefused() throws {
        let system = BackgroundSystem(clock: clock)
        let log = TestLog<String>()
        let app = try system.install(AppManifest(id: "mail"))
        app.async { log.append("async as \(Application.current?.id.rawValue ?? "nobody")") }
        app.runLater(after: .seconds(1)) { log.append("runLater") }
        app.runInBackground { log.append("background") }
        app.makeQueue(label: "io").async { log.append("queue") }
        clock.advance(to: .seconds(5))
        try system.open(app)
        clock.advance(to: .seconds(10))
        #expect(log.entries == [])
        // Once it runs, the same calls are accepted.
        app.async { log.append("async as \(Application.current?.id.rawValue ?? "nobody")") }
        #expect(log.entries == ["async as mail"])
        // And after it is killed, refused again.
        try system.pressHome()
        try system.purge(app)
        app.async { log.append("after the purge") }
        app.runLater(after: .seconds(1)) { log.append("runLater after the purge") }
        clock.advance(to: .seconds(20))
        try system.open(app)
        clock.advance(to: .seconds(30))
        #expect(log.entries == ["async as mail"])
    }

    // MARK: 4. Scene callbacks cut short

    /// A scene delegate whose `sceneDidEnterBackground` works 7 s is killed by the watchdog at its 5 s
    /// limit, and the trace names the callback it interrupted, as for an app delegate.
    @Test func aWatchdogKillRecordsTheSceneCallbackItInterrupted() throws {
        final class Slow: SceneDelegate, ApplicationDelegate {
            func sceneDidEnterBackground(_ scene: Scene) { scene.application.simulateWork(for: .seconds(7)) }
        }
        let system = BackgroundSystem(clock: clock)
        var manifest = AppManifest(id: "notes")
        manifest.sceneManifest = SceneManifest(supportsMultipleScenes: false)
        let slow = Slow()
        let app = try system.install(manifest, delegate: slow)
        app.sceneDelegate = slow
        try system.open(app)
        clock.advance(to: .seconds(2))
        try system.pressHome()
        clock.advance(to: .seconds(30))
        let tail = system.trace.events.filter { $0.app == "notes" }.suffix(3).map { "\($0.time) \($0.eventName)" }
        #expect(tail == ["t=7.000s exit", "t=7.000s killedMidSceneCallback", "t=7.000s stateChange"])
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(7), app: "notes",
                                                        kind: .killedMidSceneCallback(.didEnterBackground, scene: "scene-1"))))
    }
}
