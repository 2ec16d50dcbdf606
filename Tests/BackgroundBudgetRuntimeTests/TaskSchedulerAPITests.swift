import Foundation
import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetTestKit

/// The `BGTaskScheduler`-shaped API (`app.taskScheduler`, the three request types, `Date`s) on the
/// virtual clock, with exact instants: each call lands on the lower-level one, and each error code.
@Suite struct TaskSchedulerAPITests {
    static let refreshID = "com.example.podcasts.refresh"
    static let cleanupID = "com.example.podcasts.cleanup"
    static let exportPattern = "com.example.podcasts.export.*"

    let clock = VirtualClock()

    /// A podcasts app that registers its two handlers with the new API while launching, passing a
    /// queue as app code does; each handler works 2 s, then completes, and logs when it ran.
    func podcasts(
        _ system: BackgroundSystem, modes: BackgroundModes = [.fetch, .processing],
        queue: DispatchQueue? = nil, runs: TestLog<(String, BudgetInstant)> = TestLog()
    ) throws -> Application {
        let delegate = ScriptedDelegate(clock: clock)
        delegate.on(.didFinishLaunching) { [clock] app in
            for identifier in [Self.refreshID, Self.cleanupID, Self.exportPattern] {
                app.taskScheduler.register(forTaskWithIdentifier: identifier, using: queue) { task in
                    runs.append((task.identifier, clock.now))
                    task.expirationHandler = { task.setTaskCompleted(success: false) }
                    app.simulateWork(for: .seconds(2))
                    task.setTaskCompleted(success: true)
                }
            }
        }
        let manifest = AppManifest(id: "com.example.podcasts", backgroundModes: modes,
                                   permittedTaskIdentifiers: [Self.refreshID, Self.cleanupID, Self.exportPattern])
        return try system.install(manifest, delegate: delegate)
    }

    // MARK: The Date mapping

    @Test func theVirtualClocksZeroIsTheReferenceDateAndWholeMillisecondsMapExactly() {
        let system = BackgroundSystem(clock: clock)
        let reference = BackgroundSystem.virtualReferenceDate
        #expect(reference == Date(timeIntervalSince1970: 1_767_225_600))   // 2026-01-01 00:00:00 UTC
        #expect(system.referenceDate == reference)
        #expect(system.instant(at: reference) == .zero)
        #expect(system.date(at: .seconds(90)) == reference.addingTimeInterval(90))
        #expect(system.instant(at: reference.addingTimeInterval(90)) == .seconds(90))
        #expect(system.instant(at: reference.addingTimeInterval(0.001)) == .milliseconds(1))
        #expect(system.instant(at: reference.addingTimeInterval(-1.5)) == .milliseconds(-1500))
        for milliseconds: Int64 in [1, 7, 999, 123_456_789, 86_400_000 * 365] {
            #expect(system.instant(at: system.date(at: .milliseconds(milliseconds))) == .milliseconds(milliseconds))
        }
        clock.advance(by: .seconds(42))
        #expect(system.currentDate == reference.addingTimeInterval(42))
    }

    @Test func datesBeyondTheInstantsRangeSaturateAndNaNIsTheZero() {
        let system = BackgroundSystem(clock: clock)
        #expect(system.instant(at: .distantFuture) == .distantFuture)
        #expect(system.instant(at: .distantPast) == BudgetInstant(nanoseconds: .min))
        #expect(system.instant(at: Date(timeIntervalSinceReferenceDate: .infinity)) == .distantFuture)
        #expect(system.instant(at: Date(timeIntervalSinceReferenceDate: .nan)) == .zero)
    }

    @Test func aDispatchClocksZeroIsTheWallClockDateItStartedAtMeasuredOnce() {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let system = BackgroundSystem(clock: clock)
        let before = Date()
        let reference = system.referenceDate
        #expect(reference <= before.addingTimeInterval(0.001))
        #expect(reference > before.addingTimeInterval(-60))
        #expect(system.referenceDate == reference)   // fixed once measured
        #expect(system.instant(at: reference.addingTimeInterval(5)) == .seconds(5))
    }

    // MARK: Requests and their earliest begin date

