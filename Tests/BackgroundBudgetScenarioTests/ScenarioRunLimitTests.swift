import BackgroundBudgetExplorer
import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetScenario
import BudgetClock

/// A run that would not end, or would grow without bound, stops at its limits with an error that
/// says where, when and how much.
@Suite struct ScenarioRunLimitTests {
    /// A VoIP app that installs a 600 s keep-alive handler, run until 10⁹ s: about 1.7 million wakes.
    static let keepAliveForever = """
        {"apps": [{"id": "com.example.phone", "backgroundModes": ["voip"],
           "behaviour": {"applicationDidEnterBackground": [{"do": "setKeepAlive", "interval": 600}]}}],
         "events": [{"at": 0, "do": "open", "app": "com.example.phone"}, {"at": 1, "do": "home"}],
         "end": 1000000000}
        """

    private func runError(_ json: String, limits: ScenarioRunLimits? = nil) throws -> ScenarioError? {
        let scenario = try Scenario(json: json)
        do {
            _ = try scenario.run(limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func aKeepAliveUntilABillionSecondsStopsAtTheTraceEventLimitAtEnd() throws {
        let error = try #require(try runError(Self.keepAliveForever, limits: ScenarioRunLimits(maxTraceEvents: 2_000, maxClockSteps: .max)))
        guard case .runLimitExceeded(.traceEvents, limit: 2_000, let seconds) = error.problem else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(seconds > 1 && seconds < 1e6)          // stopped early, not at 10⁹ s
        #expect(error.path == "$.end")
        #expect(error.description.hasPrefix("error: $.end: the run stopped at "))
        #expect(error.description.contains("more than 2000 trace events"))
    }

    @Test func clockStepsAreLimitedToo() throws {
        let error = try #require(try runError(Self.keepAliveForever, limits: ScenarioRunLimits(maxTraceEvents: .max, maxClockSteps: 100)))
        guard case .runLimitExceeded(.clockSteps, limit: 100, _) = error.problem else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(error.path == "$.end")
    }

    @Test func aLimitPassedWhilePerformingAnEventNamesThatEvent() throws {
        let error = try #require(try runError(Self.keepAliveForever, limits: ScenarioRunLimits(maxTraceEvents: 3, maxClockSteps: .max)))
        #expect(error.path == "$.events[0]")
        #expect(error.position?.description == "3:13")
        #expect(error.problem == .runLimitExceeded(.traceEvents, limit: 3, seconds: 0))
    }

    @Test func standardLimitsScaleWithTheScenarioAndLetEveryExampleRun() throws {
        let scenario = try Scenario(json: Self.keepAliveForever)
        #expect(ScenarioRunLimits.standard(for: scenario) == ScenarioRunLimits(maxTraceEvents: 1_000_200, maxClockSteps: 10_002_000))
        #expect(ScenarioRunLimits.standard(for: Scenario(apps: [], events: [])).maxTraceEvents == 1_000_000)
    }

    @Test func aHaltedVirtualClockRunsNothingMoreAndKeepsItsTime() {
        let clock = VirtualClock()
        let ran = TestLog<Int>()
        for index in 1...5 { clock.schedule(at: .seconds(Int64(index))) { ran.append(index) } }
        clock.installRunGuard { ran.entries.count < 2 }
        clock.advance(to: .seconds(10))
        #expect(ran.entries == [1, 2])
        #expect(clock.isHalted)
        #expect(clock.now == .seconds(2))
        clock.removeRunGuard()
        #expect(clock.advance(by: .seconds(10)) == 0)
        #expect(clock.runUntilIdle() == 0)
        #expect(clock.pendingCount == 3)
    }
}

/// The full-size runaway: the standard limits stop a 600 s keep-alive until 10⁹ s (which used to run
/// for over a minute and take gigabytes) after a million trace events.
@Suite(LongRun.only) struct ScenarioRunLimitLongTests {
    @Test func theStandardLimitsStopARunawayKeepAlive() throws {
        let scenario = try Scenario(json: ScenarioRunLimitTests.keepAliveForever)
        #expect {
            _ = try scenario.run()
        } throws: { error in
            guard let error = error as? ScenarioError, case .runLimitExceeded(.traceEvents, let limit, _) = error.problem else { return false }
            return limit == 1_000_200 && error.path == "$.end"
        }
    }
}
