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
        #expect(core.records[s].process == nil)                  // installed, never launched
        _ = try core.apply(.launch, to: Self.app, at: .zero)
        #expect(core.records[s].state != .notRunning)
        #expect(core.records[s].process != nil)
        core.acquireFileLock("/data/app.sqlite", app: Self.app, at: .seconds(1))
        #expect(core.records[s].heldFileLocks == ["/data/app.sqlite"])
        _ = try core.apply(.kill(.userKill), to: Self.app, at: .seconds(2))
        #expect(core.records[s].state == .notRunning)
        #expect(core.records[s].process == nil)                  // locks, deadlines, in-flight work gone
        #expect(core.records[s].heldFileLocks.isEmpty)
        #expect(core.records[s].inFlight == 0)
    }

    @Test func aRelaunchStartsWithAFreshProcess() throws {
        var core = DeviceCore(policy: .iOS13)
        try core.install(AppManifest(id: Self.app))
        let s = core.slot(Self.app)
        _ = try core.apply(.launch, to: Self.app, at: .zero)
        core.acquireFileLock("/data/app.sqlite", app: Self.app, at: .seconds(1))
        _ = try core.apply(.kill(.userKill), to: Self.app, at: .seconds(2))
        _ = try core.apply(.launch, to: Self.app, at: .seconds(3))
        #expect(core.records[s].incarnation == 2)
        #expect(core.records[s].process?.heldFileLocks == [])    // nothing of the earlier process
        #expect(core.records[s].process?.pendingExit == nil)
    }
}
