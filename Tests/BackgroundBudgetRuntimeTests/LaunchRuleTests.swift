import Dispatch
import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// Issue 13's rules on a whole system, with the exact trace entries: the launch watchdog [S23], a
/// launch handler registered after launch crashes the app [S51][S98], and a `BGTaskScheduler` task
/// that expires with no expiration handler is completed unsuccessfully at once [S49].
@Suite struct LaunchRuleTests {
    /// The clock every test advances.
    let clock = VirtualClock()
    /// A permitted refresh identifier.
    static let refreshID = "com.example.news.refresh"
    /// A permitted processing identifier.
    static let cleanID = "com.example.news.clean"
    /// The message of the exception a late registration raises.
    static let message = "All launch handlers must be registered before application finishes launching"

    /// Installs "news" with both identifiers permitted and the fetch and processing modes.
    private func install(_ system: BackgroundSystem, _ delegate: any ApplicationDelegate) throws -> Application {
        try system.install(AppManifest(id: "news", backgroundModes: [.fetch, .processing],
                                       permittedTaskIdentifiers: [Self.refreshID, Self.cleanID]), delegate: delegate)
    }

    /// The kinds of the trace entries at one instant, in order.
    private func entries(_ system: BackgroundSystem, at time: BudgetInstant) -> [TraceEvent.Kind] {
        system.trace.events.filter { $0.time == time }.map(\.kind)
    }

    // MARK: Launch watchdog

    @Test func aSlowLaunchSplitAcrossWillFinishAndDidFinishIsKilledTwentySecondsAfterItStarted() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.willFinishLaunching) { app in app.simulateWork(for: .seconds(12)) }
        delegate.on(.didFinishLaunching) { app in app.simulateWork(for: .seconds(9)) }
        let news = try install(system, delegate)
        clock.advance(by: .seconds(100))
        try system.open(news)
        clock.advance(by: .seconds(60))
        #expect(entries(system, at: .seconds(120)) == [
            .exit(.watchdog, code: 0x8bad_f00d), .killedMidCallback(.didFinishLaunching),
            .stateChange(.notRunning, cause: .kill(.watchdog)),
        ])
        #expect(system.trace.events.first { $0.kind == .exit(.watchdog, code: 0x8bad_f00d) }?.code == "0x8badf00d")
        #expect(delegate.times(of: .lifecycle(.didBecomeActive)).isEmpty)
        #expect(news.applicationState == .notRunning)
    }

    @Test func aLaunchThatBecomesActiveWithinTheLimitIsNotKilled() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.willFinishLaunching) { app in app.simulateWork(for: .seconds(10)) }
        delegate.on(.didFinishLaunching) { app in app.simulateWork(for: .seconds(9)) }
        let news = try install(system, delegate)
        try system.open(news)
        clock.advance(by: .seconds(60))
        #expect(delegate.times(of: .lifecycle(.didBecomeActive)) == [.seconds(19)])
        #expect(!system.trace.contains(any: .exit))
        #expect(news.applicationState == .active)
    }

    @Test func theLaunchLimitIsAValidatedPolicyNumberInEveryPreset() throws {
        #expect(BudgetPolicy.presets.map(\.launchWatchdog) == [.seconds(20), .seconds(20), .seconds(20)])
        var policy = BudgetPolicy.iOS13
        policy.launchWatchdog = .zero
        #expect(throws: PolicyError(field: .launchWatchdog, problem: .notPositive(0))) { try policy.validate() }
        #expect(try BudgetPolicy.iOS13.setting(.launchWatchdog, to: 8).launchWatchdog == .seconds(8))
        let system = try BackgroundSystem(policy: BudgetPolicy.iOS13.setting(.launchWatchdog, to: 8), clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { app in app.simulateWork(for: .seconds(9)) }
        let news = try install(system, delegate)
        try system.open(news)
        clock.advance(by: .seconds(60))
        #expect(system.trace.instants(of: .exit) == [.seconds(8)])
    }

    // MARK: Registration after launch

    @Test func registeringFromDidBecomeActiveCrashesTheAppAndRunsNoMoreOfItsCode() throws {
        let system = BackgroundSystem(clock: clock)
        let observed = TestLog<AppCallback>()
        let delegate = ScriptedDelegate()
        delegate.on(.didBecomeActive) { app in
            app.simulateWork(for: .seconds(2))
            #expect(!app.register(forTaskWithIdentifier: Self.cleanID) { _ in })
        }
        let news = try install(system, delegate)
        news.addObserver { observed.append($0) }
        try system.open(news)
        clock.advance(by: .seconds(10))
        #expect(entries(system, at: .seconds(2)) == [
            .taskRegistrationRejected(Self.cleanID, .afterLaunch), .exit(.uncaughtException, code: nil),
            .killedMidCallback(.didBecomeActive), .stateChange(.notRunning, cause: .kill(.uncaughtException)),
        ])
        let line = try #require(system.trace.events.first { $0.eventName == "taskRegistrationRejected" }?.jsonLine)
        #expect(line == #"{"t":2.000,"app":"news","event":"taskRegistrationRejected","name":"com.example.news.clean","reason":"afterLaunch","message":"\#(Self.message)"}"#)
        // didBecomeActive's observers never run: the process died inside it.
        #expect(observed.entries == [.willFinishLaunching, .didFinishLaunching])
        #expect(news.applicationState == .notRunning)
    }

    @Test func registeringFromWillResignActiveCrashesTheAppBeforeItEntersTheBackground() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.willResignActive) { app in _ = app.register(forTaskWithIdentifier: Self.refreshID) { _ in } }
        let news = try install(system, delegate)
        try system.open(news)
        clock.advance(by: .seconds(5))
        try system.pressHome()
        #expect(entries(system, at: .seconds(5)) == [
            // The steps after willResignActive never ran, so they are not in the trace.
            .callback(.willResignActive),
            .taskRegistrationRejected(Self.refreshID, .afterLaunch), .exit(.uncaughtException, code: nil),
            .killedMidCallback(.willResignActive), .stateChange(.notRunning, cause: .kill(.uncaughtException)),
        ])
        #expect(delegate.times(of: .lifecycle(.didEnterBackground)).isEmpty)
    }

    @Test func registeringInDidFinishLaunchingStillSucceeds() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        let results = TestLog<Bool>()
        delegate.on(.willFinishLaunching) { app in results.append(app.register(forTaskWithIdentifier: Self.refreshID) { _ in }) }
        delegate.on(.didFinishLaunching) { app in results.append(app.register(forTaskWithIdentifier: Self.cleanID) { _ in }) }
        let news = try install(system, delegate)
        try system.open(news)
        #expect(results.entries == [true, true])
        #expect(!system.trace.contains(any: .exit))
    }

    // MARK: Expiry without a handler

    /// Registers handlers that never complete their task and never set an expiration handler.
    private func silentDelegate() -> ScriptedDelegate {
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { app in
            for identifier in [Self.refreshID, Self.cleanID] { app.register(forTaskWithIdentifier: identifier) { _ in } }
        }
        return delegate
    }

    @Test func aRefreshWithoutExpirationHandlerIsCompletedUnsuccessfullyWhenItExpiresAndTheAppLives() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try install(system, silentDelegate())
        try system.open(news)
        try system.pressHome()
        try news.submit(TaskRequest(identifier: Self.refreshID, kind: .appRefresh))
        clock.advance(by: .seconds(1_000))
        #expect(entries(system, at: .seconds(925)) == [
            .taskExpired(Self.refreshID, .runtimeEnding), .taskCompleted(Self.refreshID, .expiredUnfinished),
            .stateChange(.suspended, cause: .suspend(.scheduledTaskCompleted)),
        ])
        #expect(!system.trace.contains(any: .exit))
        #expect(news.applicationState == .suspended)
    }

    @Test func aProcessingTaskWithoutExpirationHandlerGetsNoGrace() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try install(system, silentDelegate())
        try system.open(news)
        try system.pressHome()
        system.setExternalPower(true)
        system.setDeviceIdle(true)
        try news.submit(TaskRequest(identifier: Self.cleanID, kind: .processing(requiresNetworkConnectivity: false, requiresExternalPower: true)))
        clock.advance(by: .seconds(50))
        system.setExternalPower(false)
        #expect(entries(system, at: .seconds(50)) == [
            .deviceChanged(.externalPower(false)),
            .taskExpired(Self.cleanID, .externalPowerLost), .taskCompleted(Self.cleanID, .expiredUnfinished),
            .stateChange(.suspended, cause: .suspend(.scheduledTaskCompleted)),
        ])
    }

    @Test func aHandlerSetThenClearedCountsAsNone() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { app in
            app.register(forTaskWithIdentifier: Self.refreshID) { task in
                task.expirationHandler = { task.setTaskCompleted(success: false) }
                task.expirationHandler = nil
            }
        }
        let news = try install(system, delegate)
        try system.open(news)
        try system.pressHome()
        try news.submit(TaskRequest(identifier: Self.refreshID, kind: .appRefresh))
        clock.advance(by: .seconds(1_000))
        #expect(system.trace.instants(of: .taskCompleted) == [.seconds(925)])
        #expect(!system.trace.contains(any: .exit))
    }
}

