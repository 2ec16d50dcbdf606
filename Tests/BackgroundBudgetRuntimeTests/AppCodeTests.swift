import Foundation
import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// Everything an app's code runs belongs to its process: its main queue, the queues it makes, its
/// `runLater` bodies and its tasks are frozen while it is suspended and never run after it ends.
@Suite struct AppCodeTests {
    let clock = VirtualClock()

    /// The instants at which an app was suspended.
    private func suspensions(in system: BackgroundSystem, of app: AppID) -> [BudgetInstant] {
        system.trace.events.filter { event in
            guard event.app == app, case .stateChange(.suspended, _) = event.kind else { return false }
            return true
        }.map(\.time)
    }

    @Test func workScheduledBeforeSuspensionRunsOnlyOnResume() throws {
        let system = BackgroundSystem(clock: clock)
        let log = TestLog<String>()
        let delegate = ScriptedDelegate()
        delegate.on(.didEnterBackground) { [clock] app in
            // An upload that ends its task at +6 (t=26), and work due at +21 (t=41), after the suspension.
            let task = app.beginBackgroundTask(withName: "upload")
            app.runLater(after: .seconds(6)) { app.endBackgroundTask(task) }
            app.runLater(after: .seconds(21)) { log.append("runLater at \(clock.now)") }
            let io = app.makeQueue(label: "io")
            io.asyncAfter(.seconds(30)) { log.append("io at \(clock.now)") }
        }
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        try system.open(app)
        clock.advance(by: .seconds(20))
        try system.pressHome()
        clock.advance(by: .seconds(80))                 // t=100: both were due long ago
        #expect(suspensions(in: system, of: "a") == [.seconds(26)])
        #expect(log.entries == [])
        try system.open(app)
        #expect(log.entries == ["runLater at t=100.000s", "io at t=100.000s"])
        system.expectNothingPending()
    }

