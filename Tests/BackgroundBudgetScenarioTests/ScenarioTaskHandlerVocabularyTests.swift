import BackgroundBudgetExplorer
import BudgetTime
import Testing
import BackgroundBudgetScenario
import BudgetClock

/// Scenario words for `BGTaskScheduler` handlers and requests: an expiration handler that is set but
/// does not complete its task (`onExpiration`), and a continued-processing request with an
/// `earliest` date, which iOS ignores. Each decodes, refuses bad input with a located error, and runs
/// to exact trace entries.
@Suite struct ScenarioTaskHandlerVocabularyTests {
    static let refreshID = "com.example.news.refresh"

    /// The error a text produces, as `line:column path: message`.
    func failure(_ text: String) -> String { decodingFailure(text) }

    /// A news app that registers its refresh handler with `handler` (extra keys of the step), submits a
    /// refresh at launch, and is sent Home at 10 s: the refresh starts at 900 s.
    func refreshRun(_ handler: String) throws -> ScenarioRun {
        try Scenario(json: """
            {"apps": [{"id": "com.example.news", "backgroundModes": ["fetch"], "permittedTaskIdentifiers": ["\(Self.refreshID)"],
                       "behaviour": {"application:didFinishLaunchingWithOptions": [
                           {"do": "registerTask", "identifier": "\(Self.refreshID)"\(handler)},
                           {"do": "submitTask", "identifier": "\(Self.refreshID)"}]}}],
             "events": [{"at": 0, "do": "open", "app": "com.example.news"}, {"at": 10, "do": "home"}],
             "end": 1000}
            """).run()
    }

    /// The run's entries from `from` on, as `time event` lines.
    func entries(_ run: ScenarioRun, from: BudgetInstant) -> [String] {
        run.trace.events.filter { $0.time >= from && $0.app == "com.example.news" }.map { "\($0.time) \($0.eventName)\($0.reason.map { " " + $0 } ?? "")" }
    }

    // MARK: onExpiration

    @Test func onExpirationDecodesWithDefaultsThatKeepTheOldMeaning() throws {
        func handler(_ keys: String) throws -> ScenarioTaskHandler? {
            let scenario = try Scenario(json: """
                {"apps": [{"id": "a", "behaviour": {"application:didFinishLaunchingWithOptions": [{"do": "registerTask", "identifier": "x"\(keys)}]}}],
                 "events": []}
                """)
            guard case .registerTask(let handler) = scenario.apps[0].behaviour.steps[.didFinishLaunching]?.first else { return nil }
            return handler
        }
        #expect(try handler("")?.onExpiration == .complete)
        #expect(try handler(#", "result": "never""#)?.onExpiration == ScenarioTaskHandler.ExpirationResponse.none)
        #expect(try handler(#", "result": "never", "progress": 2"#)?.onExpiration == .ignore)
        #expect(try handler(#", "result": "never", "onExpiration": "ignore""#)?.onExpiration == .ignore)
        #expect(try handler(#", "onExpiration": "none""#)?.onExpiration == ScenarioTaskHandler.ExpirationResponse.none)
        #expect(failure(#"{"apps": [{"id": "a", "behaviour": {"application:didFinishLaunchingWithOptions": [{"do": "registerTask", "identifier": "x", "onExpiration": "later"}]}}], "events": []}"#)
            == #"1:141 $.apps[0].behaviour['application:didFinishLaunchingWithOptions'][0].onExpiration: unknown value "later"; accepted: "complete", "ignore", "none""#)
        #expect(failure(#"{"apps": [{"id": "a", "behaviour": {"application:didFinishLaunchingWithOptions": [{"do": "registerTask", "identifier": "x", "onExpiration": 1}]}}], "events": []}"#)
            .hasSuffix(".onExpiration: expected a string, found a number"))
    }

    @Test func aHandlerThatIgnoresExpiryGetsTheAppTerminatedWhenTheRefreshRuntimeEnds() throws {
        let run = try refreshRun(#", "result": "never", "onExpiration": "ignore""#)
        #expect(entries(run, from: .seconds(900)).filter { !$0.contains("stateChange") && !$0.contains("Background") } == [
            "t=900.000s taskStarted", "t=925.000s taskExpired runtimeEnding", "t=930.000s exit backgroundFetchNotCompleted",
        ])
        let exit = try #require(run.trace.events.first { $0.eventName == "exit" })
        #expect(exit.code == "0x2182bad4")
    }

    @Test func withoutAHandlerTheSystemMarksTheTaskFailedAtExpiryAndTheAppLives() throws {
        let run = try refreshRun(#", "result": "never""#)
        #expect(entries(run, from: .seconds(925)) == [
            "t=925.000s taskExpired runtimeEnding", "t=925.000s taskCompleted expiredUnfinished", "t=925.000s stateChange scheduledTaskCompleted",
        ])
    }

    @Test func aHandlerThatCompletesEndsTheTaskUnsuccessfullyAtExpiry() throws {
        let run = try refreshRun(#", "result": "never", "onExpiration": "complete""#)
        #expect(entries(run, from: .seconds(925)) == [
            "t=925.000s taskExpired runtimeEnding", "t=925.000s taskCompleted failure", "t=925.000s stateChange scheduledTaskCompleted",
        ])
    }

    // MARK: earliest on a continued-processing request

    /// A photos app on screen submits an export at 5 s with `keys`.
    func exportScenario(_ keys: String) -> String {
        """
        {"apps": [{"id": "com.example.photos", "permittedTaskIdentifiers": ["com.example.photos.export.*"],
                   "behaviour": {"application:didFinishLaunchingWithOptions": [
                       {"do": "registerTask", "identifier": "com.example.photos.export.*", "work": 20}]}}],
         "events": [{"at": 0, "do": "open", "app": "com.example.photos"},
                    {"at": 5, "do": "submitTask", "app": "com.example.photos", "identifier": "com.example.photos.export.a",
                     "kind": "continuedProcessing"\(keys)}],
         "end": 100}
        """
    }

    @Test func aContinuedProcessingEarliestIsAcceptedAndIgnoredAsOnIOS() throws {
        let run = try Scenario(json: exportScenario(#", "earliest": 600"#)).run()
        let names = run.trace.events.filter { $0.name == "com.example.photos.export.a" }.map { "\($0.time) \($0.eventName)" }
        #expect(names == ["t=5.000s taskSubmitted", "t=5.000s taskStarted", "t=25.000s taskCompleted"])
        // The same run as without the key.
        #expect(run.trace == (try Scenario(json: exportScenario("")).run()).trace)
    }

    @Test func aBadContinuedProcessingEarliestIsStillALocatedError() throws {
        #expect(failure(exportScenario(#", "earliest": "soon""#)).hasSuffix("$.events[1].earliest: expected a number, found a string"))
        #expect(failure(exportScenario(#", "earliest": -1"#)).contains("$.events[1].earliest:"))
    }
}
