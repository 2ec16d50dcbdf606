import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BackgroundBudgetScenario
import BudgetClock

/// Registers one handler for the app's wildcard entry; keeps every task it is handed, so that tests
/// complete them when they choose.
final class ExportDelegate: ApplicationDelegate {
    static let pattern = "com.example.photos.export.*"
    let completesOnExpiry: Bool
    let tasks = TestLog<ScheduledTask>()
    let runs = TestLog<(String, BudgetInstant, ApplicationState)>()
    let expirations = TestLog<(String, BudgetInstant)>()

    init(completesOnExpiry: Bool = true) {
        self.completesOnExpiry = completesOnExpiry
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        application.register(forTaskWithIdentifier: Self.pattern) { [tasks, runs, expirations, completesOnExpiry] task in
            let clock = application.system!.clock
            runs.append((task.identifier, clock.now, application.applicationState))
            task.expirationHandler = {
                expirations.append((task.identifier, clock.now))
                if completesOnExpiry { task.setTaskCompleted(success: false) }
            }
            tasks.append(task)
        }
    }

    /// The task handed over for an identifier.
    func task(_ identifier: String) throws -> ScheduledTask {
        try #require(tasks.entries.last { $0.identifier == identifier })
    }
}

/// The set-up continued-processing suites share: a system with a limit, a photos app, export requests.
protocol ContinuedProcessingFixture {
    var clock: VirtualClock { get }
}

extension ContinuedProcessingFixture {
    func system(limit: Int = 4) throws -> BackgroundSystem {
        var policy = BudgetPolicy.iOS13
        policy.continuedProcessingTaskLimit = limit
        return try BackgroundSystem(policy: policy, clock: clock)
    }

    func install(
        _ system: BackgroundSystem, _ delegate: ApplicationDelegate?, id: AppID = "com.example.photos",
        permitted: [String] = [ExportDelegate.pattern], exitsOnSuspend: Bool = false
    ) throws -> Application {
        try system.install(AppManifest(id: id, exitsOnSuspend: exitsOnSuspend, permittedTaskIdentifiers: permitted), delegate: delegate)
    }

    func export(_ suffix: String, strategy: ContinuedProcessingOptions.SubmissionStrategy = .queue,
                gpu: Bool = false) -> TaskRequest {
        .continuedProcessing(identifier: "com.example.photos.export.\(suffix)", title: "Exporting \(suffix)",
                             subtitle: "Album", strategy: strategy, requiresGPU: gpu)
    }

    func events(_ system: BackgroundSystem, _ name: String) -> [TraceEvent] {
        system.trace.events.filter { $0.eventName == name }
    }

    func names(_ system: BackgroundSystem, _ name: String) -> [String?] {
        events(system, name).map(\.name)
    }
}

/// Continued-processing tasks (iOS 26) on the virtual clock ([S46][S47][S53][S54][S55]).
@Suite struct ContinuedProcessingTests: ContinuedProcessingFixture {
    let clock = VirtualClock()

    // MARK: Starting from the foreground

    @Test func aSubmissionFromTheForegroundStartsAtOnceAndHoldsTheAppInTheBackground() throws {
        let system = try system()
        let delegate = ExportDelegate()
        let photos = try install(system, delegate)
        try system.open(photos)
        clock.advance(by: .seconds(3))
        try photos.submit(export("a"))
        #expect(delegate.runs.entries.map(\.0) == ["com.example.photos.export.a"])
        #expect(delegate.runs.entries.map(\.1) == [.seconds(3)])
        #expect(delegate.runs.entries.map(\.2) == [.active])
        #expect(events(system, "taskStarted").map(\.time) == [.seconds(3)])

        clock.advance(by: .seconds(2))
        try system.pressHome()
        clock.advance(by: .seconds(600))                                  // no time limit: still running
        #expect(photos.applicationState == .background)
        #expect(system.continuedProcessingActivities.map(\.phase) == [.running])

        try delegate.task("com.example.photos.export.a").setTaskCompleted(success: true)
        #expect(photos.applicationState == .suspended)
        #expect(events(system, "taskCompleted").map(\.time) == [.seconds(605)])
        #expect(events(system, "stateChange").last?.reason == "scheduledTaskCompleted")
        #expect(system.continuedProcessingActivities.isEmpty)
    }