/// The registration crash on the real clock: the app's queue is a dispatch queue, and the crash still
/// stops the app's code in the callback that registered.
@Suite(.tags(.realTime), .serialized, LongRun.only)
struct LaunchRuleRealTimeTests {
    @Test func registeringFromDidBecomeActiveCrashesTheAppOnTheRealClock() throws {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let system = BackgroundSystem(clock: clock)
        let observed = TestLog<AppCallback>()
        let registrations = TestLog<Bool>()
        let delegate = ScriptedDelegate { callback, app in
            // Only the first process registers late.
            guard callback == .didBecomeActive, registrations.entries.isEmpty else { return }
            registrations.append(app.register(forTaskWithIdentifier: LaunchRuleTests.cleanID) { _ in })
        }
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.processing],
                                                  permittedTaskIdentifiers: [LaunchRuleTests.cleanID]), delegate: delegate)
        news.addObserver { observed.append($0) }
        try system.open(news)
        // The exit is decided inside `register`, so the app is not running before `register` has
        // returned `false` to the callback: wait for both.
        #expect(waitUntil(seconds: 5) { system.state(of: news) == .notRunning && !registrations.entries.isEmpty })
        #expect(registrations.entries == [false])
        #expect(system.trace.events.map(\.kind).suffix(4) == [
            .taskRegistrationRejected(LaunchRuleTests.cleanID, .afterLaunch), .exit(.uncaughtException, code: nil),
            .killedMidCallback(.didBecomeActive), .stateChange(.notRunning, cause: .kill(.uncaughtException)),
        ])
        // The next launch runs on the same serial queue after the crashed callback's work item, so
        // once it is active, everything the first process could still have run has had its turn.
        try system.open(news)
        #expect(waitUntil(seconds: 5) { news.applicationState == .active })
        #expect(observed.entries == [.willFinishLaunching, .didFinishLaunching, .willFinishLaunching, .didFinishLaunching, .didBecomeActive])
    }
}
