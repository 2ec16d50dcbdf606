import BackgroundBudget
import Foundation
import Testing
#if canImport(UIKit) && canImport(BackgroundTasks) && os(iOS)
import BackgroundTasks
import UIKit
#endif

// MARK: - Production code, written once against the seams

/// An outbox flushed when the app leaves the screen, as an app writes it: a finite task around the
/// sends, a refresh request for what is left, nothing while Low Power Mode is on. Its body names no
/// model type: on a device it takes `UIApplication.shared`, `BGTaskScheduler.shared` and
/// `ProcessInfo.processInfo` (the extension below), in a test the model's.
@MainActor
final class OutboxFlusher<App: BackgroundTaskApplication, Scheduler: BackgroundTaskScheduling, Info: LowPowerModeReporting> {
    typealias Send = @MainActor (_ item: String, _ completion: @escaping @MainActor @Sendable () -> Void) -> Void
    static var refreshIdentifier: String { "com.example.outbox.refresh" }

    private let application: App
    private let scheduler: Scheduler
    private let processInfo: Info
    private let send: Send
    private let now: () -> Date
    private(set) var outbox: [String]
    private var task = App.BackgroundTaskIdentifier.invalid
    private(set) var refreshes = 0

    init(outbox: [String], application: App, scheduler: Scheduler, processInfo: Info,
         now: @escaping () -> Date, send: @escaping Send) {
        (self.outbox, self.application, self.scheduler, self.processInfo, self.now, self.send) =
            (outbox, application, scheduler, processInfo, now, send)
    }

    /// From `application(_:didFinishLaunchingWithOptions:)`.
    func registerLaunchHandlers() -> Bool {
        scheduler.register(forTaskWithIdentifier: Self.refreshIdentifier, using: .main) { [weak self] task in
            MainActor.assumeIsolated {
                self?.refreshes += 1
                task.expirationHandler = { task.setTaskCompleted(success: false) }
                task.setTaskCompleted(success: true)
            }
        }
    }

    /// From `applicationDidEnterBackground(_:)`.
    func applicationDidEnterBackground() {
        guard application.applicationState == .background, !outbox.isEmpty, task == .invalid else { return }
        task = application.beginBackgroundTask(withName: "outbox") { [self] in
            finish()                                   // out of time: keep the rest for later
        }
        sendNext()
    }

    private func sendNext() {
        guard let item = outbox.first, task != .invalid else { return finish() }
        send(item) { [self] in
            outbox.removeFirst()
            sendNext()
        }
    }

    private func finish() {
        guard task != .invalid else { return }
        if !processInfo.isLowPowerModeEnabled, application.backgroundRefreshStatus == .available {
            var request = scheduler.appRefreshTaskRequest(identifier: Self.refreshIdentifier)
            request.earliestBeginDate = now().addingTimeInterval(60 * 60)
            try? scheduler.submit(request)
        }
        application.endBackgroundTask(task)
        task = .invalid
    }
}

#if canImport(UIKit) && canImport(BackgroundTasks) && os(iOS)
extension OutboxFlusher where App == UIApplication, Scheduler == BGTaskScheduler, Info == ProcessInfo {
    /// The device's defaults: what the app itself calls.
    convenience init(outbox: [String], send: @escaping Send) {
        self.init(outbox: outbox, application: .shared, scheduler: .shared, processInfo: .processInfo, now: Date.init, send: send)
    }
}
#endif

// MARK: - The same class in the model

@MainActor
private final class OutboxDelegate: MainActorApplicationDelegate {
    var flusher: OutboxFlusher<Application, TaskScheduler, DeviceProcessInfo>?
    let items: [String]
    let sendTime: Duration

    init(items: [String], sendTime: Duration) {
        (self.items, self.sendTime) = (items, sendTime)
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        let sendTime = sendTime
        let flusher = OutboxFlusher(outbox: items, application: application, scheduler: application.taskScheduler,
                                    processInfo: application.processInfo, now: { application.currentDate }) { _, done in
            application.runLater(after: sendTime) { MainActor.assumeIsolated { done() } }   // the network
        }
        _ = flusher.registerLaunchHandlers()
        self.flusher = flusher
    }

    func applicationDidEnterBackground(_ application: Application) {
        flusher?.applicationDidEnterBackground()
    }
}

@MainActor
@Suite struct AppleSeamTests {
    let manifest = AppManifest(id: "com.example.outbox", backgroundModes: [.fetch],
                               permittedTaskIdentifiers: ["com.example.outbox.refresh"])

    @Test func theFlusherSendsInAFiniteTaskThenAsksForARefresh() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let delegate = OutboxDelegate(items: ["a", "b"], sendTime: .seconds(4))
        let app = try system.install(manifest, delegate: delegate)

        try system.open(app)
        try system.pressHome()                                   // t = 0
        clock.advance(by: .seconds(2 * 60 * 60))

