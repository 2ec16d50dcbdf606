import BudgetTime
@testable import BackgroundBudgetCore
@testable import BudgetClock
import Testing

/// Refresh and processing tasks start only from the background: the system takes the app from
/// suspended or not running to running in the background for them [S87]. Driven on the pure core,
/// with the trace each case leaves, at exact instants. Every case launches the app into the
/// foreground at 0 s with its refresh and processing handlers registered, and submits a refresh at
/// 1 s, due at 901 s.
@Suite struct DeviceCoreBackgroundStartTests {
    static let app: AppID = "com.example.core"
    static let refreshID = "com.example.core.refresh"
    static let cleanID = "com.example.core.clean"
    static let manifest = AppManifest(id: app, backgroundModes: [.fetch, .processing], permittedTaskIdentifiers: [refreshID, cleanID])
    /// The refresh submitted at 1 s may run from here.
    static let due = BudgetInstant.seconds(901)

    /// A core with the app on screen since 0 s and a refresh submitted at 1 s.
    static func onScreenWithRefresh() throws -> DeviceCore {
        var core = DeviceCore(policy: .iOS13)
        try core.install(manifest)
        _ = try core.apply(.launch, to: app, at: .zero)
        _ = core.registerTask(refreshID, finishingLaunch: true, app: app, at: .zero)
        _ = core.registerTask(cleanID, finishingLaunch: true, app: app, at: .zero)
        settle(&core, at: .zero)
        _ = core.submitTask(TaskRequest(identifier: refreshID, kind: .appRefresh), app: app, at: .seconds(1))
        return core
    }

    /// Records the steps the core holds for the app and settles every delivery, as the app's queue
    /// would (callbacks return at once).
    static func settle(_ core: inout DeviceCore, at now: BudgetInstant) {
        let s = core.slot(app)
        DeviceCoreLaunchRuleTests.runHeldSteps(&core, at: now)
        while core.records[s].inFlight > 0 {
            _ = core.settle(app, incarnation: core.records[s].incarnation, at: now)
            DeviceCoreLaunchRuleTests.runHeldSteps(&core, at: now)
        }
    }

    /// The app suspended at 5 s, its refresh running since 901 s with an expiration handler set.
    static func refreshRunningWithHandler() throws -> DeviceCore {
        var core = try onScreenWithRefresh()
        _ = try core.apply(.pressHome, to: app, at: .seconds(5))
        settle(&core, at: .seconds(5))
        fire(.taskRequestDue, &core, at: due)
        _ = core.scheduledTaskHandlerSet(app: app, task: 1, set: true)
        return core
    }

    /// Fires the app's timer, if it is armed, with its current token, and settles what follows.
    static func fire(_ timer: AppTimer, _ core: inout DeviceCore, at now: BudgetInstant) {
        guard let token = core.records[core.slot(app)].timerTokens[timer] else { return }
        _ = core.timerFired(timer, app: app, token: token, at: now)
        settle(&core, at: now)
    }

    /// The trace's kinds for the app at one instant.
    static func kinds(_ core: DeviceCore, at instant: BudgetInstant) -> [TraceEvent.Kind] {
        core.trace.events.filter { $0.time == instant && $0.app == app }.map(\.kind)
    }

    @Test func aRefreshDueOnScreenWaitsAndNeverEndsTheApp() throws {
        var core = try Self.onScreenWithRefresh()
        Self.fire(.taskRequestDue, &core, at: Self.due)
        #expect(Self.kinds(core, at: Self.due).isEmpty)
        #expect(core.state(of: Self.app) == .active)
        #expect(core.explainTaskRequest(Self.refreshID, app: Self.app, at: Self.due)?.blockers == [.appInForeground])
        // Nothing is armed for it while the app stays on screen: no start at 900 s, no kill at 930 s.
        #expect(core.records[core.slot(Self.app)].timerTokens[.taskDeadline] == nil)
        #expect(!core.trace.events.contains { $0.eventName == "taskStarted" || $0.eventName == "exit" })
    }

