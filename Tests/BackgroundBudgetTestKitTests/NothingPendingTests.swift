import BackgroundBudget
import Testing
import BackgroundBudgetTestKit

@Suite struct NothingPendingTests {
    let clock = VirtualClock()

    @Test func anOpenTaskIsReportedUntilItExpires() throws {
        let system = BackgroundSystem(clock: clock)
        let app = try system.install(AppManifest(id: "news"))
        try system.open(app)
        app.beginBackgroundTask(withName: "upload")
        try system.pressHome()

        let pending = system.pendingWork()
        #expect(pending.contains(PendingWork(kind: .openBackgroundTask, app: "news",
                                             description: "news: open background task 1 \"upload\"")))
        #expect(pending.filter { $0.kind == .timer }.count == 2)   // the allowance's warning and expiry
        let error = #expect(throws: PendingWorkError.self) { try system.checkNothingPending() }
        #expect(error?.items == pending)
        #expect(error?.description.contains("news: open background task 1 \"upload\"") == true)
        withKnownIssue {
            #expect(!system.expectNothingPending())
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("Still pending: news: ") }
        }

        clock.advance(by: .seconds(60))
        #expect(system.pendingWork().isEmpty)
        try system.checkNothingPending()
        #expect(system.expectNothingPending())
    }

    @Test func aSuspendedAppsHeldNotificationsCanBeAllowed() throws {
        let system = BackgroundSystem(clock: clock)
        let app = try system.install(AppManifest(id: "news"))
        try system.open(app)
        try system.pressHome()
        system.post(.locale("fr_FR"))
        #expect(system.pendingWork().map(\.kind) == [.heldNotifications])
        #expect(system.expectNothingPending(allowing: [.heldWork(of: app)]))
        try system.open(app)
        #expect(system.expectNothingPending())
    }

    @Test func theTestsOwnClockWorkAndRunningTasksAreReported() throws {
        let system = BackgroundSystem(clock: clock)
        let app = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]))
        try system.open(app)
        clock.schedule(after: .seconds(10)) {}
        let task = app.beginBackgroundTask(withName: nil)
        let items = system.pendingWork()
        #expect(items.first == PendingWork(kind: .clockDeadline, app: nil, description: "clock: 1 deadline armed, next at \(BudgetInstant.seconds(10))"))
        #expect(items.map(\.kind).contains(.openBackgroundTask))
        #expect(system.pendingWork(allowing: [.kind(.clockDeadline), .everything(of: app)]).isEmpty)
        #expect(system.pendingWork(allowing: [.matching { $0.app == nil }]).allSatisfy { $0.app == "news" })
        app.endBackgroundTask(task)
        clock.advance(by: .seconds(10))
        system.expectNothingPending()
    }

    @Test func anUnfinishedFetchIsReportedWhileItRuns() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { $0.setMinimumBackgroundFetchInterval(.minimum) }
        delegate.completeFetches(with: nil)   // never completes
        let app = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        for _ in 0..<1_200 where delegate.times(of: .fetch).isEmpty { clock.advance(by: .seconds(1)) }
        #expect(delegate.times(of: .fetch).count == 1)
        #expect(system.pendingWork(allowing: [.kind(.timer)]).map(\.kind) == [.runningFetch])
    }

    @Test func workHeldOnASuspendedAppsQueueIsReportedAndCanBeAllowed() throws {
        let system = BackgroundSystem(clock: clock)
        let app = try system.install(AppManifest(id: "news"))
        try system.open(app)
        try system.pressHome()
        let ran = LockedValue(false)
        app.async { ran.withLock { $0 = true } }
        #expect(system.pendingWork() == [PendingWork(kind: .queuedWork, app: "news",
                                                     description: "news: 1 item on its queue not run (suspended)")])
        #expect(system.pendingWork(allowing: [.heldWork(of: app)]).isEmpty)
        try system.open(app)
        #expect(ran.withLock { $0 })
        system.expectNothingPending()
    }

    @Test func aSubmittedThenRunningScheduledTaskIsReportedUntilCompleted() throws {
        let identifier = "com.example.news.refresh"
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        let held = LockedValue<ScheduledTask?>(nil)
        delegate.on(.didFinishLaunching) { app in
            app.register(forTaskWithIdentifier: identifier) { task in held.withLock { $0 = task } }
        }
        let app = try system.install(AppManifest(id: "news", backgroundModes: [.fetch], permittedTaskIdentifiers: [identifier]),
                                     delegate: delegate)
        try system.open(app)
        try system.pressHome()
        try app.submit(TaskRequest(identifier: identifier, kind: .appRefresh))
        #expect(system.pendingWork(allowing: [.kind(.timer)]).map(\.kind) == [.pendingTaskRequest])

        for _ in 0..<3_600 where held.withLock({ $0 }) == nil { clock.advance(by: .seconds(1)) }
        let task = try #require(held.withLock { $0 })
        #expect(system.pendingWork(allowing: [.kind(.timer)]).map(\.description) == [
            "news: scheduled task \(identifier) running",
        ])
        task.setTaskCompleted(success: true)
        system.expectNothingPending()
    }
}
