import Dispatch
import Testing
@testable import BackgroundBudget
@testable import BackgroundBudgetRuntime
@testable import BackgroundBudgetCore
import BudgetClock
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

/// Memory pressure is relieved whatever an app does while it is warned, and footprints cannot overflow.
@Suite struct MemoryPressureReliefTests {
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