    @Test func aRefreshThatWaitedOnScreenStartsTheMomentTheAppIsSuspended() throws {
        var core = try Self.onScreenWithRefresh()
        Self.fire(.taskRequestDue, &core, at: Self.due)
        let home = BudgetInstant.seconds(1_000)
        _ = try core.apply(.pressHome, to: Self.app, at: home)
        Self.settle(&core, at: home)
        #expect(Self.kinds(core, at: home) == [
            .callback(.willResignActive), .stateChange(.inactive, cause: .pressHome),
            .stateChange(.background, cause: .pressHome), .callback(.didEnterBackground),
            .stateChange(.suspended, cause: .suspend(.noBackgroundWork)),
            .stateChange(.background, cause: .wake(.backgroundTask)), .callback(.didEnterBackground),
            .taskStarted(Self.refreshID),
        ])
        #expect(core.state(of: Self.app) == .background)
    }

    @Test func aRefreshThatWaitedForAFiniteTaskStartsWhenTheTaskEndsAndTheAppIsSuspended() throws {
        var core = try Self.onScreenWithRefresh()
        let begin = BudgetInstant.seconds(890)
        _ = core.beginBackgroundTask(Self.app, name: "upload", at: begin)
        _ = try core.apply(.pressHome, to: Self.app, at: begin)
        Self.settle(&core, at: begin)
        Self.fire(.taskRequestDue, &core, at: Self.due)
        #expect(core.state(of: Self.app) == .background)
        #expect(core.explainTaskRequest(Self.refreshID, app: Self.app, at: Self.due)?.blockers == [.appRunningInBackground])
        let end = BudgetInstant.seconds(905)
        _ = core.endBackgroundTask(Self.app, BackgroundTaskIdentifier(rawValue: 1), at: end)
        Self.settle(&core, at: end)
        #expect(Self.kinds(core, at: end) == [
            .backgroundTaskEnded(BackgroundTaskIdentifier(rawValue: 1)),
            .stateChange(.suspended, cause: .suspend(.backgroundTasksEnded)),
            .stateChange(.background, cause: .wake(.backgroundTask)), .callback(.didEnterBackground),
            .taskStarted(Self.refreshID),
        ])
    }

    @Test func aProcessingTaskDueDuringARefreshOfTheSameLaunchJoinsIt() throws {
        var core = try Self.onScreenWithRefresh()
        _ = try core.apply(.pressHome, to: Self.app, at: .seconds(5))
        Self.settle(&core, at: .seconds(5))
        Self.fire(.taskRequestDue, &core, at: Self.due)
        #expect(Self.kinds(core, at: Self.due).last == .taskStarted(Self.refreshID))
        let idle = Self.due + .seconds(10)
        _ = core.submitTask(TaskRequest(identifier: Self.cleanID, kind: .processing(requiresNetworkConnectivity: false, requiresExternalPower: false)),
                            app: Self.app, at: idle)
        _ = core.changeConditions(at: idle) { $0.deviceIdle = true }
        Self.settle(&core, at: idle)
        // The same background run: no suspension or wake in between [S58].
        #expect(Self.kinds(core, at: idle).filter { $0 != .deviceChanged(.idle(true)) }
                == [.taskSubmitted(Self.cleanID), .taskStarted(Self.cleanID)])
    }

    @Test func aRefreshRunningWhenTheUserOpensTheAppIsWarnedThenMarkedFailedNotKilled() throws {
        var core = try Self.refreshRunningWithHandler()
        let open = Self.due + .seconds(10)
        _ = try core.apply(.enterForeground, to: Self.app, at: open)
        Self.settle(&core, at: open)
        #expect(core.state(of: Self.app) == .active)
        Self.fire(.taskDeadline, &core, at: Self.due + .seconds(25))
        #expect(Self.kinds(core, at: Self.due + .seconds(25)) == [.taskExpired(Self.refreshID, .runtimeEnding)])
        Self.fire(.taskDeadline, &core, at: Self.due + .seconds(30))
        #expect(Self.kinds(core, at: Self.due + .seconds(30)) == [.taskCompleted(Self.refreshID, .expiredUnfinished)])
        #expect(core.state(of: Self.app) == .active)
        #expect(!core.trace.events.contains { $0.eventName == "exit" })
    }

    @Test func aRefreshStillRunningInTheBackgroundAtItsEndStillTerminatesTheApp() throws {
        var core = try Self.refreshRunningWithHandler()
        Self.fire(.taskDeadline, &core, at: Self.due + .seconds(25))
        Self.fire(.taskDeadline, &core, at: Self.due + .seconds(30))
        #expect(Self.kinds(core, at: Self.due + .seconds(30)).first == .exit(.backgroundFetchNotCompleted, code: 0x2182_bad4))
    }
}
