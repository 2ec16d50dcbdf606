import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// `0xdead10cc`: an app suspended while it holds a file lock or an SQLite database lock is killed at
/// the suspension [S22]. A lock does not keep the app running.
@Suite struct FileLockTests {
    let clock = VirtualClock()
    static let database = "group.com.example/shared.sqlite"

    /// The kinds of the trace entries at one instant, in order.
    private func entries(_ system: BackgroundSystem, at time: BudgetInstant) -> [TraceEvent.Kind] {
        system.trace.events.filter { $0.time == time }.map(\.kind)
    }

    @Test func anAppSuspendedWhileItHoldsALockIsKilledAtThatInstantWithDead10cc() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didEnterBackground) { app in
            let task = app.beginBackgroundTask(withName: "save")
            app.acquireFileLock(Self.database)
            app.runLater(after: .seconds(3)) { app.endBackgroundTask(task) }    // ends the task, keeps the lock
        }
        let news = try system.install(AppManifest(id: "news"), delegate: delegate)
        try system.open(news)
        clock.advance(to: .seconds(10))
        try system.pressHome()
        #expect(news.heldFileLocks == [Self.database])
        #expect(system.explain(news).description.hasSuffix(
            "Holds file locks on \(Self.database): suspended while it holds one, it is killed (0xdead10cc)."))
        clock.advance(by: .seconds(60))
        #expect(entries(system, at: .seconds(13)) == [
            .backgroundTaskEnded(BackgroundTaskIdentifier(rawValue: 1)),
            .exit(.fileLockHeldAtSuspension, code: 0xdead_10cc),
            .stateChange(.notRunning, cause: .kill(.fileLockHeldAtSuspension)),
        ])
        #expect(system.trace.events.first { $0.eventName == "exit" }?.jsonLine
            == #"{"t":13.000,"app":"news","event":"exit","reason":"fileLockHeldAtSuspension","code":"0xdead10cc"}"#)
        #expect(news.applicationState == .notRunning)
        #expect(news.heldFileLocks.isEmpty)                      // locks belong to the process
    }

    @Test func releasingTheLockBeforeSuspensionLetsTheAppSuspend() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didEnterBackground) { app in
            let task = app.beginBackgroundTask(withName: "save")
            app.acquireFileLock(Self.database)
            app.acquireFileLock(Self.database)                       // already held: nothing more
            app.runLater(after: .seconds(3)) {
                app.releaseFileLock(Self.database)
                app.releaseFileLock(Self.database)                   // not held: nothing
                app.endBackgroundTask(task)
            }
        }
        let news = try system.install(AppManifest(id: "news"), delegate: delegate)
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(60))
        #expect(system.trace.events.filter { $0.eventName.hasPrefix("fileLock") }.map(\.description) == [
            #"t=0.000s news fileLockAcquired name="group.com.example/shared.sqlite""#,
            #"t=3.000s news fileLockReleased name="group.com.example/shared.sqlite""#,
        ])
        #expect(!system.trace.contains(any: .exit))
        #expect(news.applicationState == .suspended)
    }

    @Test func aLockDoesNotKeepTheAppRunning() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didEnterBackground) { app in app.acquireFileLock(Self.database) }
        let news = try system.install(AppManifest(id: "news"), delegate: delegate)
        try system.open(news)
        clock.advance(to: .seconds(5))
        try system.pressHome()
        #expect(entries(system, at: .seconds(5)).suffix(2) == [
            .exit(.fileLockHeldAtSuspension, code: 0xdead_10cc),
            .stateChange(.notRunning, cause: .kill(.fileLockHeldAtSuspension)),
        ])
    }

    @Test func aForegroundAppHoldsItsLockWithoutHarm() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try system.install(AppManifest(id: "news"))
        try system.open(news)
        news.acquireFileLock(Self.database)
        clock.advance(by: .seconds(600))
        #expect(news.applicationState == .active)
        #expect(system.explain(news).heldFileLocks == [Self.database])
        #expect(TerminationReason.fileLockHeldAtSuspension.defaultCode == 0xdead_10cc)
    }
}
