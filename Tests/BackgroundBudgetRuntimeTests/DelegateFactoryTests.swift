import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock

/// A delegate that caches a queue of its own on its first launch, as app code often does, and counts
/// the launches it saw and the uploads that ran.
final class CachingDelegate: ApplicationDelegate {
    let launches = LockedValue(0)
    let io = LockedValue<ApplicationQueue?>(nil)
    let uploads: LockedValue<[String]>

    init(uploads: LockedValue<[String]>) {
        self.uploads = uploads
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        let launch = launches.withLock { $0 += 1; return $0 }
        let queue = io.withLock { io in
            if io == nil { io = application.makeQueue(label: "io") }
            return io!
        }
        queue.async { [uploads] in uploads.withLock { $0.append("upload of launch \(launch)") } }
    }
}

/// A new process has new memory: an app installed with factories gets new delegates each launch; one
/// installed with an instance keeps one object for every launch, and with it the trap of a queue
/// cached by an ended process.
@Suite struct DelegateFactoryTests {
    let clock = VirtualClock()

    @Test func eachLaunchMakesNewDelegatesSoARelaunchStartsFromNothing() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let made = LockedValue<[CachingDelegate]>([])
        let uploads = LockedValue<[String]>([])
        let app = try system.install(AppManifest(id: "news"), delegateFactory: {
            let delegate = CachingDelegate(uploads: uploads)
            made.withLock { $0.append(delegate) }
            return delegate
        })
        #expect(app.delegate == nil)
        try system.open(app)
        try system.pressHome()
        try system.purge(app)
        #expect(app.delegate == nil)              // gone with its process
        try system.open(app)
        let delegates = made.withLock { $0 }
        #expect(delegates.count == 2)
        #expect(delegates.map { $0.launches.withLock { $0 } } == [1, 1])
        #expect(app.delegate === delegates.last)
        #expect(uploads.withLock { $0 } == ["upload of launch 1", "upload of launch 1"])
    }

    @Test func aSceneDelegateFactoryMakesOnePerLaunch() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let scenes = LockedValue(0)
        final class Scenes: SceneDelegate {}
        var manifest = AppManifest(id: "notes")
        manifest.sceneManifest = SceneManifest(supportsMultipleScenes: false)
        let app = try system.install(manifest, delegateFactory: { CachingDelegate(uploads: LockedValue([])) },
                                     sceneDelegateFactory: { scenes.withLock { $0 += 1 }; return Scenes() })
        try system.open(app)
        try system.pressHome()
        try system.open(app)                      // the same process
        try system.pressHome()
        try system.purge(app)
        try system.open(app)
        #expect(scenes.withLock { $0 } == 2)
    }

    @Test func oneObjectForEveryLaunchKeepsAQueueOfAnEndedProcessThatSilentlyRunsNothing() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let uploads = LockedValue<[String]>([])
        let delegate = CachingDelegate(uploads: uploads)
        let app = try system.install(AppManifest(id: "news"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        try system.purge(app)
        try system.open(app)
        // The second launch queued its upload on the first process's queue: it never runs.
        #expect(delegate.launches.withLock { $0 } == 2)
        #expect(uploads.withLock { $0 } == ["upload of launch 1"])
    }

    @Test func workDroppedCountsQueuedWorkPendingTimedWorkAndSleepingTasks() throws {
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let app = try system.install(AppManifest(id: "news"))
        try system.open(app)
        let io = app.makeQueue(label: "io")
        var sleeping = 0
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            app.task { try? await Task.sleep(for: .seconds(100), clock: app.clock) }   // asleep before it returns
            sleeping = 1
        }
        try system.pressHome()                    // suspended at once
        io.async {}                               // queued, held
        app.runLater(after: .seconds(100)) {}     // pending
        io.asyncAfter(.seconds(100)) {}           // pending
        io.asyncAfter(.seconds(1)) {}             // due at 1 s: queued on the suspended queue
        clock.advance(to: .seconds(5))
        try system.purge(app)
        #expect(system.trace.events.filter { $0.kind.tag == .workDropped }.map(\.jsonLine) == [
            #"{"t":5.000,"app":"news","event":"workDropped","count":\#(4 + sleeping)}"#,
        ])
        // Nothing of the ended process is counted again, nor runs, later.
        clock.advance(to: .seconds(200))
        try system.open(app)
        #expect(system.trace.events.filter { $0.kind.tag == .workDropped }.count == 1)
    }
}

/// Main-actor delegates made afresh for each launch, on the main actor.
@MainActor @Suite struct MainActorDelegateFactoryTests {
    @Test func eachLaunchMakesNewMainActorDelegatesOnTheMainActor() throws {
        let clock = VirtualClock()
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        var made: [MainActorPodcastsDelegate] = []
        var scenes: [MainActorWindowDelegate] = []
        var manifest = AppManifest(id: "podcasts")
        manifest.sceneManifest = SceneManifest(supportsMultipleScenes: false)
        let app = try system.install(manifest, mainActorDelegateFactory: {
            let delegate = MainActorPodcastsDelegate(clock: clock)
            made.append(delegate)
            return delegate
        }, mainActorSceneDelegateFactory: {
            let delegate = MainActorWindowDelegate(clock: clock)
            scenes.append(delegate)
            return delegate
        })
        #expect(app.mainActorDelegate == nil)
        try system.open(app)
        #expect(made.count == 1 && scenes.count == 1)
        #expect(app.mainActorDelegate === made.first)
        #expect(app.delegate == nil)
        try system.pressHome()
        try system.purge(app)
        #expect(app.mainActorDelegate == nil && app.mainActorSceneDelegate == nil)   // gone with its process
        try system.open(app)
        #expect(made.count == 2 && scenes.count == 2)
        #expect(app.mainActorDelegate === made.last)
        #expect(app.mainActorSceneDelegate === scenes.last)
        // Each process's delegate saw its own launch, on the main thread.
        #expect(made.map { $0.callbacks.first } == ["willFinish", "willFinish"])
        #expect(made.allSatisfy { $0.onMainThread.allSatisfy { $0 } })
    }
}
