import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
@testable import BackgroundBudgetScenario
import BudgetClock
import JobBudgets
import SavedState
import BackgroundBudgetTestKit

/// Callback time limits and the app's own queue: suspension holds work, termination drops it.
@Suite struct WatchdogAndQueueTests {
    let clock = VirtualClock()

    @Test func aSlowDidEnterBackgroundIsKilledByTheWatchdogAtItsLimit() throws {
        let system = BackgroundSystem(clock: clock)
        let after = TestLog<String>()
        let delegate = ScriptedDelegate { callback, app in
            guard callback == .didEnterBackground else { return }
            app.simulateWork(for: .seconds(7))      // "this callback takes 7 s"
            after.append("returned")
        }
        let app = try system.install(AppManifest(id: "slow"), delegate: delegate)
        try system.open(app)
        clock.advance(by: .seconds(2))
        app.async { after.append("queued work") }
        try system.pressHome()                      // t = 2
        let exit = try #require(system.trace.events.first { $0.eventName == "exit" })
        #expect(exit == TraceEvent(time: .seconds(7), app: "slow", kind: .exit(.watchdog, code: 0x8bad_f00d)))
        #expect(app.applicationState == .notRunning)
        #expect(!system.trace.states(for: "slow").contains(.suspended))
        // The work queued behind the callback never ran; the callback itself finished its own code.
        #expect(after.entries == ["queued work", "returned"])
    }

    @Test func aDidEnterBackgroundWithinItsLimitIsNotKilled() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate { callback, app in
            if callback == .didEnterBackground { app.simulateWork(for: .milliseconds(4_999)) }
        }
        let app = try system.install(AppManifest(id: "ok"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        #expect(app.applicationState == .suspended)
        #expect(system.trace.events.last?.time == .milliseconds(4_999))
        #expect(clock.pendingCount == 0)
    }

    @Test func willTerminateGetsItsLimitThenTheProcessIsKilled() throws {
        for (duration, expected) in [(Duration.seconds(2), TraceEvent.Kind.exit(.userKill, code: nil)), (.seconds(7), .exit(.watchdog, code: 0x8bad_f00d))] {
            let clock = VirtualClock()
            let system = BackgroundSystem(clock: clock)
            let delegate = ScriptedDelegate { callback, app in
                if callback == .didEnterBackground { app.beginBackgroundTask() }
                if callback == .willTerminate { app.simulateWork(for: duration) }
            }
            let app = try system.install(AppManifest(id: "a"), delegate: delegate)
            try system.open(app)
            try system.pressHome()
            try system.killFromAppSwitcher(app)
            let exit = try #require(system.trace.events.first { $0.eventName == "exit" })
            #expect(exit.kind == expected)
            #expect(exit.time == .seconds(min(duration.components.seconds, 5)))
            #expect(app.applicationState == .notRunning)
            #expect(clock.pendingCount == 0)
        }
    }

    @Test func eventsForATerminatingAppAreRefused() throws {
        let system = BackgroundSystem(clock: clock)
        let refused = TestLog<LifecycleError.Problem>()
        let delegate = ScriptedDelegate { callback, app in
            if callback == .didEnterBackground { app.beginBackgroundTask() }
            if callback == .willTerminate {
                guard let system = app.system else { return }
                do throws(LifecycleError) { try system.open(app) } catch { refused.append(error.problem) }
            }
        }
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        try system.killFromAppSwitcher(app)
        #expect(refused.entries == [.terminating])
        #expect(app.applicationState == .notRunning)
    }

    @Test func workSubmittedWhileSuspendedWaitsUntilTheAppRunsAgain() throws {
        let system = BackgroundSystem(clock: clock)
        let ran = TestLog<String>()
        let app = try system.install(AppManifest(id: "a"))
        try system.open(app)
        try system.pressHome()
        #expect(app.applicationState == .suspended)
        app.async { ran.append("work \(app.applicationState)") }
        clock.advance(by: .seconds(60))
        #expect(ran.entries == [])
        try system.open(app)
        // Held work runs once the app is resumed into the background, ahead of the foreground
        // callbacks queued after it [S3].
        #expect(ran.entries == ["work background"])
        #expect(app.applicationState == .active)
    }

    @Test func terminationDropsPendingWorkAndCountsIt() throws {
        let system = BackgroundSystem(clock: clock)
        let ran = TestLog<Int>()
        let app = try system.install(AppManifest(id: "a"))
        try system.open(app)
        try system.pressHome()
        for index in 0..<3 { app.async { ran.append(index) } }
        try system.purge(app)
        #expect(system.trace.events.contains(TraceEvent(time: .zero, app: "a", kind: .workDropped(count: 3))))
        try system.open(app)
        app.async { ran.append(99) }
        #expect(ran.entries == [99])
    }

    @Test func noCallbackReachesASuspendedApp() throws {
        let system = BackgroundSystem(clock: clock)
        let seen = TestLog<ApplicationState>()
        let app = try system.install(AppManifest(id: "a"))
        app.addObserver { _ in seen.append(app.applicationState) }
        try system.open(app)
        try system.pressHome()
        try system.open(app)
        #expect(!seen.entries.contains(.suspended))
        #expect(!seen.entries.contains(.notRunning))
    }
}
