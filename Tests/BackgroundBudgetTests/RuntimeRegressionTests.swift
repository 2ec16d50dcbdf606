import Dispatch
import Testing
import TestSupport
@testable import BackgroundBudget
@testable import BackgroundBudgetCore
@testable import BackgroundBudgetScenario
@testable import BudgetClock
@testable import JobBudgets
@testable import SavedState
import BackgroundBudgetTestKit

/// Reacts to its first memory warning by freeing memory and at once taking more.
final class ReshrinkDelegate: ApplicationDelegate {
    let warnings = LockedValue(0)
    func applicationDidReceiveMemoryWarning(_ application: Application) {
        guard warnings.withLock({ $0 += 1; return $0 }) == 1 else { return }
        application.setMemoryFootprint(10_000_000)    // pressure relieved…
        application.setMemoryFootprint(500_000_000)   // …and back while this warning is still being handled
    }
}

/// Reports a call for the first VoIP push, during which a second push arrives that it never reports.
final class DoublePushDelegate: ApplicationDelegate {
    let pushes = LockedValue(0)
    func application(_ application: Application, didReceive event: BackgroundEvent) {
        guard pushes.withLock({ $0 += 1; return $0 }) == 1 else { return }
        application.reportNewIncomingCall()
        _ = application.system?.deliver(.voipPush, to: application)
    }
}

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

/// Cases found in review: each once broke an invariant.
@Suite struct RuntimeRegressionTests {
    @Test func anAppThatRaisesItsFootprintInsideItsWarningIsNotLeftRunning() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        var manifest = AppManifest(id: "a")
        manifest.memoryFootprint = 100_000_000
        let app = try system.install(manifest, delegate: ReshrinkDelegate())
        try system.open(app)
        let task = app.beginBackgroundTask(withName: "t")
        try system.pressHome()
        system.setMemoryCapacity(200_000_000)
        app.setMemoryFootprint(300_000_000)
        app.endBackgroundTask(task)
        clock.advance(by: .seconds(60))
        #expect(system.state.withLock { $0.core.memory.pendingWarnings } == 0)
        #expect(app.applicationState != .background)
        #expect(system.memoryInUse <= 200_000_000)
    }

    @Test func theLastWarnedAppDyingStillLetsPressureBeRelieved() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        var small = AppManifest(id: "small")
        small.memoryFootprint = 50_000_000
        var big = AppManifest(id: "big")
        big.memoryFootprint = 150_000_000
        let front = try system.install(big)
        let slow = try system.install(small, delegate: ScriptedDelegate { _, _ in })
        try system.open(slow)
        _ = slow.beginBackgroundTask(withName: "leak")
        try system.open(front)
        slow.queue.enqueue { slow.simulateWork(for: .seconds(40)) }   // busy when the warning arrives
        system.setMemoryCapacity(100_000_000)
        clock.advance(by: .seconds(120))
        #expect(system.state.withLock { $0.core.memory.pendingWarnings } == 0)
        #expect(system.memoryInUse <= 100_000_000)
    }

    @Test func everyVoIPPushNeedsItsOwnReport() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let phone = try system.install(AppManifest(id: "voip", backgroundModes: [.voip]), delegate: DoublePushDelegate())
        try system.open(phone)
        try system.pressHome()
        system.deliver(.voipPush, to: phone)
        clock.advance(by: .seconds(30))
        #expect(system.trace.events.contains { $0.kind == .exit(.voipPushNotReported, code: 0xbaad_ca11) })
    }

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
        #expect(delegate.log.entries == ["work runs while suspended"])
    }

    @Test func footprintsAreClampedSoSumsCannotOverflow() throws {
        let system = BackgroundSystem(clock: VirtualClock())
        var huge = AppManifest(id: "huge")
        huge.memoryFootprint = .max
        var negative = AppManifest(id: "negative")
        negative.memoryFootprint = -500
        let a = try system.install(huge)
        let b = try system.install(negative)
        try system.open(a)
        try system.open(b)
        b.setMemoryFootprint(.max)
        #expect(a.memoryFootprint == DeviceCore.maximumFootprint)
        #expect(system.memoryInUse == 2 * DeviceCore.maximumFootprint)
        b.setMemoryFootprint(-1)
        #expect(system.memoryInUse == DeviceCore.maximumFootprint)
    }
}

/// The dispatch backend: suspension and resumption in quick succession, and release while suspended.
@Suite(.tags(.realTime), .serialized, LongRun.only)
struct DispatchQueueRegressionTests {
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
