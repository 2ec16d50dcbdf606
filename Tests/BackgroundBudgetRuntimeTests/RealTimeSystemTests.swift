import Dispatch
import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// The same core on the real-time clock: app callbacks on their own dispatch queues, deadlines on
/// one timer. Few, lenient tests with short policy numbers and bounded semaphore waits.
@Suite(.tags(.realTime), .serialized, LongRun.only)
struct RealTimeSystemTests {
    /// A short policy: 0.4 s allowance, handlers 0.2 s before the end, 0.2 s for didEnterBackground.
    private static func shortPolicy() -> BudgetPolicy {
        var policy = BudgetPolicy.iOS13
        policy.backgroundTaskAllowance = .milliseconds(400)
        policy.expirationWarningLead = .milliseconds(200)
        policy.didEnterBackgroundLimit = .milliseconds(200)
        return policy
    }

    @Test func anUnendedTaskGetsItsHandlerThenTheAppIsKilledOnTheRealClock() throws {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let system = try BackgroundSystem(policy: Self.shortPolicy(), clock: clock)
        let handled = DispatchSemaphore(value: 0)
        let delegate = ScriptedDelegate { callback, app in
            guard callback == .didEnterBackground else { return }
            app.beginBackgroundTask(withName: "upload") { handled.signal() }
        }
        let app = try system.install(AppManifest(id: "uploader"), delegate: delegate)
        try system.open(app)
        #expect(waitUntil(seconds: 2) { app.applicationState == .active })
        let home = clock.now
        try system.pressHome()
        #expect(handled.wait(timeout: .now() + 3) == .success)
        #expect(waitUntil(seconds: 3) { system.state(of: app) == .notRunning })
        let events = system.trace.events
        let handler = try #require(events.first { $0.eventName == "expirationHandler" })
        let exit = try #require(events.first { $0.eventName == "exit" })
        #expect(exit.kind == .exit(.backgroundTaskExpired, code: 0x2182_bad2))
        // Never early; late by at most a lenient margin on a loaded machine.
        #expect(handler.time - home >= .milliseconds(200) && handler.time - home < .milliseconds(1_500))
        #expect(exit.time - home >= .milliseconds(400) && exit.time - home < .milliseconds(2_000))
    }

    @Test func aSuspendedAppsDispatchQueueHoldsWorkUntilItRunsAgain() throws {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let system = try BackgroundSystem(policy: Self.shortPolicy(), clock: clock)
        let app = try system.install(AppManifest(id: "reader"))
        try system.open(app)
        try system.pressHome()
        #expect(waitUntil(seconds: 2) { app.applicationState == .suspended })
        let ran = DispatchSemaphore(value: 0)
        app.async { ran.signal() }
        #expect(ran.wait(timeout: .now() + .milliseconds(150)) == .timedOut)
        try system.open(app)
        #expect(ran.wait(timeout: .now() + 2) == .success)
        #expect(waitUntil(seconds: 2) { app.applicationState == .active })
    }

    @Test func aSlowDidEnterBackgroundIsKilledByTheWatchdogOnTheRealClock() throws {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let system = try BackgroundSystem(policy: Self.shortPolicy(), clock: clock)
        let delegate = ScriptedDelegate { callback, app in
            if callback == .didEnterBackground { app.simulateWork(for: .milliseconds(500)) }   // blocks the app's queue
        }
        let app = try system.install(AppManifest(id: "slow"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        #expect(waitUntil(seconds: 3) { system.state(of: app) == .notRunning })
        let exit = try #require(system.trace.events.first { $0.eventName == "exit" })
        #expect(exit.kind == .exit(.watchdog, code: 0x8bad_f00d))
        #expect(!system.trace.states(for: "slow").contains(.suspended))
    }

    @Test func theRestOfACallbackKilledOnTheRealClockDoesNothing() throws {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let system = try BackgroundSystem(policy: Self.shortPolicy(), clock: clock)
        let finished = DispatchSemaphore(value: 0)
        let delegate = ScriptedDelegate { callback, app in
            guard callback == .didEnterBackground else { return }
            app.simulateWork(for: .milliseconds(500))   // the watchdog kills the process at 200 ms
            app.beginBackgroundTask(withName: "late")
            app.setMemoryFootprint(1_000)
            finished.signal()
        }
        let app = try system.install(AppManifest(id: "slow"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        #expect(finished.wait(timeout: .now() + 5) == .success)
        #expect(waitUntil(seconds: 3) { system.state(of: app) == .notRunning })
        let kinds = system.trace.events.filter { $0.app == "slow" }.map(\.kind)
        #expect(kinds.filter { $0 == .killedMidCallback(.didEnterBackground) }.count == 1)
        #expect(!kinds.contains { $0.tag == .backgroundTaskBegan || $0.tag == .backgroundTaskDenied })
        #expect(system.trace.events.last?.kind == .stateChange(.notRunning, cause: .kill(.watchdog)))
    }
}
