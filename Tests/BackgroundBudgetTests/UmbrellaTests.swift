import BackgroundBudget
import Foundation
import Testing

/// `import BackgroundBudget` alone is what a program writes: these tests compile only while the umbrella
/// brings every module it promises (the runtime, the core, the clocks, the instants and the lock, job
/// budgets and saved state), and check that the pieces work together through that one import.
@Suite struct UmbrellaTests {
    @Test func oneImportRunsAnAppOnAVirtualClockWithThePolicyOfTheCore() throws {
        let clock = VirtualClock()                                            // BudgetClock
        let system = try BackgroundSystem(policy: .iOS13, clock: clock)       // BackgroundBudgetRuntime, BackgroundBudgetCore
        let app = try system.install(AppManifest(id: "com.example.umbrella"))
        try system.open(app)
        clock.advance(by: .seconds(3))
        try system.pressHome()
        #expect(app.applicationState == .suspended)
        let now: BudgetInstant = clock.now                                    // BudgetTime
        #expect(now == .seconds(3))
        #expect(system.trace.callbacks(for: app.id).last == .didEnterBackground)
    }

    @Test func oneImportGivesJobBudgetsTheLockAndSavedState() throws {
        let clock = VirtualClock()
        let scheduler = BudgetScheduler(clock: clock)                         // JobBudgets
        let job = try scheduler.requestBudget(named: "umbrella", allowance: .seconds(10))
        #expect(scheduler.liveCount == 1)
        let ended = LockedValue(false)                                        // BudgetLock
        ended.withLock { $0 = scheduler.end(job) }
        #expect(ended.withLock { $0 })
        #expect(scheduler.liveCount == 0)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("umbrella-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try StateStore<[String]>(directory: folder, name: "umbrella")   // SavedState
        try store.save(["draft"])
        #expect(try store.load().value == ["draft"])
    }
}