        #expect(delegate.flusher?.outbox == [])
        #expect(system.trace.instants(of: .backgroundTaskBegan) == [.zero])
        #expect(system.trace.instants(of: .backgroundTaskEnded) == [.seconds(8)])   // two sends of 4 s
        #expect(system.trace.instants(of: .taskSubmitted) == [.seconds(8)])
        #expect(system.trace.instants(of: .taskStarted) == [.seconds(3608)])         // an hour after
        #expect(system.trace.instants(of: .taskCompleted) == [.seconds(3608)])
        #expect(delegate.flusher?.refreshes == 1)
        #expect(system.trace.instants(of: .expirationHandlerCalled).isEmpty)
        #expect(app.applicationState == .suspended)
    }

    @Test func outOfTimeItKeepsTheRestAndInLowPowerModeAsksForNothing() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        system.setLowPowerMode(true)
        let delegate = OutboxDelegate(items: (1...10).map { "item \($0)" }, sendTime: .seconds(4))
        let app = try system.install(manifest, delegate: delegate)
        #expect(app.processInfo.isLowPowerModeEnabled)

        try system.open(app)
        try system.pressHome()
        clock.advance(by: .seconds(60))

        // 30 s allowance, handler 5 s before its end: six sends done by 24 s, the seventh still out.
        #expect(system.trace.instants(of: .expirationHandlerCalled) == [.seconds(25)])
        #expect(system.trace.instants(of: .backgroundTaskEnded) == [.seconds(25)])
        #expect(delegate.flusher?.outbox.count == 4)
        #expect(system.trace.instants(of: .taskSubmitted).isEmpty)               // Low Power Mode
        #expect(app.backgroundRefreshStatus == .denied)
        #expect(app.applicationState == .suspended)
    }

    @Test func theModelsSchedulerListsAndCancelsThroughTheSeam() async throws {
        let clock = VirtualClock()
        // The test submits for an app that registers no handler: under the rule before iOS 15.4
        // the request is kept, where today's rule would crash the app at the submit.
        var policy = BudgetPolicy.iOS13
        policy.crashesWithoutLaunchHandler = false
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let app = try system.install(manifest)
        try system.open(app)
        let scheduler = app.taskScheduler
        var request = scheduler.appRefreshTaskRequest(identifier: "com.example.outbox.refresh")
        request.earliestBeginDate = system.currentDate.addingTimeInterval(900)
        try scheduler.submit(request)

        let pending = await pendingIdentifiers(scheduler)
        #expect(pending == ["com.example.outbox.refresh"])
        let dates = await scheduler.pendingTaskRequests().map(\.earliestBeginDate)
        #expect(dates == [system.currentDate.addingTimeInterval(900)])
        scheduler.cancel(taskRequestWithIdentifier: "com.example.outbox.refresh")
        #expect(await pendingIdentifiers(scheduler).isEmpty)
    }

    /// Generic, as production code reads it.
    private nonisolated func pendingIdentifiers<S: BackgroundTaskScheduling & Sendable>(_ scheduler: S) async -> [String] {
        await scheduler.pendingTaskRequests().map(\.identifier)
    }
}

/// A plain (not main-actor) app using the seam: its expiration handler, `@MainActor` as UIKit's, is
/// run on the main queue (where the main actor runs; on Linux that may be another thread than the
/// process's first) while the app's queue waits, at the model's instant.
private final class PlainSeamUser: ApplicationDelegate {
    static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
    let ranOnMainQueue = LockedValue<Bool?>(nil)

    func applicationDidEnterBackground(_ application: Application) {
        begin(application)
    }

    /// Generic, as code written against the seam is.
    private func begin<App: BackgroundTaskApplication>(_ app: App) {
        let task = LockedValue(App.BackgroundTaskIdentifier.invalid)
        let (flag, key) = (ranOnMainQueue, Self.mainQueueKey)
        task.withLock { $0 = app.beginBackgroundTask(withName: "plain") {
            flag.withLock { $0 = DispatchQueue.getSpecific(key: key) == true }
            app.endBackgroundTask(task.withLock { $0 })
        } }
    }
}

@Suite struct AppleSeamOffTheMainActorTests {
    @Test func aPlainAppsExpirationHandlerRunsOnTheMainQueueAtItsInstant() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let delegate = PlainSeamUser()
        let app = try system.install(AppManifest(id: "com.example.plain"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        clock.advance(by: .seconds(60))
        _ = PlainSeamUser.mainQueueKey
        #expect(delegate.ranOnMainQueue.withLock { $0 } == true)
        #expect(system.trace.instants(of: .expirationHandlerCalled) == [.seconds(25)])
        #expect(system.trace.instants(of: .backgroundTaskEnded) == [.seconds(25)])
        #expect(app.applicationState == .suspended)
    }
}
