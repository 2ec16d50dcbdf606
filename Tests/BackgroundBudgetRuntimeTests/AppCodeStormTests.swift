import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BudgetTime

/// What app code sees in random storms on the virtual clock: every piece of app code (callbacks, main-queue
/// work, `runLater`, background-thread work, made queues, task handlers, work sent from outside) runs
/// as code of a running process of its own app, reads a state UIKit shows to running code, and every
/// trace entry it makes lies inside a running interval of its app's process [S1][S3][S4].
///
/// The quick suite runs a few thousand events; `BGBUDGET_LONG_TESTS=1` runs more than a million
/// (`BGBUDGET_SEED` replays a day's seed; `BGBUDGET_STORM_DUMP=1` prints the 40 s of trace before
/// the first entry found outside a running interval).
@Suite struct AppCodeStormTests {
    /// What app code observed, and what went wrong.
    final class Probe: Sendable {
        let runs = TestLog<UInt8>()
        let problems = TestLog<String>()

        /// Called in every piece of app code of `app`.
        func check(_ app: Application, _ what: String) {
            let state = app.applicationState
            let current = Application.current
            runs.append(0)
            if current !== app { problems.append("\(what) of \(app.id) ran as \(current?.id.rawValue ?? "no app's code")") }
            if state == .suspended || state == .notRunning { problems.append("\(what) of \(app.id) read \(state)") }
        }
    }

    /// A delegate for app and scene callbacks whose code does random app work, drawn from its own
    /// seeded generator (the storm's order is deterministic on the virtual clock).
    final class StormDelegate: ApplicationDelegate, SceneDelegate {
        let probe: Probe
        let seed: UInt64
        let clock: VirtualClock
        /// How many rolls were made: each draws from a generator seeded by it, the seed and the instant.
        let rolls = TestLog<UInt8>()

        init(probe: Probe, seed: UInt64, clock: VirtualClock) {
            self.probe = probe
            self.seed = seed
            self.clock = clock
        }

        func roll(_ bound: UInt64) -> UInt64 {
            rolls.append(0)
            var random = SplitMix64(seed: seed &+ UInt64(rolls.entries.count) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(clock.now.nanoseconds))
            return random.next(below: bound)
        }
        func delay() -> Duration { .milliseconds(Int64(roll(40_000))) }

        /// Random app work from a piece of app code.
        func work(_ app: Application, _ what: String) {
            probe.check(app, what)
            app.recordBackgroundTimeRemaining()
            switch roll(9) {
            case 0:
                let task = app.beginBackgroundTask(withName: what) { [weak app] in app.map { self.probe.check($0, "expiration") } }
                app.runInBackground(after: delay()) {
                    self.probe.check(app, "upload")
                    app.endBackgroundTask(task)
                    // Still running after its last task ended: suspended only once this returns.
                    self.probe.check(app, "upload (after its end)")
                    app.recordBackgroundTimeRemaining()
                }
            case 1:
                let task = app.beginBackgroundTask(withName: what)
                app.runLater(after: delay()) {
                    self.probe.check(app, "runLater")
                    app.endBackgroundTask(task)
                    self.probe.check(app, "runLater (after its end)")
                    app.recordBackgroundTimeRemaining()
                }
            case 2: app.async { self.probe.check(app, "async"); app.recordBackgroundTimeRemaining() }
            case 3: app.makeQueue(label: "io").asyncAfter(delay()) { self.probe.check(app, "queue"); app.recordBackgroundTimeRemaining() }
            case 4: app.simulateWork(for: .milliseconds(Int64(roll(7_000))))
            case 5: try? app.taskScheduler.submit(AppRefreshTaskRequest(identifier: "refresh"))
            case 6: app.runInBackground { self.probe.check(app, "background"); app.recordBackgroundTimeRemaining() }
            default: break
            }
            probe.check(app, what + " (end)")
        }

        func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions) {
            work(application, "willFinishLaunching")
        }
        func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
            application.taskScheduler.register(forTaskWithIdentifier: "refresh") { task in
                self.probe.check(application, "refresh")
                application.runInBackground(after: self.delay()) {
                    self.probe.check(application, "refresh work")
                    task.setTaskCompleted(success: true)
                }
            }
            work(application, "didFinishLaunching")
        }
        func applicationDidBecomeActive(_ application: Application) { work(application, "didBecomeActive") }
        func applicationWillResignActive(_ application: Application) { work(application, "willResignActive") }
        func applicationDidEnterBackground(_ application: Application) { work(application, "didEnterBackground") }
        func applicationWillEnterForeground(_ application: Application) { work(application, "willEnterForeground") }
        func applicationWillTerminate(_ application: Application) { work(application, "willTerminate") }
        func application(_ application: Application, didReceive event: BackgroundEvent) { work(application, "event") }
        func application(_ application: Application,
                         performFetchWithCompletionHandler completionHandler: @escaping @Sendable (BackgroundFetchResult) -> Void) {
            probe.check(application, "fetch")
            application.runInBackground(after: delay()) { completionHandler(.newData) }
        }
        func sceneWillEnterForeground(_ scene: Scene) { work(scene.application, "sceneWillEnterForeground") }
        func sceneDidBecomeActive(_ scene: Scene) { work(scene.application, "sceneDidBecomeActive") }
        func sceneWillResignActive(_ scene: Scene) { work(scene.application, "sceneWillResignActive") }
        func sceneDidEnterBackground(_ scene: Scene) { work(scene.application, "sceneDidEnterBackground") }
    }

