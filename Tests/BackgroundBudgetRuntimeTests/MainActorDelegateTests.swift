import Dispatch
import Testing
import TestSupport
@testable import BackgroundBudget
@testable import BackgroundBudgetRuntime
@testable import BackgroundBudgetCore
@testable import BudgetClock
import BackgroundBudgetTestKit

/// A delegate as a UIKit engineer writes one: main-actor isolated, with plain stored properties.
final class MainActorPodcastsDelegate: MainActorApplicationDelegate {
    let clock: any BudgetClock
    var callbacks: [String] = []
    var onMainThread: [Bool] = []
    var backgroundedAt: BudgetInstant?
    var expiredAt: BudgetInstant?
    var expiredOnMainThread = false
    var upload = BackgroundTaskIdentifier.invalid
    /// Signalled after didEnterBackground, for the real-clock test, which waits off the main actor.
    let enteredBackground = DispatchSemaphore(value: 0)

    init(clock: any BudgetClock) {
        self.clock = clock
    }

    private func note(_ name: String) {
        callbacks.append(name)
        onMainThread.append(isOnMainQueue())
    }

    func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions) { note("willFinish") }
    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) { note("didFinish") }
    func applicationDidBecomeActive(_ application: Application) { note("didBecomeActive") }
    func applicationWillResignActive(_ application: Application) { note("willResignActive") }

    func applicationDidEnterBackground(_ application: Application) {
        note("didEnterBackground")
        backgroundedAt = clock.now
        upload = application.beginBackgroundTask(withName: "upload") { [self] in
            // An app with a main-actor delegate runs its handlers on the main thread too.
            MainActor.assumeIsolated {
                expiredAt = clock.now
                expiredOnMainThread = isOnMainQueue()
                application.endBackgroundTask(upload)
            }
        }
        enteredBackground.signal()
    }
}

/// Main-actor delegates on the virtual clock: synchronous, deterministic, exact instants.
@MainActor @Suite struct MainActorDelegateTests {
    let clock = VirtualClock()

    @Test func aMainActorDelegateWithPlainVarsPassesAPolicyTest() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = MainActorPodcastsDelegate(clock: clock)
        let app = try system.install(AppManifest(id: "com.example.podcasts"), delegate: delegate)
        try system.open(app)
        clock.advance(by: .seconds(10))
        try system.pressHome()
        #expect(delegate.callbacks == ["willFinish", "didFinish", "didBecomeActive", "willResignActive", "didEnterBackground"])
        #expect(delegate.backgroundedAt == .seconds(10))
        #expect(app.applicationState == .background)

        clock.advance(by: .seconds(100))
        // iOS 13: a 30 s allowance, the handler 5 s before its end; ending the task there suspends the app.
        #expect(delegate.expiredAt == .seconds(35))
        #expect(system.trace.instants(of: .expirationHandlerCalled) == [.seconds(35)])
        #expect(app.applicationState == .suspended)
        #expect(system.trace.first(.exit) == nil)
        #expect(delegate.onMainThread.allSatisfy { $0 } && delegate.expiredOnMainThread)
        system.expectNothingPending()
    }

    @Test func theAppHoldsOneKindOfDelegateAtATime() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = MainActorPodcastsDelegate(clock: clock)
        let app = try system.install(AppManifest(id: "com.example.podcasts"), delegate: delegate)
        #expect(app.delegate == nil)
        #expect(app.mainActorDelegate === delegate)

        let scripted = ScriptedDelegate()
        app.delegate = scripted
        #expect(app.mainActorDelegate == nil)
        try system.open(app)
        #expect(scripted.callbacks.last == .didBecomeActive)
        #expect(delegate.callbacks.isEmpty)

        app.mainActorDelegate = delegate
        try system.pressHome()
        #expect(delegate.callbacks == ["willResignActive", "didEnterBackground"])
        #expect(scripted.callbacks.last == .didBecomeActive)
    }

    @Test func theSameCallsGiveTheSameTraceAsASendableDelegate() throws {
        func run(_ install: (BackgroundSystem) throws -> Application) throws -> String {
            let clock = VirtualClock()
            let system = BackgroundSystem(clock: clock)
            let app = try install(system)
            try system.open(app)
            clock.advance(by: .seconds(3))
            try system.pressHome()
            clock.advance(by: .seconds(60))
            return system.logLines()
        }
        let mainActor = try run { try $0.install(AppManifest(id: "a"), delegate: MainActorPodcastsDelegate(clock: $0.clock)) }
        let sendable = try run { system in
            let delegate = ScriptedDelegate()
            delegate.on(.didEnterBackground) { app in
                let task = LockedValue(BackgroundTaskIdentifier.invalid)
                task.withLock { $0 = app.beginBackgroundTask(withName: "upload") { app.endBackgroundTask(task.withLock { $0 }) } }
            }
            return try system.install(AppManifest(id: "a"), delegate: delegate)
        }
        #expect(mainActor == sendable)
    }
}