    @Test func settingTheDateClearsTheInstantAndTheOtherWayRound() {
        var request = AppRefreshTaskRequest(identifier: Self.refreshID)
        request.earliestBeginInstant = .seconds(60)
        request.earliestBeginDate = BackgroundSystem.virtualReferenceDate
        #expect(request.earliestBeginInstant == nil)
        request.earliestBeginInstant = .seconds(60)
        #expect(request.earliestBeginDate == nil)
        #expect(request.description == "AppRefreshTaskRequest \"com.example.podcasts.refresh\" earliest t=60.000s")
    }

    @Test func aRefreshWithADateRunsAtItsInstantAndOneWithAnInstantLikewise() throws {
        let system = BackgroundSystem(clock: clock)
        let runs = TestLog<(String, BudgetInstant)>()
        let app = try podcasts(system, runs: runs)
        try system.open(app)
        try system.pressHome()
        var byDate = AppRefreshTaskRequest(identifier: Self.refreshID)
        byDate.earliestBeginDate = system.currentDate.addingTimeInterval(3600)
        try app.taskScheduler.submit(byDate)
        clock.advance(by: .seconds(3599))
        #expect(runs.entries.isEmpty)
        clock.advance(by: .seconds(1))
        #expect(runs.entries.map(\.1) == [.seconds(3600)])
        #expect(system.trace.first(.taskCompleted)?.time == .seconds(3602))
        #expect(app.applicationState == .suspended)

        var byInstant = AppRefreshTaskRequest(identifier: Self.refreshID)
        byInstant.earliestBeginInstant = .seconds(7200)
        try app.taskScheduler.submit(byInstant)
        clock.advance(by: .seconds(4000))
        #expect(runs.entries.map(\.1) == [.seconds(3600), .seconds(7200)])
    }

    @Test func aProcessingRequestKeepsItsRequirementsAndRunsWhenTheyHold() throws {
        let system = BackgroundSystem(clock: clock)
        let runs = TestLog<(String, BudgetInstant)>()
        let app = try podcasts(system, runs: runs)
        try system.open(app)
        try system.pressHome()
        var cleanup = ProcessingTaskRequest(identifier: Self.cleanupID)
        cleanup.requiresExternalPower = true
        cleanup.requiresNetworkConnectivity = true
        cleanup.earliestBeginDate = system.referenceDate.addingTimeInterval(60)
        try app.taskScheduler.submit(cleanup)
        let pending = try #require(app.pendingTaskRequests().first)
        #expect(pending.kind == .processing(requiresNetworkConnectivity: true, requiresExternalPower: true))
        #expect(pending.earliestBeginDate == .seconds(60))
        clock.advance(by: .seconds(100))
        system.setDeviceIdle(true)
        #expect(runs.entries.isEmpty)
        clock.advance(by: .seconds(20))
        system.setExternalPower(true)
        #expect(runs.entries.map(\.1) == [.seconds(120)])
    }

    // MARK: Pending, cancel

    @Test func pendingRequestsComeBackTypedWithBothFormsInEveryForm() async throws {
        let system = BackgroundSystem(clock: clock)
        let app = try podcasts(system)
        try system.open(app)
        let scheduler = app.taskScheduler
        var refresh = AppRefreshTaskRequest(identifier: Self.refreshID)
        refresh.earliestBeginDate = system.referenceDate.addingTimeInterval(3600)
        var cleanup = ProcessingTaskRequest(identifier: Self.cleanupID)
        cleanup.requiresExternalPower = true
        try scheduler.submit(refresh)
        try scheduler.submit(cleanup)

        let pending = await scheduler.pendingTaskRequests()
        #expect(pending.map(\.identifier) == [Self.refreshID, Self.cleanupID])
        let first = try #require(pending.first as? AppRefreshTaskRequest)
        #expect(first.earliestBeginInstant == .seconds(3600))
        #expect(first.earliestBeginDate == system.referenceDate.addingTimeInterval(3600))
        let second = try #require(pending.last as? ProcessingTaskRequest)
        #expect(second.requiresExternalPower && !second.requiresNetworkConnectivity)
        #expect(second.earliestBeginDate == nil && second.earliestBeginInstant == nil)

        var handed: [String] = []
        scheduler.getPendingTaskRequests { handed = $0.map(\.identifier) }
        #expect(handed == [Self.refreshID, Self.cleanupID])

        scheduler.cancel(taskRequestWithIdentifier: Self.refreshID)
        #expect(await scheduler.pendingTaskRequests().map(\.identifier) == [Self.cleanupID])
        scheduler.cancelAllTaskRequests()
        #expect(await scheduler.pendingTaskRequests().isEmpty)
        #expect(system.trace.instants(of: .taskRequestCancelled) == [.zero, .zero])
    }

