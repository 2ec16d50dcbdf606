import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock

/// How a test app answers a task: complete after some work, or never.
struct TaskAnswer: Sendable {
    var success: Bool?
    var work: Duration = .seconds(2)
    /// Whether the expiration handler completes the task unsuccessfully.
    var completesOnExpiry = true
}

/// A delegate that registers launch handlers while finishing launching.
final class TaskDelegate: ApplicationDelegate {
    let answers: [String: TaskAnswer]
    let registerTwice: Bool
    let registered = TestLog<(String, Bool)>()
    let runs = TestLog<(String, BudgetInstant, ApplicationState)>()
    let expirations = TestLog<(String, BudgetInstant)>()

    init(_ answers: [String: TaskAnswer], registerTwice: Bool = false) {
        self.answers = answers
        self.registerTwice = registerTwice
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        for identifier in answers.keys.sorted() {
            let answer = answers[identifier]!
            let ok = application.register(forTaskWithIdentifier: identifier) { [runs, expirations] task in
                let clock = application.system!.clock
                runs.append((task.identifier, clock.now, application.applicationState))
                if answer.completesOnExpiry {
                    task.expirationHandler = {
                        expirations.append((task.identifier, clock.now))
                        task.setTaskCompleted(success: false)
                    }
                } else {
                    task.expirationHandler = { expirations.append((task.identifier, clock.now)) }
                }
                guard let success = answer.success else { return }
                application.simulateWork(for: answer.work)
                task.setTaskCompleted(success: success)
            }
            registered.append((identifier, ok))
            if registerTwice { _ = application.register(forTaskWithIdentifier: identifier) { _ in } }
        }
    }
}

/// Completes the refresh task at once and keeps it, to complete it again later.
final class TaskKeeper: ApplicationDelegate {
    let tasks = TestLog<ScheduledTask>()
    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        application.register(forTaskWithIdentifier: TaskSchedulerTests.refreshID) { [tasks] running in
            running.setTaskCompleted(success: true)
            tasks.append(running)
        }
    }
}

/// Resubmits its request at the start of every run, as Apple recommends, then works and completes.
final class ResubmittingDelegate: ApplicationDelegate {
    let request: TaskRequest
    let work: Duration
    let runs = TestLog<BudgetInstant>()
    init(_ request: TaskRequest, work: Duration) {
        self.request = request
        self.work = work
    }
    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        application.register(forTaskWithIdentifier: request.identifier) { [request, work, runs] task in
            runs.append(application.system!.clock.now)
            try? application.submit(request)
            application.simulateWork(for: work)
            task.setTaskCompleted(success: true)
        }
    }
}

/// `BGTaskScheduler`-style requests on the virtual clock.
@Suite struct TaskSchedulerTests {
    let clock = VirtualClock()
    static let refreshID = "com.example.news.refresh"
    static let cleanID = "com.example.news.clean"

    private func install(
        _ system: BackgroundSystem, _ delegate: TaskDelegate?, modes: BackgroundModes = [.fetch, .processing],
        permitted: [String] = [refreshID, cleanID]
    ) throws -> Application {
        try system.install(AppManifest(id: "news", backgroundModes: modes, permittedTaskIdentifiers: permitted), delegate: delegate)
    }

    /// Opens the app (registering its handlers) and sends it to the background, where it suspends.
    private func openAndLeave(_ system: BackgroundSystem, _ app: Application) throws {
        try system.open(app)
        try system.pressHome()
    }

    private func events(_ system: BackgroundSystem, _ name: String) -> [TraceEvent] {
        system.trace.events.filter { $0.eventName == name }
    }

    private func refresh(earliest: BudgetInstant? = nil) -> TaskRequest {
        TaskRequest(identifier: Self.refreshID, kind: .appRefresh, earliestBeginDate: earliest)
    }

    private func processing(network: Bool = false, power: Bool = false, earliest: BudgetInstant? = nil) -> TaskRequest {
        TaskRequest(identifier: Self.cleanID, kind: .processing(requiresNetworkConnectivity: network, requiresExternalPower: power),
                    earliestBeginDate: earliest)
    }