/// Misuse is a clear error, not a data race.
@Suite struct MainActorDelegateMisuseTests {
    @Test func drivingTheVirtualClockOffTheMainActorStopsWithAnExplanation() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let clock = VirtualClock()
            let system = BackgroundSystem(clock: clock)
            let app = await MainActor.run {
                try! system.install(AppManifest(id: "a"), delegate: MainActorPodcastsDelegate(clock: clock))
            }
            await Task.detached { try? system.open(app) }.value
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("mark the test @MainActor"))
    }
}

/// The real clock: callbacks arrive on the main thread through the main queue. Tolerant waits.
@Suite(.tags(.realTime), .serialized)
struct MainActorDelegateRealClockTests {
    @Test func callbacksArriveOnTheMainThreadOnTheDispatchClock() async throws {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let system = BackgroundSystem(clock: clock)
        let delegate = await MainActorPodcastsDelegate(clock: clock)
        let app = try await MainActor.run { try system.install(AppManifest(id: "podcasts"), delegate: delegate) }
        let observed = TestLog<Bool>()
        app.addObserver { _ in observed.append(isOnMainQueue()) }
        try system.open(app)
        try system.pressHome()
        // Waits off the main thread, which stays free to run the main queue.
        #expect(delegate.enteredBackground.wait(timeout: .now() + 5) == .success)
        let (callbacks, onMain) = await MainActor.run { (delegate.callbacks, delegate.onMainThread) }
        #expect(callbacks == ["willFinish", "didFinish", "didBecomeActive", "willResignActive", "didEnterBackground"])
        #expect(onMain == Array(repeating: true, count: 5))
        // Observers follow the callback in the same piece of work, on the main actor too.
        #expect(waitUntil(seconds: 5) { observed.entries.count == 5 })
        #expect(observed.entries == Array(repeating: true, count: 5))
    }

    @Test func theQueueRunsOnTheMainActorWhileAnyHolderAsks() {
        let executor = AppExecutor(backend: .dispatch(DispatchQueue(label: "holders")))
        func runsOnMain() -> Bool? {
            let result = LockedValue<Bool?>(nil)
            let done = DispatchSemaphore(value: 0)
            executor.enqueue {
                result.withLock { $0 = isOnMainQueue() }
                done.signal()
            }
            return done.wait(timeout: .now() + 5) == .success ? result.withLock { $0 } : nil
        }
        #expect(runsOnMain() == false)
        executor.setRunsOnMainActor(true, for: "appDelegate")
        executor.setRunsOnMainActor(true, for: "scene 1")
        executor.setRunsOnMainActor(false, for: "appDelegate")
        #expect(runsOnMain() == true)
        executor.setRunsOnMainActor(false, for: "scene 1")
        #expect(runsOnMain() == false)
    }

    @Test(LongRun.only) func expirationHandlersRunOnTheMainThreadOnTheDispatchClock() async throws {
        var policy = BudgetPolicy.iOS13
        policy.backgroundTaskAllowance = .milliseconds(400)
        policy.expirationWarningLead = .milliseconds(200)
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let delegate = await MainActorPodcastsDelegate(clock: clock)
        let app = try await MainActor.run { try system.install(AppManifest(id: "podcasts"), delegate: delegate) }
        try system.open(app)
        try system.pressHome()
        #expect(waitUntil(seconds: 3) { system.state(of: app) == .suspended })
        let (expiredAt, onMain) = await MainActor.run { (delegate.expiredAt, delegate.expiredOnMainThread) }
        #expect(expiredAt != nil && onMain)
        #expect(system.trace.first(.exit) == nil)
    }
}
