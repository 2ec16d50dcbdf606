import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// Finite background tasks on the virtual clock, with exact instants.
@Suite struct BackgroundTaskTests {
    let clock = VirtualClock()

    private func system(_ policy: BudgetPolicy = .iOS13) throws -> BackgroundSystem {
        try BackgroundSystem(policy: policy, clock: clock)
    }

    /// Installs and launches an app whose didEnterBackground begins one task that is never ended.
    private func launchUploader(on system: BackgroundSystem, handlerCalls: TestLog<BudgetInstant>? = nil) throws -> Application {
        let clock = self.clock
        let delegate = ScriptedDelegate()
        delegate.on(.didEnterBackground) { app in
            app.beginBackgroundTask(withName: "upload") { handlerCalls?.append(clock.now) }
        }
        let app = try system.install(AppManifest(id: "news"), delegate: delegate)
        try system.open(app)
        return app
    }

    @Test(arguments: [(BudgetPolicy.iOS13, 25, 30, UInt32(0x2182_bad2)), (.iOS7, 175, 180, 0x8bad_f00d), (.iOS4, 595, 600, 0x8bad_f00d)])
    func aTaskNeverEndedGetsItsHandlerThenKillsTheApp(policy: BudgetPolicy, warning: Int64, expiry: Int64, code: UInt32) throws {
        let system = try system(policy)
        let calls = TestLog<BudgetInstant>()
        let app = try launchUploader(on: system, handlerCalls: calls)
        clock.advance(by: .seconds(10))
        try system.pressHome()
        #expect(app.applicationState == .background)
        clock.advance(by: .seconds(1000))

        #expect(calls.entries == [.seconds(10 + warning)])
        #expect(system.trace.instants(of: .expirationHandlerCalled) == [.seconds(10 + warning)])
        let exit = try #require(system.trace.first(.exit))
        #expect(exit.time == .seconds(10 + expiry))
        #expect(exit.kind == .exit(.backgroundTaskExpired, code: code))
        #expect(app.applicationState == .notRunning)
        #expect(clock.pendingCount == 0)
        system.expectNothingPending()
    }

