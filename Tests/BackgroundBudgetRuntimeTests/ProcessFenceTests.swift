import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// A killed process runs no more code: once an app's process ends, nothing its code still does
/// (the rest of a callback, a kept completion or task object) has an effect or a trace entry.
@Suite struct ProcessFenceTests {
    let clock = VirtualClock()

    /// Every call an app's code can make, after `simulateWork` in a callback killed meanwhile.
    private static func callEverything(_ app: Application, _ log: TestLog<String>) {
        let task = app.beginBackgroundTask(withName: "late")
        log.append("task \(task.rawValue)")
        app.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 1))
        app.setMemoryFootprint(1_000)
        app.setMinimumBackgroundFetchInterval(.minimum)
        log.append("registered \(app.register(forTaskWithIdentifier: "late.refresh") { _ in })")
        try? app.submit(TaskRequest(identifier: "late.refresh", kind: .appRefresh))
        app.cancelAllTaskRequests()
        log.append("audio \((try? app.startPlayingAudio()) != nil)")
        app.startMonitoringSignificantLocationChanges()
        app.reportNewIncomingCall()
        app.async { log.append("async ran") }
        app.runLater(after: .seconds(1)) { log.append("runLater ran") }
        let before = app.system?.clock.now
        app.simulateWork(for: .seconds(10))
        log.append("work took \(app.system?.clock.now == before ? "no" : "some") time")
    }

    @Test func aCallbackKilledByTheWatchdogStopsThereAndItsLaterCallsDoNothing() throws {
        let system = BackgroundSystem(clock: clock)
        let log = TestLog<String>()
        let delegate = ScriptedDelegate()
        delegate.on(.didEnterBackground) { app in
            app.simulateWork(for: .seconds(7))      // killed at +5 by the watchdog
            Self.callEverything(app, log)
        }
        let app = try system.install(AppManifest(id: "slow", backgroundModes: [.audio, .fetch, .voip]), delegate: delegate)
        try system.open(app)
        clock.advance(by: .seconds(2))
        let before = system.trace.events.count
        try system.pressHome()                      // t = 2
        // The work stopped at the kill: the clock is at 7, not 9.
        #expect(clock.now == .seconds(7))
        clock.advance(by: .seconds(60))
        #expect(Array(system.trace.events[before...]) == [
            TraceEvent(time: .seconds(2), app: "slow", kind: .callback(.willResignActive)),
            TraceEvent(time: .seconds(2), app: "slow", kind: .stateChange(.inactive, cause: .pressHome)),
            TraceEvent(time: .seconds(2), app: "slow", kind: .stateChange(.background, cause: .pressHome)),
            TraceEvent(time: .seconds(2), app: "slow", kind: .callback(.didEnterBackground)),
            TraceEvent(time: .seconds(7), app: "slow", kind: .exit(.watchdog, code: 0x8bad_f00d)),
            TraceEvent(time: .seconds(7), app: "slow", kind: .killedMidCallback(.didEnterBackground)),
            TraceEvent(time: .seconds(7), app: "slow", kind: .stateChange(.notRunning, cause: .kill(.watchdog))),
        ])
        #expect(log.entries == ["task \(BackgroundTaskIdentifier.invalid.rawValue)", "registered false", "audio false",
                                "work took no time"])
        #expect(app.applicationState == .notRunning)
        system.expectNothingPending()
    }

    @Test func aCallbackThatReturnsInTimeIsNotReportedAsKilled() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate { callback, app in
            if callback == .didEnterBackground { app.beginBackgroundTask(withName: "upload") }
        }
        let app = try system.install(AppManifest(id: "a"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        clock.advance(by: .seconds(60))
        #expect(system.trace.instants(of: .exit, for: "a") == [.seconds(30)])
        #expect(system.trace.instants(of: .killedMidCallback, for: "a") == [])
    }

    @Test func aFetchKilledAtItsDeadlineNeverReportsItsLateCompletion() throws {
        let system = BackgroundSystem(clock: clock)
        let kept = TestLog<@Sendable (BackgroundFetchResult) -> Void>()
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { $0.setMinimumBackgroundFetchInterval(.minimum) }
        delegate.onFetch { app, complete in
            kept.append(complete)
            app.simulateWork(for: .seconds(40))     // killed at +30
            complete(.newData)
        }
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: delegate)
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(1_200))
        let start = try #require(system.trace.instants(of: .fetchStarted, for: "news").first)
        #expect(system.trace.instants(of: .exit, for: "news") == [start + .seconds(30)])
        // The completion kept by the app and called from outside, long after, does nothing either.
        for complete in kept.entries { complete(.failed) }
        let late = system.trace.events.filter {
            $0.app == "news" && ($0.eventName == "fetchCompleted" || $0.eventName == "fetchCompletionIgnored")
        }
        #expect(late == [])
    }

    @Test func aTaskObjectKeptPastItsProcessDoesNothing() throws {
        let system = BackgroundSystem(clock: clock)
        let kept = TestLog<ScheduledTask>()
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { app in
            app.register(forTaskWithIdentifier: "com.example.refresh") { task in kept.append(task) }
        }
        delegate.on(.didEnterBackground) { app in
            try? app.submit(TaskRequest(identifier: "com.example.refresh", kind: .appRefresh))
        }
        let manifest = AppManifest(id: "news", backgroundModes: [.fetch], permittedTaskIdentifiers: ["com.example.refresh"])
        let news = try system.install(manifest, delegate: delegate)
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(3_600))
        let task = try #require(kept.entries.first)
        try system.send(.kill(.memoryPressure), to: news)   // jetsam, while the task object is kept
        #expect(system.state(of: news) == .notRunning)
        let count = system.trace.events.count
        task.setTaskCompleted(success: true)
        task.updateProgress(completedUnitCount: 1, totalUnitCount: 2)
        #expect(system.trace.events.count == count)
    }
}
