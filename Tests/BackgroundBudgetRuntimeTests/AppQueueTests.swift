import Dispatch
import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BackgroundBudgetScenario
import BudgetClock
import JobBudgets

/// Its deinit reads the system, which takes the system's lock.
final class LockProbe: Sendable {
    let system: BackgroundSystem
    let deinits: TestLog<Int>
    init(_ system: BackgroundSystem, _ deinits: TestLog<Int>) {
        self.system = system
        self.deinits = deinits
    }
    deinit { deinits.append(system.trace.events.count) }
}

/// Queues work from applicationDidEnterBackground without a background task.
final class LateWorkDelegate: ApplicationDelegate {
    let log = TestLog<String>()
    func applicationDidEnterBackground(_ application: Application) {
        application.async { [log] in log.append("work runs while \(application.applicationState)") }
    }
}

/// App queues: closures released outside the system lock, and work queued without a task held until the app runs.
@Suite struct AppQueueTests {
    @Test func handlersAreReleasedOutsideTheSystemLock() throws {
        let system = BackgroundSystem(clock: VirtualClock())
        let deinits = TestLog<Int>()
        let app = try system.install(AppManifest(id: "a"))
        try system.open(app)
        var probe: LockProbe? = LockProbe(system, deinits)
        let task = app.beginBackgroundTask(withName: "t") { [probe] in _ = probe }
        probe = nil
        app.endBackgroundTask(task)     // the handler was the probe's last owner: it must not deinit under the lock
        #expect(deinits.entries.count == 1)

        let scheduler = BudgetScheduler(clock: VirtualClock())
        var budgetProbe: LockProbe? = LockProbe(system, deinits)
        let budget = try scheduler.requestBudget(named: "b", allowance: .seconds(1), onStop: { [budgetProbe] _, _ in _ = budgetProbe })
        budgetProbe = nil
        scheduler.end(budget)
        #expect(deinits.entries.count == 2)
    }

    @Test func workQueuedWithoutATaskWaitsUntilTheAppRunsAgain() throws {
        let system = BackgroundSystem(clock: VirtualClock())
        let delegate = LateWorkDelegate()
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        #expect(app.applicationState == .suspended)
        #expect(delegate.log.entries.isEmpty)
        try system.open(app)
        // The app is resumed into the background before the held work runs [S3].
        #expect(delegate.log.entries == ["work runs while background"])
    }

}

/// The dispatch backend: suspension and resumption in quick succession, and release while suspended.
@Suite(.tags(.realTime), .serialized, LongRun.only)
struct DispatchAppQueueTests {
    @Test func quickSuspendResumeCyclesNeverUnbalanceTheQueue() throws {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let system = BackgroundSystem(clock: clock)
        let app = try system.install(AppManifest(id: "a"))
        try system.open(app)
        for _ in 0..<2_000 {
            try system.pressHome()
            try system.open(app)
        }
        let done = DispatchSemaphore(value: 0)
        app.async { done.signal() }
        #expect(done.wait(timeout: .now() + 3) == .success)
    }

    @Test func releasingASystemWithASuspendedAppSkipsItsHeldWorkAndDoesNotCrash() throws {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let ran = DispatchSemaphore(value: 0)
        do {
            let system = BackgroundSystem(clock: clock)
            let app = try system.install(AppManifest(id: "a"))
            try system.open(app)
            try system.pressHome()
            let suspended = DispatchSemaphore(value: 0)
            let deadline = DispatchTime.now() + 2
            while system.state(of: app) != .suspended, DispatchTime.now() < deadline {
                _ = suspended.wait(timeout: .now() + .milliseconds(5))
            }
            #expect(system.state(of: app) == .suspended)
            app.async { ran.signal() }             // held by the suspended queue
        }
        // Released while suspended: the queue is resumed so it can be freed, and the held work of the
        // gone app is skipped.
        #expect(ran.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
    }
}
