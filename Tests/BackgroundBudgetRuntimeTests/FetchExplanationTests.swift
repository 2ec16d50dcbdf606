import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// What `explainBackgroundFetch` promises around a running or killed fetch.
@Suite struct FetchExplanationTests {
    let clock = VirtualClock()

    /// A fetch that ends with the process (here: not completed in 30 s) plans the next opportunity, so
    /// fetches go on, and `explainBackgroundFetch` never promises one in the past.
    @Test func afterAFetchKillTheExplanationDoesNotPromiseAFetch() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: ScriptedDelegate.fetcher(result: nil))
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(1_200))
        let start = try #require(system.trace.events.first { $0.eventName == "performFetch" }?.time)
        #expect(news.applicationState == .notRunning)                     // killed at start + 30 s
        let explanation = system.explainBackgroundFetch(of: news)
        #expect(explanation.nextOpportunity.map { $0 > clock.now } ?? !explanation.blockers.isEmpty,
                "\(explanation) (next opportunity \(explanation.nextOpportunity.map(String.init(describing:)) ?? "none"), first fetch at \(start))")
        clock.advance(by: .seconds(86_400))
        #expect(system.trace.events.filter { $0.eventName == "performFetch" }.count > 1, "no fetch ever again after the kill")
    }

    /// While a fetch runs, `nextOpportunity` is not the instant the running fetch started.
    @Test func whileAFetchRunsTheNextOpportunityIsNotInThePast() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: ScriptedDelegate.fetcher(result: nil))
        try system.open(news)
        try system.pressHome()
        let next = try #require(system.explainBackgroundFetch(of: news).nextOpportunity)
        clock.advance(to: next + .seconds(10))                              // the fetch runs (it never completes)
        let running = system.explainBackgroundFetch(of: news)
        #expect(running.blockers == [.fetchInProgress])
        #expect(running.nextOpportunity.map { $0 > clock.now } ?? true, "next opportunity \(String(describing: running.nextOpportunity)) at \(clock.now)")
    }
}