    @Test func theEarliestBeginDateIsIgnored() throws {
        let system = try system()
        let delegate = ExportDelegate()
        let photos = try install(system, delegate)
        try system.open(photos)
        var request = export("late")
        request.earliestBeginDate = .seconds(3_600)
        try photos.submit(request)
        #expect(delegate.runs.entries.map(\.1) == [.zero])
    }

    @Test func submissionsFromTheBackgroundAreNotPermitted() throws {
        let system = try system()
        let photos = try install(system, ExportDelegate())
        try system.open(photos)
        try system.pressHome()
        #expect(throws: TaskSchedulerError(.notInForeground, identifier: "com.example.photos.export.a")) {
            try photos.submit(export("a"))
        }
        #expect(events(system, "taskSubmitRejected").map(\.reason) == ["notPermitted"])
        #expect(photos.pendingTaskRequests().isEmpty)
    }

    // MARK: Identifiers and registration

    @Test func identifiersMustMatchAWildcardEntryThatStartsWithTheBundleIdentifier() throws {
        let system = try system()
        let photos = try install(system, ExportDelegate(),
                                 permitted: [ExportDelegate.pattern, "com.other.*", "com.example.photos.refresh"])
        try system.open(photos)
        for identifier in ["com.other.1", "com.example.photos.export.", "com.example.photos.export.*", "com.example.photos.refresh",
                           "com.example.photos.exports"] {
            #expect(throws: TaskSchedulerError(.identifierNotPermitted, identifier: identifier)) {
                try photos.submit(.continuedProcessing(identifier: identifier, title: "t", subtitle: "s"))
            }
        }
        // No background mode is needed.
        try photos.submit(export("deep.context.1"))
        #expect(events(system, "taskStarted").map(\.name) == ["com.example.photos.export.deep.context.1"])
    }

    @Test func continuedProcessingHandlersMayBeRegisteredAfterLaunchAndOnlyOnce() throws {
        let system = try system()
        let photos = try install(system, nil, permitted: [ExportDelegate.pattern, "com.example.photos.refresh"])
        try system.open(photos)
        clock.advance(by: .seconds(1))
        let started = TestLog<String>()
        #expect(photos.register(forTaskWithIdentifier: "com.example.photos.export.7") { started.append($0.identifier) })
        try photos.submit(export("7"))
        #expect(started.entries == ["com.example.photos.export.7"])
        // With no handler for an identifier or its wildcard entry, the task is dropped.
        try photos.submit(export("8"))
        #expect(names(system, "taskDropped") == ["com.example.photos.export.8"])
        #expect(system.continuedProcessingActivities.map(\.identifier) == ["com.example.photos.export.7"])
        // Twice in one process terminates the app, as for every identifier.
        _ = photos.register(forTaskWithIdentifier: "com.example.photos.export.7") { _ in }
        #expect(events(system, "exit").map(\.reason) == ["taskRegisteredTwice"])
        // Any other identifier registered after launch crashes the app.
        try system.open(photos)
        clock.advance(by: .seconds(1))
        #expect(!photos.register(forTaskWithIdentifier: "com.example.photos.refresh") { _ in })
        #expect(events(system, "exit").map(\.reason) == ["taskRegisteredTwice", "uncaughtException"])
    }

    // MARK: The limit and the strategies

    @Test func atTheLimitFailIsRefusedAndQueueWaitsItsTurn() throws {
        let system = try system(limit: 2)
        let delegate = ExportDelegate()
        let photos = try install(system, delegate)
        try system.open(photos)
        try photos.submit(export("a"))
        try photos.submit(export("b"))
        clock.advance(by: .seconds(1))
        #expect(throws: TaskSchedulerError(.cannotStartNow, identifier: "com.example.photos.export.c")) {
            try photos.submit(export("c", strategy: .fail))
        }
        #expect(events(system, "taskSubmitRejected").map(\.reason) == ["immediateRunIneligible"])
        try photos.submit(export("d"))
        try photos.submit(export("e"))
        #expect(names(system, "taskQueued") == ["com.example.photos.export.d", "com.example.photos.export.e"])
        #expect(photos.pendingTaskRequests().map(\.identifier) == ["com.example.photos.export.d", "com.example.photos.export.e"])
        #expect(system.continuedProcessingActivities.map(\.phase) == [.running, .running, .queued(position: 0), .queued(position: 1)])
        let explanation = try #require(system.explainPendingTaskRequest("com.example.photos.export.e", of: photos))
        #expect(explanation.blockers == [.continuedProcessingLimit(2), .queuedBehind(1)])
        #expect(explanation.description.hasSuffix("2 continued-processing tasks run, the most the system allows at once. 1 continued-processing request is ahead of it in the queue."))

        clock.advance(by: .seconds(9))
        try delegate.task("com.example.photos.export.b").setTaskCompleted(success: true)
        #expect(events(system, "taskStarted").map(\.name) == ["com.example.photos.export.a", "com.example.photos.export.b",
                                                             "com.example.photos.export.d"])
        #expect(events(system, "taskStarted").last?.time == .seconds(10))
        #expect(photos.pendingTaskRequests().map(\.identifier) == ["com.example.photos.export.e"])
        // Resubmitting a queued identifier replaces it; cancelling removes it.
        try photos.submit(export("e"))
        #expect(photos.pendingTaskRequests().count == 1)
        photos.cancel(taskRequestWithIdentifier: "com.example.photos.export.e")
        #expect(photos.pendingTaskRequests().isEmpty)
        #expect(names(system, "taskRequestCancelled") == ["com.example.photos.export.e"])
    }

    @Test func aQueuedTaskStartsInTheBackgroundWhenRoomFreesUp() throws {
        let system = try system(limit: 1)
        let delegate = ExportDelegate()
        let photos = try install(system, delegate)
        try system.open(photos)
        try photos.submit(export("a"))
        try photos.submit(export("b"))
        try system.pressHome()
        clock.advance(by: .seconds(30))
        try delegate.task("com.example.photos.export.a").setTaskCompleted(success: true)
        #expect(delegate.runs.entries.map(\.2) == [.active, .background])
        #expect(photos.applicationState == .background)
        try delegate.task("com.example.photos.export.b").setTaskCompleted(success: true)
        #expect(photos.applicationState == .suspended)
    }

    @Test func underLoadNothingStartsUntilTheLoadEnds() throws {
        let system = try system()
        let delegate = ExportDelegate()
        let photos = try install(system, delegate)
        try system.open(photos)
        system.setSystemUnderLoad(true)
        #expect(system.isSystemUnderLoad)
        #expect(throws: TaskSchedulerError(.cannotStartNow, identifier: "com.example.photos.export.a")) {
            try photos.submit(export("a", strategy: .fail))
        }
        try photos.submit(export("b"))
        #expect(system.explainPendingTaskRequest("com.example.photos.export.b", of: photos)?.blockers == [.systemUnderLoad])
        clock.advance(by: .seconds(42))
        system.setSystemUnderLoad(false)
        #expect(events(system, "taskStarted").map(\.time) == [.seconds(42)])
        #expect(delegate.runs.entries.map(\.0) == ["com.example.photos.export.b"])
    }

    @Test func theLimitIsDeviceWide() throws {
        let system = try system(limit: 1)
        let photos = try install(system, ExportDelegate())
        let video = try install(system, ExportDelegate(), id: "com.example.video", permitted: ["com.example.video.render.*"])
        try system.open(photos)
        try photos.submit(export("a"))
        try system.open(video)
        #expect(throws: TaskSchedulerError(.cannotStartNow, identifier: "com.example.video.render.1")) {
            try video.submit(.continuedProcessing(identifier: "com.example.video.render.1", title: "Render", subtitle: "Clip",
                                                  strategy: .fail))
        }
    }

    @Test func aGPURequestNeedsADeviceThatSupportsIt() throws {
        let system = try system()
        let photos = try install(system, ExportDelegate())
        try system.open(photos)
        #expect(throws: TaskSchedulerError(.resourceUnavailable, identifier: "com.example.photos.export.g")) {
            try photos.submit(export("g", gpu: true))
        }
        system.setSupportsBackgroundGPU(true)
        try photos.submit(export("g", gpu: true))
        #expect(names(system, "taskStarted") == ["com.example.photos.export.g"])
    }

    // MARK: Cancellation, reclaim, progress

    @Test func theUserCancellingARunningTaskCallsItsExpirationHandler() throws {
        let system = try system()
        let delegate = ExportDelegate(completesOnExpiry: false)
        let photos = try install(system, delegate)
        try system.open(photos)
        try photos.submit(export("a"))
        try system.pressHome()
        clock.advance(by: .seconds(20))
        try system.cancelContinuedProcessingTask("com.example.photos.export.a", of: photos)
        #expect(delegate.expirations.entries.map(\.1) == [.seconds(20)])
        #expect(events(system, "taskExpired").map(\.reason) == ["cancelledByUser"])
        #expect(system.continuedProcessingActivities.map(\.phase) == [.expiring])
        try system.cancelContinuedProcessingTask("com.example.photos.export.a", of: photos)   // already expiring: nothing more
        #expect(delegate.expirations.entries.count == 1)
        // The app does not complete it: the system marks it failed 5 s later, and the app suspends.
        clock.advance(by: .seconds(10))
        #expect(events(system, "taskCompleted") == [TraceEvent(time: .seconds(25), app: "com.example.photos",
                                                              kind: .taskCompleted("com.example.photos.export.a", .expiredUnfinished))])
        #expect(photos.applicationState == .suspended)
    }

    @Test func cancellingAnUnknownTaskIsATypedErrorThatListsTheKnownOnes() throws {
        let system = try system(limit: 1)
        let photos = try install(system, ExportDelegate())
        try system.open(photos)
        try photos.submit(export("a"))
        try photos.submit(export("b"))
        #expect(throws: TaskLookupError(app: "com.example.photos", identifier: "com.example.photos.export.z",
                                        known: ["com.example.photos.export.a", "com.example.photos.export.b"])) {
            try system.cancelContinuedProcessingTask("com.example.photos.export.z", of: photos)
        }
        let error = TaskLookupError(app: "com.example.photos", identifier: "x", known: [])
        #expect(error.description == "com.example.photos has no queued or running continued-processing task \"x\" (it has none).")
        // Cancelling a queued one removes it without a run.
        try system.cancelContinuedProcessingTask("com.example.photos.export.b", of: photos)
        #expect(photos.pendingTaskRequests().isEmpty)
        #expect(names(system, "taskRequestCancelled") == ["com.example.photos.export.b"])
    }

    @Test func reclaimingExpiresTheTaskWithTheLeastProgressFirst() throws {
        let system = try system()
        let delegate = ExportDelegate()
        let photos = try install(system, delegate)
        try system.open(photos)
        for suffix in ["a", "b", "c"] { try photos.submit(export(suffix)) }
        try delegate.task("com.example.photos.export.a").updateProgress(completedUnitCount: 8, totalUnitCount: 10)
        try delegate.task("com.example.photos.export.b").updateProgress(completedUnitCount: 1, totalUnitCount: 10)
        try delegate.task("com.example.photos.export.c").updateProgress(completedUnitCount: 10, totalUnitCount: 100)
        let line = try #require(events(system, "taskProgress").first?.jsonLine)
        #expect(line == #"{"t":0.000,"app":"com.example.photos","event":"taskProgress","name":"com.example.photos.export.a","completed":8,"total":10}"#)
        #expect(system.continuedProcessingActivities.map(\.fractionCompleted) == [0.8, 0.1, 0.1])

        // b and c are tied at 10 %: the later one goes first.
        #expect(system.reclaimContinuedProcessingResources()?.identifier == "com.example.photos.export.c")
        #expect(system.reclaimContinuedProcessingResources()?.identifier == "com.example.photos.export.b")
        #expect(system.reclaimContinuedProcessingResources()?.identifier == "com.example.photos.export.a")
        #expect(system.reclaimContinuedProcessingResources() == nil)
        #expect(events(system, "taskExpired").map(\.reason) == ["resourcesReclaimed", "resourcesReclaimed", "resourcesReclaimed"])
        #expect(events(system, "taskCompleted").map(\.reason) == ["failure", "failure", "failure"])
    }

    @Test func progressAndTitleShowInTheActivityAndAreIgnoredAfterTheTaskEnds() throws {
        let system = try system()
        let delegate = ExportDelegate()
        let photos = try install(system, delegate)
        try system.open(photos)
        try photos.submit(export("a"))
        let task = try delegate.task("com.example.photos.export.a")
        task.updateProgress(completedUnitCount: 3, totalUnitCount: 4)
        task.updateTitle("Exporting 4 photos", subtitle: "3 done")
        let activity = try #require(system.continuedProcessingActivities.first)
        #expect(activity.title == "Exporting 4 photos")
        #expect(activity.subtitle == "3 done")
        #expect(activity.description == "com.example.photos: \"Exporting 4 photos\" (3 done) running 75%")
        task.updateProgress(completedUnitCount: -5, totalUnitCount: 0)        // clamped: unknown total
        #expect(system.continuedProcessingActivities.first?.fractionCompleted == 0)
        task.setTaskCompleted(success: true)
        task.updateProgress(completedUnitCount: 4, totalUnitCount: 4)
        #expect(events(system, "taskProgress").count == 2)
    }

    // MARK: The app switcher, exits-on-suspend, Background App Refresh

    @Test func removingTheAppFromTheSwitcherCancelsQueuedRequestsAndEndsRunningTasksWithoutNotice() throws {
        let system = try system(limit: 1)
        let delegate = ExportDelegate()
        let photos = try install(system, delegate)
        try system.open(photos)
        try photos.submit(export("a"))
        try photos.submit(export("b"))
        try system.pressHome()
        try system.killFromAppSwitcher(photos)
        #expect(names(system, "taskRequestCancelled") == ["com.example.photos.export.b"])
        #expect(delegate.expirations.entries.isEmpty)
        #expect(events(system, "exit").map(\.reason) == ["userKill"])
        #expect(system.continuedProcessingActivities.isEmpty)
        // The slot it held is free again.
        let video = try install(system, ExportDelegate(), id: "com.example.video", permitted: ["com.example.video.render.*"])
        try system.open(video)
        try video.submit(.continuedProcessing(identifier: "com.example.video.render.1", title: "Render", subtitle: "Clip", strategy: .fail))
    }

    @Test func anAppThatExitsOnSuspendRunsItsTaskOnlyOnScreen() throws {
        let system = try system(limit: 1)
        let photos = try install(system, ExportDelegate())
        let legacy = try install(system, ExportDelegate(), id: "com.example.legacy", permitted: ["com.example.legacy.job.*"],
                                 exitsOnSuspend: true)
        try system.open(photos)
        try photos.submit(export("a"))
        try system.open(legacy)
        try legacy.submit(.continuedProcessing(identifier: "com.example.legacy.job.1", title: "Job", subtitle: "1"))
        try system.pressHome()                                             // legacy exits; its request waits
        #expect(legacy.applicationState == .notRunning)
        try system.open(photos)
        try system.cancelContinuedProcessingTask("com.example.photos.export.a", of: photos)
        #expect(legacy.applicationState == .notRunning)                      // never woken in the background
        #expect(names(system, "taskStarted") == ["com.example.photos.export.a"])
        try system.open(legacy)
        #expect(names(system, "taskStarted") == ["com.example.photos.export.a", "com.example.legacy.job.1"])
    }

    @Test func backgroundAppRefreshDoesNotGateContinuedProcessing() throws {
        let system = try system()
        let photos = try install(system, ExportDelegate())
        system.setBackgroundAppRefresh(enabled: false)
        system.setLowPowerMode(true)
        try system.open(photos)
        try photos.submit(export("a"))
        #expect(names(system, "taskStarted") == ["com.example.photos.export.a"])
    }

    @Test func theLimitIsAValidatedPolicyNumber() throws {
        var policy = BudgetPolicy.iOS13
        #expect(policy.continuedProcessingTaskLimit == 4)
        policy.continuedProcessingTaskLimit = 0
        #expect(throws: PolicyError(field: .continuedProcessingTaskLimit, problem: .notPositive(0))) { try policy.validate() }
        #expect(throws: PolicyError(field: .continuedProcessingTaskLimit, problem: .notAWholeNumber(2.5))) {
            try BudgetPolicy.iOS13.setting(.continuedProcessingTaskLimit, to: 2.5)
        }
        #expect(try BudgetPolicy.iOS13.setting(.continuedProcessingTaskLimit, to: 2).continuedProcessingTaskLimit == 2)
    }
}