    @Test func workSubmittedToAMadeQueueWhileSuspendedWaitsAndAQueueMadeThenStartsSuspended() throws {
        let system = BackgroundSystem(clock: clock)
        let log = TestLog<String>()
        let app = try system.install(AppManifest(id: "a"))
        try system.open(app)
        let io = app.makeQueue(label: "io")
        try system.pressHome()                          // suspended at 0
        clock.advance(by: .seconds(5))
        io.async { [clock] in log.append("io at \(clock.now)") }
        let late = app.makeQueue(label: "late")
        late.async { [clock] in log.append("late at \(clock.now)") }
        app.async { [clock] in log.append("main at \(clock.now)") }
        clock.advance(by: .seconds(5))
        #expect(log.entries == [])
        try system.open(app)                            // t=10
        #expect(log.entries == ["main at t=10.000s", "io at t=10.000s", "late at t=10.000s"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)   // app.task
    @Test func aTaskLoopInAppCodeMakesNoProgressWhileSuspended() throws {
        let system = BackgroundSystem(clock: clock)
        let ticks = TestLog<BudgetInstant>()
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { [clock] app in
            app.task {
                while true {
                    try await Task.sleep(for: .seconds(10), clock: app.clock)
                    ticks.append(clock.now)
                }
            }
        }
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        try system.open(app)
        clock.advance(by: .seconds(25))
        try system.pressHome()                          // suspended at 25: the sleep due at 30 waits
        clock.advance(by: .seconds(75))
        #expect(ticks.entries == [.seconds(10), .seconds(20)])
        try system.open(app)                            // t=100: the held wake-up runs, then it sleeps again
        clock.advance(by: .seconds(15))
        #expect(ticks.entries == [.seconds(10), .seconds(20), .seconds(100), .seconds(110)])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)   // app.task
    @Test func nothingRunsAfterAKill() throws {
        let system = BackgroundSystem(clock: clock)
        let log = TestLog<String>()
        let delegate = ScriptedDelegate()
        delegate.on(.didEnterBackground) { [clock] app in
            app.runLater(after: .seconds(1)) { log.append("runLater at \(clock.now)") }
            let io = app.makeQueue(label: "io")
            io.asyncAfter(.seconds(1)) { log.append("io at \(clock.now)") }
            app.task {
                try await Task.sleep(for: .seconds(1), clock: app.clock)
                log.append("task at \(clock.now)")
            }
            // Queued behind this callback on the main queue, as the task's first job is: the app is
            // suspended as the callback returns, so neither has run when it is.
            app.async { io.async { log.append("held io work") } }
        }
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        try system.open(app)
        try system.pressHome()                          // suspended at 0, everything held or due at 1
        clock.advance(by: .seconds(5))
        try system.send(.kill(.memoryPressure), to: app)
        clock.advance(by: .seconds(5))
        try system.open(app)                            // a new process
        clock.advance(by: .seconds(5))
        #expect(log.entries == [])
        let dropped = system.trace.events.compactMap { event -> Int? in
            if case .workDropped(let count) = event.kind { count } else { nil }
        }
        // At the kill the main queue held the task's first job, the `async` work and the runLater body;
        // `io` its delayed work.
        #expect(dropped == [4])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)   // app.task
    @Test func appCodeReachesItsApplicationDateAndLowPowerMode() throws {
        let system = BackgroundSystem(clock: clock)
        let seen = TestLog<String>()
        @Sendable func note(_ place: String) {
            let app = Application.current
            seen.append("\(place): \(app?.id.rawValue ?? "none") \(app.map { $0.currentDate.timeIntervalSince(BackgroundSystem.virtualReferenceDate) } ?? -1) \(app?.isLowPowerModeEnabled ?? false)")
        }
        let delegate = ScriptedDelegate()
        delegate.on(.didBecomeActive) { app in
            note("delegate")
            app.runLater(after: .seconds(5)) { note("runLater") }
            app.makeQueue(label: "io").async { note("queue") }
            app.task { note("task") }
        }
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        clock.advance(by: .seconds(90))
        system.setLowPowerMode(true)
        try system.open(app)
        clock.advance(by: .seconds(5))
        note("test")
        #expect(seen.entries == ["delegate: a 90.0 true", "queue: a 90.0 true", "task: a 90.0 true", "runLater: a 95.0 true", "test: none -1.0 false"])
        #expect(app.isLowPowerModeEnabled && system.isLowPowerModeEnabled)
        #expect(app.currentDate == BackgroundSystem.virtualReferenceDate.addingTimeInterval(95))
    }

    @Test func logStampsAndDatesShareOneEpoch() throws {
        let system = BackgroundSystem(clock: clock)
        let app = try system.install(AppManifest(id: "a", displayName: "A"))
        clock.advance(by: .milliseconds(90_250))
        try system.open(app)
        #expect(system.logLineStart == LogLineStyle().start)
        #expect(system.logLines().split(separator: "\n").first == "2026-01-01 00:01:30.250 A[1069:307] (state: inactive, reason: launch)")
        #expect(app.currentDate == BackgroundSystem.virtualReferenceDate.addingTimeInterval(90.25))
        #expect("\(BackgroundSystem.virtualReferenceDate)" == "2026-01-01 00:00:00 +0000")
    }
}

/// The same rule on real time: a `DispatchClock`, whose app queues are dispatch queues suspended with
/// the app. Tolerant (it waits on semaphores with generous timeouts), so in the long suite.
@Suite(.tags(.realTime), .serialized, LongRun.only)
struct RealTimeAppCodeTests {
    @Test func delayedWorkAndMadeQueuesWaitWhileSuspendedAndRunOnResume() throws {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let system = BackgroundSystem(clock: clock)
        let ran = DispatchSemaphore(value: 0)
        let app = try system.install(AppManifest(id: "a"))
        try system.open(app)
        let io = app.makeQueue(label: "io")
        try system.pressHome()
        let deadline = DispatchTime.now() + 2
        while system.state(of: app) != .suspended, DispatchTime.now() < deadline {
            _ = ran.wait(timeout: .now() + .milliseconds(5))
        }
        #expect(system.state(of: app) == .suspended)
        app.runLater(after: .milliseconds(20)) { ran.signal() }
        io.asyncAfter(.milliseconds(20)) { ran.signal() }
        // Both are due at +20 ms; suspended, neither runs.
        #expect(ran.wait(timeout: .now() + .milliseconds(300)) == .timedOut)
        try system.open(app)
        #expect(ran.wait(timeout: .now() + 3) == .success)
        #expect(ran.wait(timeout: .now() + 3) == .success)
    }
}