    /// Trace entries only app code makes in a storm.
    static func isAppCodeEntry(_ kind: TraceEvent.Kind) -> Bool {
        switch kind {
        case .backgroundTimeRemainingRead, .backgroundTaskBegan, .backgroundTaskDenied, .backgroundTaskEnded,
             .backgroundTaskEndIgnored, .taskRegistered, .taskSubmitted, .taskSubmitRejected, .taskCompleted,
             .fetchCompleted, .callback, .sceneCallback:
            return true
        default:
            return false
        }
    }

    /// The entries of app code that lie outside a running interval of their app's process: after a
    /// state change to suspended or not running, or after an exit, and before the next one to a
    /// running state.
    static func entriesOutsideRunningIntervals(_ trace: Trace) -> [TraceEvent] {
        var running: [AppID: Bool] = [:]
        var outside: [TraceEvent] = []
        for event in trace.events {
            switch event.kind {
            case .stateChange(let state, _): running[event.app] = state != .suspended && state != .notRunning
            case .exit: running[event.app] = false
            default: if isAppCodeEntry(event.kind), running[event.app] != true { outside.append(event) }
            }
        }
        return outside
    }

    /// Runs `runs` storms of `length` random events each from `seed`; returns the events run, the
    /// pieces of app code checked, and the problems found.
    static func storm(seed: UInt64, runs: Int, length: Int) throws -> (events: Int, code: Int, problems: [String]) {
        var random = SplitMix64(seed: seed)
        var events = 0
        var problems: [String] = []
        var code = 0
        for run in 0..<runs {
            let clock = VirtualClock()
            let system = BackgroundSystem(clock: clock)
            let probe = Probe()
            var apps: [Application] = []
            for (index, name) in ["mail", "news", "notes"].enumerated() {
                var manifest = AppManifest(id: AppID(rawValue: name), backgroundModes: [.remoteNotification, .fetch, .location],
                                           permittedTaskIdentifiers: ["refresh"])
                if name == "notes" { manifest.sceneManifest = SceneManifest(supportsMultipleScenes: true) }
                let delegate = StormDelegate(probe: probe, seed: random.next() ^ UInt64(index), clock: clock)
                let app = try system.install(manifest, delegate: delegate)
                if name == "notes" { app.sceneDelegate = delegate }
                apps.append(app)
            }
            for _ in 0..<length {
                events += 1
                let app = apps[Int(random.next(below: UInt64(apps.count)))]
                let pause = Duration.milliseconds(Int64(random.next(below: 20_000)))
                switch random.next(below: 22) {
                case 0, 1, 2: try? system.open(app)
                case 3, 4: try? system.pressHome()
                case 5: try? system.beginInterruption()
                case 6: try? system.answerInterruption()
                case 7: try? system.dismissInterruption()
                case 8: try? system.purge(app)
                case 9: try? system.killFromAppSwitcher(app)
                case 10: try? system.terminate(app, reason: .system)
                case 11: try? system.launchInBackground(app, reason: .backgroundFetch)
                case 12: _ = system.deliver(.silentPush, to: app)
                case 13: _ = system.deliver(.significantLocationChange, to: app)
                case 14: app.async { probe.check(app, "async from outside") }
                case 15: app.runLater(after: pause) { probe.check(app, "runLater from outside") }
                case 16: app.runInBackground(after: pause) { probe.check(app, "runInBackground from outside") }
                case 17: _ = try? system.openScene(of: app)
                case 18: clock.advance(by: pause)
                case 19: if let next = clock.nextDeadline { clock.advance(to: next) }
                case 20: system.setMemoryCapacity(random.next(below: 2) == 0 ? 120_000_000 : nil)
                default: clock.advance(by: .seconds(Int64(random.next(below: 600))))
                }
            }
            clock.advance(by: .seconds(3_600))
            code += probe.runs.entries.count
            problems += probe.problems.entries.prefix(5).map { "run \(run): \($0)" }
            let outside = entriesOutsideRunningIntervals(system.trace)
            problems += outside.prefix(5).map { "run \(run): outside a running interval: \($0)" }
            if let first = outside.first, LongRun.number("BGBUDGET_STORM_DUMP") != nil {
                for event in system.trace.events where event.time >= first.time - .seconds(40) && event.time <= first.time {
                    print("DUMP run \(run): \(event)")
                }
            }
            if problems.count > 20 { break }
        }
        return (events, code, problems)
    }

    @Test func appCodeRunsOnlyInARunningProcessOfItsOwnAppAndSeesARunningState() throws {
        let runs = LongRun.cases(5_000, quick: 25)
        let seed = LongRun.isOn ? LongRun.dailySeed : 1
        let result = try Self.storm(seed: seed, runs: runs, length: 220)
        #expect(result.events == runs * 220, "seed \(seed)")
        #expect(result.code > result.events / 4, "the storm ran little app code (seed \(seed))")
        #expect(result.problems == [], "seed \(seed)")
    }
}
