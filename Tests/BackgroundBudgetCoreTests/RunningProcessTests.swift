@testable import BackgroundBudgetCore
import BudgetClock
import Testing

/// The record holds the running process as one value: made at launch, dropped whole at exit, so an
/// app that is not running carries no process data. Driven on the pure core at exact instants.
@Suite struct RunningProcessTests {
    static let app: AppID = "com.example.process"

    @Test func aProcessExistsExactlyWhileTheAppRuns() throws {
        var core = DeviceCore(policy: .iOS13)
        try core.install(AppManifest(id: Self.app))
        let s = core.slot(Self.app)
        #expect(core.records[s].process.running == nil)                  // installed, never launched
        _ = try core.apply(.launch, to: Self.app, at: .zero)
        #expect(core.records[s].state != .notRunning)
        #expect(core.records[s].process.running != nil)
        _ = core.acquireFileLock("/data/app.sqlite", app: Self.app, at: .seconds(1))
        #expect(core.records[s].heldFileLocks == ["/data/app.sqlite"])
        _ = try core.apply(.kill(.userKill), to: Self.app, at: .seconds(2))
        #expect(core.records[s].state == .notRunning)
        #expect(core.records[s].process.running == nil)                  // locks, deadlines, in-flight work gone
        #expect(core.records[s].heldFileLocks.isEmpty)
        #expect(core.records[s].inFlight == 0)
    }

    @Test func aRelaunchStartsWithAFreshProcess() throws {
        var core = DeviceCore(policy: .iOS13)
        try core.install(AppManifest(id: Self.app))
        let s = core.slot(Self.app)
        _ = try core.apply(.launch, to: Self.app, at: .zero)
        _ = core.acquireFileLock("/data/app.sqlite", app: Self.app, at: .seconds(1))
        _ = try core.apply(.kill(.userKill), to: Self.app, at: .seconds(2))
        _ = try core.apply(.launch, to: Self.app, at: .seconds(3))
        #expect(core.records[s].incarnation == 2)
        #expect(core.records[s].process.running?.heldFileLocks == [])    // nothing of the earlier process
        #expect(core.records[s].process.running?.pendingExit == nil)
    }

    @Test func stepsTheQueueNeverReachedGoWithTheProcess() throws {
        var core = DeviceCore(policy: .iOS13)
        try core.install(AppManifest(id: Self.app))
        let s = core.slot(Self.app)
        _ = try core.apply(.launch, to: Self.app, at: .zero)
        let held = core.records[s].heldSteps.count
        #expect(held > 0)                                        // the launch's entries wait for its queue
        #expect(core.records[s].process.running?.heldSteps.count == held)
        _ = try core.apply(.kill(.watchdog), to: Self.app, at: .seconds(1))
        #expect(core.records[s].process.running == nil)
        #expect(core.records[s].heldSteps.isEmpty)
        #expect(!core.trace.events.contains { $0.kind.tag == .callback })   // never reached, never traced
        #expect(core.trace.events.contains { $0.kind == .exit(.watchdog, code: 0x8bad_f00d) })
        _ = try core.apply(.launch, to: Self.app, at: .seconds(2))
        #expect(core.records[s].heldSteps.count == held)        // the new launch's alone
    }
}
