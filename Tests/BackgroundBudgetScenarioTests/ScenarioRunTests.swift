import BackgroundBudgetExplorer
import Testing
import BackgroundBudgetCore
import BackgroundBudgetScenario

@Suite struct ScenarioRunTests {
    private let news = ScenarioApp(AppManifest(id: "com.example.news", displayName: "News"))

    @Test func aRefusedEventStopsTheRunWithTheEventsPathAndTheLifecycleError() throws {
        let scenario = try Scenario(json: """
            {"apps": [{"id": "com.example.news"}],
             "events": [
               {"at": 0, "do": "open", "app": "com.example.news"},
               {"at": 5, "do": "home"},
               {"at": 9, "do": "home"}
             ]}
            """)
        let refusal = LifecycleError(event: .pressHome, state: .notRunning, problem: .noForegroundApp)
        #expect(throws: ScenarioError(.eventRefused(refusal), path: "$.events[2]", position: SourcePosition(line: 5, column: 4))) {
            try scenario.run()
        }
        do {
            _ = try scenario.run()
        } catch {
            #expect(error.description == "5:4: error: $.events[2]: the run stopped: cannot pressHome: no app is in the foreground")
        }
    }

    @Test func refusalsNameTheAppAndItsState() {
        let scenario = Scenario(apps: [news], events: [
            ScenarioEvent(at: .zero, .open("com.example.news")),
            ScenarioEvent(at: .seconds(1), .purge("com.example.news")),
        ])
        #expect(throws: ScenarioError(.eventRefused(LifecycleError(event: .purge, state: .active, problem: .notSuspended, app: "com.example.news")),
                                      path: "$.events[1]")) {
            try scenario.run()
        }
    }

    @Test func switchToNeedsAnotherAppInTheForeground() {
        let alone = Scenario(apps: [news], events: [ScenarioEvent(at: .zero, .switchTo("com.example.news"))])
        #expect(throws: ScenarioError(.eventRefused(LifecycleError(event: .switchAway, state: .notRunning, problem: .noForegroundApp)),
                                      path: "$.events[0]")) {
            try alone.run()
        }
        let itself = Scenario(apps: [news], events: [
            ScenarioEvent(at: .zero, .open("com.example.news")), ScenarioEvent(at: .seconds(1), .switchTo("com.example.news")),
        ])
        #expect(throws: ScenarioError(.eventRefused(LifecycleError(event: .switchAway, state: .active, problem: .alreadyInForeground,
                                                                   app: "com.example.news")), path: "$.events[1]")) {
            try itself.run()
        }
    }

    @Test func workInACallbackDelaysSuspensionAndTheEventsThatFollow() throws {
        // Home at 10 s; applicationDidEnterBackground works for 4 s (under its 5 s watchdog), so the
        // app is suspended at 14 s, and the open written for 12 s waits for the callback to return.
        let busy = ScenarioApp(AppManifest(id: "com.example.news"),
                               behaviour: ScenarioBehaviour([.didEnterBackground: [.work(.seconds(4))]]))
        let run = try Scenario(apps: [busy], events: [
            ScenarioEvent(at: .zero, .open("com.example.news")),
            ScenarioEvent(at: .seconds(10), .home),
            ScenarioEvent(at: .seconds(12), .open("com.example.news")),
        ], end: .seconds(13)).run()
        let suspended = run.trace.events.first { $0.state == .suspended }
        #expect(suspended?.time == .seconds(14))
        #expect(run.trace.events.last?.callback == .didBecomeActive)
        #expect(run.trace.events.last?.time == .seconds(14))
        #expect(run.end == .seconds(14))
    }

    @Test func workPastTheWatchdogLimitKillsTheApp() throws {
        // applicationDidEnterBackground works for 7 s: the watchdog kills the app at 10 + 5 s.
        let busy = ScenarioApp(AppManifest(id: "com.example.news"),
                               behaviour: ScenarioBehaviour([.didEnterBackground: [.work(.seconds(7))]]))
        let run = try Scenario(apps: [busy], events: [
            ScenarioEvent(at: .zero, .open("com.example.news")),
            ScenarioEvent(at: .seconds(10), .home),
        ], end: .seconds(30)).run()
        let exit = try #require(run.trace.events.first { $0.eventName == "exit" })
        #expect(exit == TraceEvent(time: .seconds(15), app: "com.example.news", kind: .exit(.watchdog, code: 0x8bad_f00d)))
        #expect(!run.trace.states(for: "com.example.news").contains(.suspended))
    }

    @Test func theRunEndsAtEndOrAtTheLastEvent() throws {
        let events = [ScenarioEvent(at: .seconds(3), .open("com.example.news"))]
        #expect(try Scenario(apps: [news], events: events).run().end == .seconds(3))
        #expect(try Scenario(apps: [news], events: events, end: .seconds(60)).run().end == .seconds(60))
        #expect(try Scenario(apps: [news], events: []).run().end == .zero)
    }

    @Test func theSameScenarioGivesTheSameBytesInEveryFormat() throws {
        let text = """
            {"apps": [{"id": "com.example.a"}, {"id": "com.example.b", "behaviour": {"applicationWillTerminate": [{"do": "work", "for": 1}]}}],
             "events": [{"at": 0, "do": "open", "app": "com.example.a"}, {"at": 1, "do": "launchInBackground", "app": "com.example.b"},
                        {"at": 2, "do": "switchTo", "app": "com.example.b"}, {"at": 3, "do": "home"},
                        {"at": 4, "do": "terminate", "app": "com.example.b", "reason": "watchdog"}]}
            """
        for format in ScenarioRun.Format.allCases {
            #expect(try Scenario(json: text).run().rendered(as: format) == Scenario(json: text).run().rendered(as: format))
        }
    }

    @Test func logLinesUseTheDisplayNames() throws {
        let run = try Scenario(apps: [news], events: [ScenarioEvent(at: .zero, .launch("com.example.news"))]).run()
        #expect(run.rendered(as: .log).split(separator: "\n").first == "2026-01-01 00:00:00.000 News[1069:307] (state: inactive, reason: launch)")
    }
}