    @Test func endingTheLastTaskSuspendsTheAppAndCancelsItsTimers() throws {
        let system = try system()
        let app = try system.install(AppManifest(id: "news"))
        try system.open(app)
        let task = app.beginBackgroundTask(withName: "save")
        try system.pressHome()
        #expect(app.applicationState == .background)
        #expect(clock.pendingCount == 2)   // warning and expiry
        clock.advance(by: .seconds(12))
        app.endBackgroundTask(task)
        #expect(app.applicationState == .suspended)
        #expect(system.trace.events.last == TraceEvent(time: .seconds(12), app: "news",
                                                       kind: .stateChange(.suspended, cause: .suspend(.backgroundTasksEnded))))
        #expect(clock.pendingCount == 0)
        clock.advance(by: .seconds(60))
        #expect(!system.trace.contains(any: .exit, .expirationHandlerCalled))
        system.expectNothingPending()
    }

    @Test func anExpirationHandlerThatEndsItsTaskAvoidsTermination() throws {
        let system = try system()
        let app = try system.install(AppManifest(id: "news"))
        try system.open(app)
        let id = LockedValue(BackgroundTaskIdentifier.invalid)
        let task = app.beginBackgroundTask(withName: "upload") { app.endBackgroundTask(id.withLock { $0 }) }
        id.withLock { $0 = task }
        try system.pressHome()
        clock.advance(by: .seconds(100))
        #expect(app.applicationState == .suspended)
        #expect(system.trace.instants(of: .backgroundTaskEnded) == [.seconds(25)])
        #expect(system.trace.states(for: "news").last == .suspended)
        #expect(!system.trace.contains(any: .exit))
    }

    @Test func theAllowanceIsSharedByAllTasksAndHandlersRunInBeginOrder() throws {
        let system = try system()
        let order = TestLog<String>()
        let app = try system.install(AppManifest(id: "news"))
        try system.open(app)
        try system.pressHome()                                 // suspended: nothing open
        try system.open(app)
        app.beginBackgroundTask(withName: "a") { order.append("a") }
        try system.pressHome()                                 // t = 0: allowance starts
        clock.advance(by: .seconds(20))
        let b = app.beginBackgroundTask(withName: "b") { order.append("b") }
        #expect(b != .invalid)
        #expect(app.backgroundTimeRemaining == 10)
        clock.advance(by: .seconds(5))                         // t = 25: both handlers, a first
        #expect(order.entries == ["a", "b"])
        clock.advance(by: .seconds(5))
        #expect(system.trace.last(.exit)?.time == .seconds(30))
    }

    /// Expiration handlers together get ``BudgetPolicy/expirationHandlerLimit`` (1 s): one that works
    /// 2 s is killed at the warning + 1 s with the expiry code; one that works 0.5 s and ends its task
    /// lets the app suspend [S17].
    @Test func anExpirationHandlerRunningPastItsLimitIsKilledWithTheExpiryCode() throws {
        let system = try system()
        let slow = try system.install(AppManifest(id: "slow"))
        try system.open(slow)
        slow.beginBackgroundTask(withName: "upload") { slow.simulateWork(for: .seconds(2)) }
        try system.pressHome()                                 // t = 0: the warning is due at 25 s
        clock.advance(by: .seconds(100))
        #expect(system.trace.instants(of: .expirationHandlerCalled) == [.seconds(25)])
        let exit = try #require(system.trace.first(.exit, for: "slow"))
        #expect(exit.time == .seconds(26))
        #expect(exit.kind == .exit(.backgroundTaskExpired, code: 0x2182_bad2))

        let quick = try system.install(AppManifest(id: "quick"))
        try system.open(quick)
        let task = LockedValue(BackgroundTaskIdentifier.invalid)
        let begun = quick.beginBackgroundTask(withName: "upload") {
            quick.simulateWork(for: .milliseconds(500))
            quick.endBackgroundTask(task.withLock { $0 })
        }
        task.withLock { $0 = begun }
        try system.pressHome()                                 // t = 100: the warning is due at 125 s
        clock.advance(by: .seconds(100))
        #expect(system.trace.first(.exit, for: "quick") == nil)
        #expect(quick.applicationState == .suspended)
    }

    @Test func aTaskBegunAfterTheWarningGetsItsHandlerAtOnce() throws {
        let system = try system()
        let calls = TestLog<BudgetInstant>()
        let app = try launchUploader(on: system)
        try system.pressHome()
        clock.advance(by: .seconds(27))
        let clock = self.clock
        app.beginBackgroundTask(withName: "late") { calls.append(clock.now) }
        clock.advance(by: .zero)
        #expect(calls.entries == [.seconds(27)])
    }

    @Test func tasksBegunInTheForegroundStayDormantUntilTheAppLeaves() throws {
        let system = try system()
        let app = try system.install(AppManifest(id: "news"))
        try system.open(app)
        let task = app.beginBackgroundTask(withName: "sync")
        #expect(app.backgroundTimeRemaining == .greatestFiniteMagnitude)
        clock.advance(by: .seconds(100))
        // Open longer than the allowance while in the foreground: a warning, once, at 30 s.
        #expect(system.trace.events(of: .backgroundTaskOpenTooLong)
            == [TraceEvent(time: .seconds(30), app: "news", kind: .backgroundTaskOpenTooLong(task))])
        try system.pressHome()
        #expect(app.backgroundTimeRemaining == 30)
        expectTrace(Trace(events: Array(system.trace.events.suffix(3))), app: "news", [
            .state(.background), .any(.allowanceStarted), .callback(.didEnterBackground),
        ], comparing: .everyEntry)
        #expect(system.trace.events.contains(TraceEvent(time: .seconds(100), app: "news", kind: .allowanceStarted(expiresAt: .seconds(130)))))
        clock.advance(by: .seconds(30))
        #expect(system.trace.last(.exit)?.time == .seconds(130))
    }

    @Test func theAllowanceResetsOnReturnToTheForegroundUnlessThePolicySaysOtherwise() throws {
        for resets in [true, false] {
            let clock = VirtualClock()
            var policy = BudgetPolicy.iOS13
            policy.allowanceResetsOnForeground = resets
            let system = try BackgroundSystem(policy: policy, clock: clock)
            let app = try system.install(AppManifest(id: "news"))
            try system.open(app)
            app.beginBackgroundTask(withName: "long")
            try system.pressHome()
            clock.advance(by: .seconds(20))                    // 20 s spent
            try system.open(app)
            clock.advance(by: .seconds(5))
            try system.pressHome()                             // t = 25
            #expect(app.backgroundTimeRemaining == (resets ? 30 : 10))
            clock.advance(by: .seconds(60))
            #expect(system.trace.last(.exit)?.time == .seconds(resets ? 55 : 35))
        }
    }

    @Test func beginIsDeniedWithAReasonWhenNoTaskCanBeGranted() throws {
        var policy = BudgetPolicy.iOS13
        policy.didEnterBackgroundLimit = .seconds(60)
        let system = try system(policy)
        let results = TestLog<Result<BackgroundTaskIdentifier, BackgroundTaskDenial>>()
        let delegate = ScriptedDelegate()
        delegate.on(.didEnterBackground) { app in
            app.simulateWork(for: .seconds(31))                // the whole allowance goes by in the callback
            results.append(app.requestBackgroundTask(withName: "too late"))
        }
        let app = try system.install(AppManifest(id: "news"), delegate: delegate)
        #expect(app.requestBackgroundTask() == .failure(.notRunning))
        try system.open(app)
        try system.pressHome()
        #expect(results.entries == [.failure(.allowanceSpent)])
        #expect(app.applicationState == .suspended)
        #expect(app.requestBackgroundTask() == .failure(.suspended))
        #expect(app.beginBackgroundTask() == .invalid)
        #expect(system.trace.events.last == TraceEvent(time: .seconds(31), app: "news", kind: .backgroundTaskDenied(name: nil, .suspended)))

        let old = try system.install(AppManifest(id: "old", exitsOnSuspend: true))
        try system.open(old)
        #expect(old.requestBackgroundTask() == .failure(.exitsOnSuspend))
    }

    @Test func endingTwiceOrEndingAnUnknownTaskIsReportedNotFatal() throws {
        let system = try system()
        let app = try system.install(AppManifest(id: "news"))
        try system.open(app)
        let task = app.beginBackgroundTask()
        app.endBackgroundTask(task)
        app.endBackgroundTask(task)
        app.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 99))
        app.endBackgroundTask(.invalid)
        #expect(system.trace.events.suffix(3).map(\.kind) == [
            .backgroundTaskEndIgnored(task, .alreadyEnded),
            .backgroundTaskEndIgnored(BackgroundTaskIdentifier(rawValue: 99), .unknownTask),
            .backgroundTaskEndIgnored(.invalid, .invalidIdentifier),
        ])
        #expect(app.applicationState == .active)
    }

    @Test func oneAssertionOverTheCapTerminatesTheApp() throws {
        var policy = BudgetPolicy.iOS13
        policy.maxOpenBackgroundTasks = 3
        let system = try system(policy)
        let app = try system.install(AppManifest(id: "news"))
        try system.open(app)
        for _ in 0..<3 { #expect(app.beginBackgroundTask() != .invalid) }
        #expect(app.requestBackgroundTask(withName: "one too many") == .failure(.tooManyTasks))
        #expect(app.applicationState == .notRunning)
        #expect(system.trace.events.contains { $0.kind == .exit(.tooManyBackgroundTasks, code: 0xbada_5e47) })
        #expect(BudgetPolicy.iOS13.maxOpenBackgroundTasks == 1000)
    }
}

@Suite struct ReadmeExampleTests {
    @Test func anUnendedUploadIsKilledThirtySecondsAfterHome() throws {
        let clock = VirtualClock()
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)
        let app = try system.install(AppManifest(id: "com.example.news"))
        try system.open(app)
        app.beginBackgroundTask(withName: "upload")
        clock.advance(by: .seconds(10))
        try system.pressHome()
        clock.advance(by: .seconds(60))
        #expect(system.trace.first(.expirationHandlerCalled)?.time == .seconds(35))
        #expect(system.trace.first(.exit)?.kind == .exit(.backgroundTaskExpired, code: 0x2182_bad2))
    }
}