    @Test func aPendingRequestResubmittedFromTheListIsTheSameRequest() throws {
        let system = BackgroundSystem(clock: clock)
        let app = try podcasts(system)
        try system.open(app)
        var cleanup = ProcessingTaskRequest(identifier: Self.cleanupID)
        cleanup.requiresNetworkConnectivity = true
        cleanup.earliestBeginInstant = .seconds(30)
        try app.taskScheduler.submit(cleanup)
        let before = app.pendingTaskRequests()
        for request in app.taskScheduler.pendingTaskRequests() { try app.taskScheduler.submit(request) }
        #expect(app.pendingTaskRequests() == before)
    }

    // MARK: Continued processing

    @Test func aContinuedProcessingRequestStartsAtOnceFromTheForeground() throws {
        let system = BackgroundSystem(clock: clock)
        let runs = TestLog<(String, BudgetInstant)>()
        let app = try podcasts(system, runs: runs)
        try system.open(app)
        clock.advance(by: .seconds(5))
        var export = ContinuedProcessingTaskRequest(identifier: "com.example.podcasts.export.42",
                                                    title: "Exporting episode 42", subtitle: "Podcasts")
        export.earliestBeginDate = system.currentDate.addingTimeInterval(600)   // ignored
        try app.taskScheduler.submit(export)
        #expect(runs.entries.map(\.0) == ["com.example.podcasts.export.42"])
        #expect(runs.entries.map(\.1) == [.seconds(5)])
        #expect(system.trace.first(.taskCompleted)?.time == .seconds(7))
    }

    // MARK: Each error code