    // MARK: Registration

    @Test func registrationSucceedsOnlyForPermittedIdentifiersWhileLaunching() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.refreshID: TaskAnswer(success: true), "com.example.other": TaskAnswer(success: true)])
        let news = try install(system, delegate)
        try system.open(news)
        #expect(delegate.registered.entries.map(\.1) == [true, false])      // refresh sorts before "com.example.other"
        #expect(system.trace.events.contains(TraceEvent(time: .zero, app: "news",
            kind: .taskRegistrationRejected("com.example.other", .notPermitted))))
        #expect(system.trace.events.contains(TraceEvent(time: .zero, app: "news", kind: .taskRegistered(Self.refreshID))))
        // After launch: a crash, recorded with the reason and the exception's message (LaunchRuleTests).
        clock.advance(by: .seconds(1))
        #expect(!news.register(forTaskWithIdentifier: Self.cleanID) { _ in })
        #expect(events(system, "taskRegistrationRejected").last
            == TraceEvent(time: .seconds(1), app: "news", kind: .taskRegistrationRejected(Self.cleanID, .afterLaunch)))
        #expect(events(system, "exit") == [TraceEvent(time: .seconds(1), app: "news", kind: .exit(.uncaughtException, code: nil))])
        // Not running: there is no launch to register in, and no process to crash.
        #expect(!news.register(forTaskWithIdentifier: Self.cleanID) { _ in })
        let line = try #require(events(system, "taskRegistrationRejected").last?.jsonLine)
        #expect(line == #"{"t":1.000,"app":"news","event":"taskRegistrationRejected","name":"com.example.news.clean","reason":"notLaunching"}"#)
    }

    @Test func registeringAnIdentifierTwiceTerminatesTheApp() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try install(system, TaskDelegate([Self.refreshID: TaskAnswer(success: true)], registerTwice: true))
        try system.open(news)
        #expect(system.trace.events.contains(TraceEvent(time: .zero, app: "news",
            kind: .taskRegistrationRejected(Self.refreshID, .alreadyRegistered))))
        #expect(events(system, "exit") == [TraceEvent(time: .zero, app: "news", kind: .exit(.taskRegisteredTwice, code: nil))])
        #expect(news.applicationState == .notRunning)
    }

    @Test func aNewProcessRegistersAfresh() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.refreshID: TaskAnswer(success: true)])
        let news = try install(system, delegate)
        try openAndLeave(system, news)
        try system.purge(news)
        try system.open(news)
        #expect(delegate.registered.entries.map(\.1) == [true, true])
        #expect(events(system, "exit").map(\.reason) == ["memoryPressure"])
    }

    // MARK: Submission errors

    @Test func submitRefusesUnpermittedIdentifiersAndMissingModes() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try install(system, nil, modes: [])
        #expect(throws: TaskSchedulerError(.identifierNotPermitted, identifier: "com.example.unknown")) {
            try news.submit(TaskRequest(identifier: "com.example.unknown", kind: .appRefresh))
        }
        #expect(throws: TaskSchedulerError(.backgroundModeMissing(.fetch), identifier: Self.refreshID)) { try news.submit(refresh()) }
        #expect(throws: TaskSchedulerError(.backgroundModeMissing(.processing), identifier: Self.cleanID)) { try news.submit(processing()) }
        #expect(news.pendingTaskRequests().isEmpty)
        #expect(events(system, "taskSubmitRejected").map(\.reason) == ["notPermitted", "notPermitted", "notPermitted"])
    }

    @Test func refreshSubmissionsAreUnavailableWithoutBackgroundAppRefreshButProcessingIsAccepted() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try install(system, nil)
        system.setBackgroundAppRefresh(enabled: false, for: news)
        #expect(throws: TaskSchedulerError(.backgroundAppRefreshUnavailable, identifier: Self.refreshID)) { try news.submit(refresh()) }
        try news.submit(processing())
        #expect(news.pendingTaskRequests() == [processing()])
    }

    @Test func pendingLimitsAreOneRefreshAndTenProcessingAndResubmittingReplaces() throws {
        let ids = [Self.refreshID, "com.example.news.refresh2"] + (0..<11).map { "com.example.news.p\($0)" }
        let system = BackgroundSystem(clock: clock)
        let news = try install(system, nil, permitted: ids)
        try news.submit(refresh())
        try news.submit(refresh(earliest: .seconds(5_000)))               // replaces, does not count twice
        #expect(news.pendingTaskRequests() == [refresh(earliest: .seconds(5_000))])
        #expect(throws: TaskSchedulerError(.pendingLimitReached(1), identifier: "com.example.news.refresh2")) {
            try news.submit(TaskRequest(identifier: "com.example.news.refresh2", kind: .appRefresh))
        }
        for index in 0..<10 {
            try news.submit(TaskRequest(identifier: "com.example.news.p\(index)",
                                        kind: .processing(requiresNetworkConnectivity: false, requiresExternalPower: false)))
        }
        try news.submit(TaskRequest(identifier: "com.example.news.p3", kind: .processing(requiresNetworkConnectivity: true,
                                                                                          requiresExternalPower: false)))
        #expect(throws: TaskSchedulerError(.pendingLimitReached(10), identifier: "com.example.news.p10")) {
            try news.submit(TaskRequest(identifier: "com.example.news.p10",
                                        kind: .processing(requiresNetworkConnectivity: false, requiresExternalPower: false)))
        }
        #expect(news.pendingTaskRequests().count == 11)
        #expect(news.pendingTaskRequests().last?.identifier == "com.example.news.p3")
    }

    @Test func errorCodesAndMessagesFollowApple() {
        #expect(TaskSchedulerError.Code.allCases.map(\.rawValue) == [1, 2, 3, 4])
        let error = TaskSchedulerError(.pendingLimitReached(10), identifier: "com.example.x")
        #expect(error.code == .tooManyPendingTaskRequests)
        #expect(error.description == "Task request \"com.example.x\" refused (tooManyPendingTaskRequests, 2): the app already has 10 requests of this kind pending, the most allowed.")
        let causes: [TaskSchedulerError.Cause] = [.notInstalled, .backgroundAppRefreshUnavailable, .pendingLimitReached(1),
                                                  .identifierNotPermitted, .backgroundModeMissing(.fetch), .notInForeground,
                                                  .resourceUnavailable, .cannotStartNow]
        #expect(causes.map(\.code.rawValue) == [1, 1, 2, 3, 3, 3, 3, 4])
        #expect(TaskSchedulerError(.backgroundModeMissing(.processing), identifier: "x").description.hasSuffix("UIBackgroundModes does not declare \"processing\"."))
    }

    @Test func cancellingRemovesPendingRequests() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try install(system, TaskDelegate([Self.refreshID: TaskAnswer(success: true), Self.cleanID: TaskAnswer(success: true)]))
        try openAndLeave(system, news)
        try news.submit(refresh())
        try news.submit(processing())
        news.cancel(taskRequestWithIdentifier: Self.refreshID)
        #expect(news.pendingTaskRequests() == [processing()])
        news.cancelAllTaskRequests()
        #expect(news.pendingTaskRequests().isEmpty)
        clock.advance(by: .seconds(10_000))
        #expect(events(system, "taskStarted").isEmpty)
        #expect(events(system, "taskRequestCancelled").map(\.name) == [Self.refreshID, Self.cleanID])
    }

    // MARK: Refresh

    @Test func aRefreshWakesTheSuspendedAppAfterTheMinimumIntervalAndSuspendsItOnCompletion() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.refreshID: TaskAnswer(success: true)])
        let news = try install(system, delegate)
        try openAndLeave(system, news)
        clock.advance(by: .seconds(10))
        try news.submit(refresh())
        clock.advance(by: .seconds(2_000))
        #expect(delegate.runs.entries.map(\.1) == [.seconds(910)])               // 10 s + 900 s
        #expect(delegate.runs.entries.first?.2 == .background)
        let wake = try #require(system.trace.events.first { $0.time == .seconds(910) && $0.state == .background })
        #expect(wake.reason == "backgroundTask")
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(912), app: "news", kind: .taskCompleted(Self.refreshID, .success))))
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(912), app: "news",
            kind: .stateChange(.suspended, cause: .suspend(.scheduledTaskCompleted)))))
        #expect(news.pendingTaskRequests().isEmpty)
        #expect(news.applicationState == .suspended)
    }

    @Test func aRefreshWaitsForItsEarliestBeginDateAndLaunchesATerminatedApp() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.refreshID: TaskAnswer(success: false)])
        let news = try install(system, delegate)
        try openAndLeave(system, news)
        try news.submit(refresh(earliest: .seconds(3_000)))
        try system.purge(news)
        clock.advance(by: .seconds(2_999))
        #expect(delegate.runs.entries.isEmpty)
        clock.advance(by: .seconds(10))
        #expect(delegate.runs.entries.map(\.1) == [.seconds(3_000)])
        let launch = try #require(system.trace.events.first { $0.time == .seconds(3_000) && $0.state == .background })
        #expect(launch.reason == "backgroundTask")
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(3_002), app: "news", kind: .taskCompleted(Self.refreshID, .failure))))
        #expect(news.applicationState == .suspended)
    }

    @Test func aRefreshNotCompletedInThirtySecondsIsWarnedThenTerminated() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.refreshID: TaskAnswer(success: nil, completesOnExpiry: false)])
        let news = try install(system, delegate)
        try openAndLeave(system, news)
        try news.submit(refresh())
        clock.advance(by: .seconds(1_000))
        #expect(delegate.expirations.entries.map(\.1) == [.seconds(925)])
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(925), app: "news", kind: .taskExpired(Self.refreshID, .runtimeEnding))))
        #expect(events(system, "exit") == [TraceEvent(time: .seconds(930), app: "news",
                                                      kind: .exit(.backgroundFetchNotCompleted, code: 0x2182_bad4))])
    }

    @Test func aRefreshCompletedInItsExpirationHandlerIsNotTerminated() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try install(system, TaskDelegate([Self.refreshID: TaskAnswer(success: nil)]))
        try openAndLeave(system, news)
        try news.submit(refresh())
        clock.advance(by: .seconds(1_000))
        #expect(events(system, "exit").isEmpty)
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(925), app: "news", kind: .taskCompleted(Self.refreshID, .failure))))
        #expect(news.applicationState == .suspended)
    }

    @Test func completingTwiceIsIgnored() throws {
        let system = BackgroundSystem(clock: clock)
        let keeper = TaskKeeper()
        let news = try install(system, nil)
        news.delegate = keeper
        try openAndLeave(system, news)
        try news.submit(refresh())
        clock.advance(by: .seconds(1_000))
        let task = try #require(keeper.tasks.entries.first)
        task.setTaskCompleted(success: true)
        #expect(events(system, "taskCompleted").map(\.time) == [.seconds(900)])
        #expect(events(system, "taskCompletionIgnored") == [TraceEvent(time: .seconds(1_000), app: "news",
                                                                       kind: .taskCompletionIgnored(Self.refreshID))])
    }

    @Test func aTaskWithNoLaunchHandlerIsDroppedAndTheAppSuspendsBeforeIOS15_4() throws {
        var policy = BudgetPolicy.iOS13
        policy.crashesWithoutLaunchHandler = false
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let news = try install(system, TaskDelegate([:]))
        try openAndLeave(system, news)
        try news.submit(refresh())
        clock.advance(by: .seconds(1_000))
        #expect(events(system, "taskDropped") == [TraceEvent(time: .seconds(900), app: "news", kind: .taskDropped(Self.refreshID))])
        #expect(events(system, "taskDropped").first?.reason == "noLaunchHandler")
        #expect(news.applicationState == .suspended)
        #expect(news.pendingTaskRequests().isEmpty)
    }

    @Test func backgroundAppRefreshOffAndAUserKillHoldRefreshesUntilLifted() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.refreshID: TaskAnswer(success: true)])
        let news = try install(system, delegate)
        try openAndLeave(system, news)
        try news.submit(refresh())
        system.setLowPowerMode(true)
        clock.advance(by: .seconds(1_000))
        #expect(delegate.runs.entries.isEmpty)
        let explanation = try #require(system.explainPendingTaskRequest(Self.refreshID, of: news))
        #expect(explanation.blockers == [.lowPowerMode])              // the switch that is off, not the app's
        try system.killFromAppSwitcher(news)
        system.setLowPowerMode(false)                                        // t = 1000: still killed by the user
        #expect(delegate.runs.entries.isEmpty)
        #expect(system.explainPendingTaskRequest(Self.refreshID, of: news)?.blockers == [.killedByUser])
        clock.advance(by: .seconds(100))
        try system.open(news)                                                // t = 1100: no longer killed, but on screen
        #expect(system.explainPendingTaskRequest(Self.refreshID, of: news)?.blockers == [.appInForeground])
        clock.advance(by: .seconds(10))
        try system.pressHome()                                               // t = 1110: runs once the app is suspended [S87]
        #expect(delegate.runs.entries.map(\.1) == [.seconds(1_110)])
        #expect(delegate.runs.entries.map(\.2) == [.background])
    }

    // MARK: Processing

    @Test func processingWaitsForIdlePowerAndNetworkAndRunsTheMomentTheyHold() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.cleanID: TaskAnswer(success: true, work: .seconds(60))])
        let news = try install(system, delegate)
        try openAndLeave(system, news)
        try news.submit(processing(network: true, power: true, earliest: .seconds(100)))
        system.setNetworkAvailable(false)
        #expect(system.explainPendingTaskRequest(Self.cleanID, of: news)?.blockers
            == [.notBefore(.seconds(100)), .deviceNotIdle, .noExternalPower, .noNetwork])
        clock.advance(by: .seconds(200))
        system.setDeviceIdle(true)
        clock.advance(by: .seconds(10))
        system.setExternalPower(true)
        clock.advance(by: .seconds(10))
        #expect(delegate.runs.entries.isEmpty)
        system.setNetworkAvailable(true)                                     // t = 220
        #expect(delegate.runs.entries.map(\.1) == [.seconds(220)])
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(280), app: "news", kind: .taskCompleted(Self.cleanID, .success))))
        #expect(news.applicationState == .suspended)
    }

    @Test func processingExpiresWhenPowerIsLostAndIsMarkedFailedIfNotCompleted() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.cleanID: TaskAnswer(success: nil, completesOnExpiry: false)])
        let news = try install(system, delegate)
        try openAndLeave(system, news)
        system.setExternalPower(true)
        system.setDeviceIdle(true)
        try news.submit(processing(power: true))
        #expect(delegate.runs.entries.map(\.1) == [.zero])
        clock.advance(by: .seconds(50))
        #expect(news.applicationState == .background)                        // the task holds the app
        #expect(system.explain(news).holds == [.scheduledTask(Self.cleanID)])
        try news.submit(processing(power: true))
        #expect(system.explainPendingTaskRequest(Self.cleanID, of: news)?.blockers == [.alreadyRunning])
        system.setExternalPower(false)
        #expect(delegate.expirations.entries.map(\.1) == [.seconds(50)])
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(50), app: "news", kind: .taskExpired(Self.cleanID, .externalPowerLost))))
        clock.advance(by: .seconds(10))
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(55), app: "news", kind: .taskCompleted(Self.cleanID, .expiredUnfinished))))
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(55), app: "news",
            kind: .stateChange(.suspended, cause: .suspend(.scheduledTaskCompleted)))))
        #expect(events(system, "exit").isEmpty)
    }

    @Test func processingExpiresWhenTheNetworkIsLost() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.cleanID: TaskAnswer(success: nil)])
        let news = try install(system, delegate)
        try openAndLeave(system, news)
        system.setDeviceIdle(true)
        try news.submit(processing(network: true))
        clock.advance(by: .seconds(30))
        system.setNetworkAvailable(false)
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(30), app: "news", kind: .taskExpired(Self.cleanID, .networkLost))))
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(30), app: "news", kind: .taskCompleted(Self.cleanID, .failure))))
        #expect(news.applicationState == .suspended)
    }

    @Test func openingAnAppEndsIdlenessAndExpiresProcessing() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.cleanID: TaskAnswer(success: nil)])
        let news = try install(system, delegate)
        let other = try system.install(AppManifest(id: "other"))
        try openAndLeave(system, news)
        system.setDeviceIdle(true)
        try news.submit(processing())
        clock.advance(by: .seconds(40))
        try system.open(other)
        #expect(!system.isDeviceIdle)
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(40), app: "news", kind: .taskExpired(Self.cleanID, .deviceInUse))))
        #expect(news.applicationState == .suspended)
    }

    @Test func processingIsCappedAtTenMinutes() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.cleanID: TaskAnswer(success: nil, completesOnExpiry: false)])
        let news = try install(system, delegate)
        try openAndLeave(system, news)
        system.setDeviceIdle(true)
        clock.advance(by: .seconds(5))
        try news.submit(processing())
        clock.advance(by: .seconds(700))
        #expect(delegate.expirations.entries.map(\.1) == [.seconds(605)])
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(605), app: "news", kind: .taskExpired(Self.cleanID, .runtimeCap))))
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(610), app: "news", kind: .taskCompleted(Self.cleanID, .expiredUnfinished))))
        #expect(news.applicationState == .suspended)
    }

    @Test func processingDoesNotRunWhileBackgroundAppRefreshIsOff() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.cleanID: TaskAnswer(success: true)])
        let news = try install(system, delegate)
        try openAndLeave(system, news)
        system.setBackgroundAppRefresh(enabled: false)
        system.setDeviceIdle(true)
        try news.submit(processing())
        clock.advance(by: .seconds(10))
        #expect(delegate.runs.entries.isEmpty)
        system.setBackgroundAppRefresh(enabled: true)
        #expect(delegate.runs.entries.map(\.1) == [.seconds(10)])
    }

    // MARK: Explanations

    @Test func explanationsSaySentences() throws {
        // Without a handler the submit would crash the app: the older rule, under which it is pending.
        var policy = BudgetPolicy.iOS13
        policy.crashesWithoutLaunchHandler = false
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let news = try install(system, TaskDelegate([:]))
        try openAndLeave(system, news)
        try news.submit(processing(power: true))
        let explanation = try #require(system.explainPendingTaskRequest(Self.cleanID, of: news))
        #expect(explanation.blockers == [.deviceNotIdle, .noExternalPower, .notRegistered])
        #expect(explanation.description == "news's processing request \"com.example.news.clean\" (submitted at t=0.000s) has not run. "
            + "The device is not idle. It requires external power and the device is not connected to power. "
            + "The running app registered no launch handler for it, so it will be dropped when it runs.")
        #expect(system.explainPendingTaskRequest("com.example.none", of: news) == nil)
    }

    // MARK: Resubmission, holds, the foreground

    @Test func aRefreshResubmittedInItsHandlerRunsAgainAfterTheMinimumInterval() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ResubmittingDelegate(refresh(), work: .seconds(2))
        let news = try install(system, nil)
        news.delegate = delegate
        try openAndLeave(system, news)
        try news.submit(refresh())
        clock.advance(by: .seconds(2_800))
        #expect(delegate.runs.entries == [.seconds(900), .seconds(1_800), .seconds(2_700)])
        #expect(news.pendingTaskRequests() == [refresh()])
    }

    /// The BackgroundTasks framework takes an app from suspended or not running to running in the
    /// background [S87]: a refresh due while the app stays on screen waits, and never ends it.
    @Test func aRefreshDueWhileTheAppIsOnScreenWaitsUntilItIsSuspendedAndNeverEndsIt() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.refreshID: TaskAnswer(success: true)])
        let news = try install(system, delegate)
        try system.open(news)
        try news.submit(refresh())
        clock.advance(by: .seconds(930))                                     // due at 900; 930 would be its kill
        #expect(delegate.runs.entries.isEmpty)
        #expect(news.applicationState == .active)
        #expect(events(system, "taskStarted").isEmpty && events(system, "exit").isEmpty)
        #expect(system.explainPendingTaskRequest(Self.refreshID, of: news)?.blockers == [.appInForeground])
        clock.advance(to: .seconds(1_000))
        try system.pressHome()                                               // suspended, then woken for the task
        #expect(delegate.runs.entries.map(\.1) == [.seconds(1_000)])
        #expect(delegate.runs.entries.map(\.2) == [.background])
        let atHome = system.trace.events.filter { $0.time == .seconds(1_000) }.map(\.eventName)
        #expect(atHome == ["applicationWillResignActive", "stateChange", "stateChange", "applicationDidEnterBackground", "stateChange",
                           "stateChange", "applicationDidEnterBackground", "taskStarted"])
        clock.advance(by: .seconds(2))
        #expect(events(system, "taskCompleted").map(\.time) == [.seconds(1_002)])
        #expect(news.applicationState == .suspended)
    }

    @Test func deviceConditionsStartConnectedUnpoweredAndBusy() {
        let system = BackgroundSystem(clock: clock)
        #expect(system.isNetworkAvailable && !system.isOnExternalPower && !system.isDeviceIdle)
        system.setExternalPower(true)
        system.setDeviceIdle(true)
        system.setNetworkAvailable(false)
        #expect(!system.isNetworkAvailable && system.isOnExternalPower && system.isDeviceIdle)
    }

    @Test func aRequestResubmittedWhileItsTaskRunsRunsWhenTheTaskEnds() throws {
        /// Keeps the processing tasks it is handed, uncompleted.
        final class Holder: ApplicationDelegate {
            let tasks = TestLog<ScheduledTask>()
            func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
                application.register(forTaskWithIdentifier: TaskSchedulerTests.cleanID) { [tasks] in tasks.append($0) }
            }
        }
        let system = BackgroundSystem(clock: clock)
        let holder = Holder()
        let app = try system.install(AppManifest(id: "holder", backgroundModes: [.processing], permittedTaskIdentifiers: [Self.cleanID]),
                                     delegate: holder)
        try openAndLeave(system, app)
        system.setDeviceIdle(true)
        try app.submit(processing())
        clock.advance(by: .seconds(10))
        try app.submit(processing())                                        // waits: the task runs
        #expect(system.explainPendingTaskRequest(Self.cleanID, of: app)?.blockers == [.alreadyRunning])
        clock.advance(by: .seconds(20))
        try #require(holder.tasks.entries.first).setTaskCompleted(success: true)
        #expect(events(system, "taskStarted").map(\.time) == [.zero, .seconds(30)])
        #expect(holder.tasks.entries.count == 2)
        #expect(app.pendingTaskRequests().isEmpty)
    }

    @Test func anAppThatExitsOnSuspendNeverRunsItsRequests() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = TaskDelegate([Self.refreshID: TaskAnswer(success: true), Self.cleanID: TaskAnswer(success: true)])
        let old = try system.install(AppManifest(id: "old", exitsOnSuspend: true, backgroundModes: [.fetch, .processing],
                                                 permittedTaskIdentifiers: [Self.refreshID, Self.cleanID]), delegate: delegate)
        try system.open(old)
        try old.submit(refresh())
        try old.submit(processing())
        try system.pressHome()                                                // exits
        system.setExternalPower(true)
        system.setDeviceIdle(true)
        clock.advance(by: .seconds(86_400))
        #expect(delegate.runs.entries.isEmpty)
        #expect(old.applicationState == .notRunning)
        #expect(system.explainPendingTaskRequest(Self.refreshID, of: old)?.blockers == [.exitsOnSuspend])
        #expect(system.explainPendingTaskRequest(Self.cleanID, of: old)?.blockers == [.exitsOnSuspend])
        // On screen no task starts either [S87]: the app never runs its requests.
        try system.open(old)
        clock.advance(by: .seconds(60))
        #expect(delegate.runs.entries.isEmpty)
        #expect(system.explainPendingTaskRequest(Self.refreshID, of: old)?.blockers == [.exitsOnSuspend, .appInForeground])
        #expect(system.explainPendingTaskRequest(Self.cleanID, of: old)?.blockers == [.exitsOnSuspend, .appInForeground, .deviceNotIdle])
    }
}