    @Test func anIdentifierNotPermittedOrAModeMissingIsNotPermitted() throws {
        let system = BackgroundSystem(clock: clock)
        let app = try podcasts(system, modes: [.fetch])
        try system.open(app)
        do {
            try app.taskScheduler.submit(AppRefreshTaskRequest(identifier: "com.example.podcasts.other"))
            Issue.record("submitted")
        } catch TaskScheduler.Error.notPermitted {
        } catch {
            Issue.record("wrong code: \(error)")
        }
        let missingMode = #expect(throws: TaskScheduler.Error.self) {
            try app.taskScheduler.submit(ProcessingTaskRequest(identifier: Self.cleanupID))
        }
        #expect(missingMode == TaskSchedulerError(.backgroundModeMissing(.processing), identifier: Self.cleanupID))
        #expect(missingMode?.code == .notPermitted && missingMode?.code.rawValue == 3)
        var gpu = ContinuedProcessingTaskRequest(identifier: "com.example.podcasts.export.1", title: "Export", subtitle: "")
        gpu.requiredResources = .gpu
        let noGPU = #expect(throws: TaskScheduler.Error.self) { try app.taskScheduler.submit(gpu) }
        #expect(noGPU?.cause == .resourceUnavailable && noGPU?.code == .notPermitted)
        #expect(app.taskScheduler.pendingTaskRequests().isEmpty)
        #expect(system.trace.instants(of: .taskSubmitRejected) == [.zero, .zero, .zero])
    }

    @Test func aRefreshWhileBackgroundAppRefreshIsOffIsUnavailable() throws {
        let system = BackgroundSystem(clock: clock)
        let app = try podcasts(system)
        try system.open(app)
        system.setBackgroundAppRefresh(enabled: false, for: app)
        let error = #expect(throws: TaskScheduler.Error.self) {
            try app.taskScheduler.submit(AppRefreshTaskRequest(identifier: Self.refreshID))
        }
        #expect(error?.code == .unavailable && error?.code.rawValue == 1)
        #expect(error.map { TaskScheduler.Error.unavailable ~= $0 } == true)
        // Processing requests are not gated by the switch at submission.
        try app.taskScheduler.submit(ProcessingTaskRequest(identifier: Self.cleanupID))
        #expect(app.taskScheduler.pendingTaskRequests().map(\.identifier) == [Self.cleanupID])
    }

    @Test func anAppNoLongerOnASystemIsUnavailable() throws {
        var system: BackgroundSystem? = BackgroundSystem(clock: clock)
        let app = try system!.install(AppManifest(id: "com.example.podcasts", backgroundModes: [.fetch],
                                                  permittedTaskIdentifiers: [Self.refreshID]))
        system = nil
        let error = #expect(throws: TaskScheduler.Error.self) {
            try app.taskScheduler.submit(AppRefreshTaskRequest(identifier: Self.refreshID))
        }
        #expect(error?.cause == .notInstalled && error?.code == .unavailable)
        #expect(app.taskScheduler.pendingTaskRequests().isEmpty)
    }

    @Test func aSecondRefreshIdentifierIsTooManyPendingTaskRequests() throws {
        let system = BackgroundSystem(clock: clock)
        let second = "com.example.podcasts.refresh2"
        let app = try system.install(AppManifest(id: "com.example.podcasts", backgroundModes: [.fetch],
                                                 permittedTaskIdentifiers: [Self.refreshID, second]))
        try system.open(app)
        try app.taskScheduler.submit(AppRefreshTaskRequest(identifier: Self.refreshID))
        try app.taskScheduler.submit(AppRefreshTaskRequest(identifier: Self.refreshID))   // replaces it
        let error = #expect(throws: TaskScheduler.Error.self) {
            try app.taskScheduler.submit(AppRefreshTaskRequest(identifier: second))
        }
        #expect(error == TaskSchedulerError(.pendingLimitReached(1), identifier: second))
        #expect(error?.code == .tooManyPendingTaskRequests && error?.code.rawValue == 2)
        #expect(app.taskScheduler.pendingTaskRequests().map(\.identifier) == [Self.refreshID])
    }

    @Test func anEleventhProcessingIdentifierIsTooManyPendingTaskRequests() throws {
        // The app registers no handlers (the test submits for it): the rule before iOS 15.4 lets the
        // submissions through, so the limit is what refuses the eleventh.
        var policy = BudgetPolicy.iOS13
        policy.crashesWithoutLaunchHandler = false
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let identifiers = (1...11).map { "com.example.podcasts.clean\($0)" }
        let app = try system.install(AppManifest(id: "com.example.podcasts", backgroundModes: [.processing],
                                                 permittedTaskIdentifiers: identifiers))
        try system.open(app)
        for identifier in identifiers.prefix(10) { try app.taskScheduler.submit(ProcessingTaskRequest(identifier: identifier)) }
        let error = #expect(throws: TaskScheduler.Error.self) {
            try app.taskScheduler.submit(ProcessingTaskRequest(identifier: identifiers[10]))
        }
        #expect(error == TaskSchedulerError(.pendingLimitReached(10), identifier: identifiers[10]))
        #expect(error.map { TaskScheduler.Error.tooManyPendingTaskRequests ~= $0 } == true)
        #expect(app.taskScheduler.pendingTaskRequests().count == 10)
    }

    @Test func aFailStrategyUnderLoadIsImmediateRunIneligible() throws {
        let system = BackgroundSystem(clock: clock)
        let app = try podcasts(system)
        try system.open(app)
        system.setSystemUnderLoad(true)
        var export = ContinuedProcessingTaskRequest(identifier: "com.example.podcasts.export.7", title: "Export", subtitle: "")
        export.strategy = .fail
        do {
            try app.taskScheduler.submit(export)
            Issue.record("submitted")
        } catch TaskScheduler.Error.immediateRunIneligible {
        } catch {
            Issue.record("wrong code: \(error)")
        }
        export.strategy = .queue
        try app.taskScheduler.submit(export)
        let queued = try #require(app.taskScheduler.pendingTaskRequests().first as? ContinuedProcessingTaskRequest)
        #expect(queued == export)
    }

    // MARK: The queue

    @Test func aQueueIsIgnoredOnTheVirtualClockTheHandlerRunsAtTheExactInstant() throws {
        let system = BackgroundSystem(clock: clock)
        let runs = TestLog<(String, BudgetInstant)>()
        let app = try podcasts(system, queue: DispatchQueue(label: "podcasts.tasks"), runs: runs)
        try system.open(app)
        #expect(system.trace.instants(of: .taskRegistered) == [.zero, .zero, .zero])
        try system.pressHome()
        system.setDeviceIdle(true)
        try app.taskScheduler.submit(ProcessingTaskRequest(identifier: Self.cleanupID))
        // Synchronous: the handler ran and its 2 s of work were spent before submit returned.
        #expect(runs.entries.map(\.1) == [.zero])
        #expect(clock.now == .seconds(2))
        #expect(system.trace.first(.taskCompleted)?.time == .seconds(2))
    }
}
