import Testing
import TestSupport
import BackgroundBudget
@testable import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

extension ScriptedDelegate {
    /// A delegate that sets a fetch interval at launch and answers fetches with a fixed result after
    /// some work, or never.
    static func fetcher(result: BackgroundFetchResult?, work: Duration = .seconds(2),
                        interval: BackgroundFetchInterval = .minimum) -> ScriptedDelegate {
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { $0.setMinimumBackgroundFetchInterval(interval) }
        delegate.completeFetches(with: result, after: work)
        return delegate
    }
}

/// Legacy background fetch on the virtual clock.
@Suite struct BackgroundFetchTests {
    let clock = VirtualClock()

    private func fetchStarts(_ system: BackgroundSystem, _ app: AppID = "news") -> [BudgetInstant] {
        system.trace.instants(of: .fetchStarted, for: app)
    }

    @Test func aSuspendedAppIsWokenToFetchAndSuspendedWhenItCompletes() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate.fetcher(result: .newData)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: delegate)
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(1_200))
        let first = try #require(fetchStarts(system).first)
        #expect(first >= .seconds(900) && first < .seconds(1_126))        // 900 s × (1 + jitter < 0.25)
        #expect(delegate.records(ofKind: .fetch).first?.state == .background)
        let wake = try #require(system.trace.events.first { $0.time == first && $0.state == .background })
        #expect(wake.reason == "backgroundFetch")
        #expect(system.trace.events.contains(TraceEvent(time: first + .seconds(2), app: "news",
                                                        kind: .stateChange(.suspended, cause: .suspend(.fetchCompleted)))))
        #expect(news.applicationState == .suspended)
    }

    @Test func aTerminatedAppIsLaunchedIntoTheBackgroundToFetch() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: ScriptedDelegate.fetcher(result: .noData))
        try system.open(news)
        try system.pressHome()
        try system.purge(news)
        clock.advance(by: .seconds(1_200))
        let launch = try #require(system.trace.events.first { $0.eventName == "stateChange" && $0.reason == "backgroundFetch" })
        #expect(launch.state == .background)
        #expect(fetchStarts(system) == [launch.time])
    }

    @Test func aFetchThatNeverCompletesIsKilledAfterThirtySeconds() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: ScriptedDelegate.fetcher(result: nil))
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(1_200))
        let start = try #require(fetchStarts(system).first)
        let exit = try #require(system.trace.first(.exit))
        #expect(exit == TraceEvent(time: start + .seconds(30), app: "news", kind: .exit(.backgroundFetchNotCompleted, code: 0x2182_bad4)))
    }

    @Test func noFetchesWithoutTheModeAnIntervalOrWithTaskSchedulerIdentifiers() throws {
        let system = BackgroundSystem(clock: clock)
        let apps = try [
            system.install(AppManifest(id: "never", backgroundModes: [.fetch]), delegate: ScriptedDelegate.fetcher(result: .newData, interval: .never)),
            system.install(AppManifest(id: "nomode"), delegate: ScriptedDelegate.fetcher(result: .newData)),
            system.install(AppManifest(id: "modern", backgroundModes: [.fetch], permittedTaskIdentifiers: ["com.example.refresh"]),
                           delegate: ScriptedDelegate.fetcher(result: .newData)),
            system.install(AppManifest(id: "legacy", exitsOnSuspend: true, backgroundModes: [.fetch]), delegate: ScriptedDelegate.fetcher(result: .newData)),
        ]
        for app in apps {
            try system.open(app)
            try system.pressHome()
        }
        clock.advance(by: .seconds(86_400))
        #expect(!system.trace.contains(any: .fetchStarted))
        #expect(clock.pendingCount == 0)
    }

    @Test func backgroundAppRefreshOffAndAUserKillSkipFetchesUntilLifted() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: ScriptedDelegate.fetcher(result: .newData))
        try system.open(news)
        try system.pressHome()
        system.setLowPowerMode(true)
        clock.advance(by: .seconds(3_000))
        #expect(fetchStarts(system).isEmpty)
        #expect(system.trace.events.contains { $0.kind == .fetchSkipped(.backgroundAppRefreshOff) })
        system.setLowPowerMode(false)
        try system.killFromAppSwitcher(news)
        clock.advance(by: .seconds(3_000))
        #expect(fetchStarts(system).isEmpty)
        #expect(system.trace.events.contains { $0.kind == .fetchSkipped(.killedByUser) })
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(3_000))
        #expect(!fetchStarts(system).isEmpty)
    }

    @Test func theModelIsDeterministicHonoursTheIntervalAndRewardsNewData() throws {
        func week(result: BackgroundFetchResult, seed: UInt64) throws -> (trace: String, starts: [BudgetInstant]) {
            let clock = VirtualClock()
            var policy = BudgetPolicy.iOS13
            policy.fetchSeed = seed
            let system = try BackgroundSystem(policy: policy, clock: clock)
            let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]),
                                          delegate: ScriptedDelegate.fetcher(result: result, interval: .atLeast(.seconds(3_600))))
            try system.open(news)
            try system.pressHome()
            clock.advance(by: .seconds(7 * 86_400))
            return (system.trace.jsonLines(), fetchStarts(system))
        }
        let newData = try week(result: .newData, seed: 1)
        #expect(try week(result: .newData, seed: 1).trace == newData.trace)
        #expect(try week(result: .newData, seed: 2).trace != newData.trace)
        let gaps = zip(newData.starts.dropFirst(), newData.starts).map { $0 - $1 }
        #expect(!gaps.isEmpty && gaps.allSatisfy { $0 >= .seconds(3_600) })
        let noData = try week(result: .noData, seed: 1)
        let failed = try week(result: .failed, seed: 1)
        #expect(newData.starts.count > noData.starts.count)
        #expect(noData.starts.count > failed.starts.count)
        #expect(newData.starts.count >= 100)                   // about one an hour, minus the completion time
    }

    @Test func aSecondCompletionIsIgnored() throws {
        let twice = ScriptedDelegate()
        twice.on(.didFinishLaunching) { $0.setMinimumBackgroundFetchInterval(.minimum) }
        twice.onFetch { _, complete in
            complete(.newData)
            complete(.failed)
        }
        let system = BackgroundSystem(clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: twice)
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(1_200))
        expectTrace(system, app: news, [
            .exactly(.fetchCompleted(.newData)), .exactly(.fetchCompletionIgnored(.failed)),
        ])
    }

    // MARK: Why didn't my fetch run?

    @Test func explainListsEveryReasonAFetchDoesNotComeAndTheNextOpportunity() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: ScriptedDelegate.fetcher(result: .noData))
        let plain = try system.install(AppManifest(id: "plain", permittedTaskIdentifiers: ["plain.refresh"]))
        let legacy = try system.install(AppManifest(id: "legacy", exitsOnSuspend: true, backgroundModes: [.fetch]))
        #expect(system.explainBackgroundFetch(of: plain).blockers == [.fetchModeMissing, .usesTaskScheduler, .intervalNever])
        #expect(system.explainBackgroundFetch(of: legacy).blockers == [.exitsOnSuspend, .intervalNever])

        try system.open(news)                                            // sets .minimum at launch
        let onScreen = system.explainBackgroundFetch(of: news)
        let next = try #require(onScreen.nextOpportunity)
        #expect(onScreen.blockers == [.inForeground, .notBefore(next)])
        try system.pressHome()
        clock.advance(to: next)                                          // the first fetch: noData
        clock.advance(by: .seconds(10))
        let after = system.explainBackgroundFetch(of: news)
        let later = try #require(after.nextOpportunity)
        #expect(later >= next + .seconds(2) + .seconds(1_350))            // 900 s × 1.5 after noData
        #expect(after.blockers == [.notBefore(later), .throttled(factor: 1.5)])
        #expect(after.description == "news gets no background fetch now. The next fetch opportunity is at \(later). Recent fetches found nothing, failed or were slow: the gap between opportunities is stretched ×1.5.")

        system.setBackgroundAppRefresh(enabled: false, for: news)
        try system.killFromAppSwitcher(news)
        #expect(system.explainBackgroundFetch(of: news).blockers.prefix(2) == [.backgroundAppRefreshOff, .killedByUser])
        #expect(FetchExplanation(app: "news", nextOpportunity: nil, blockers: []).description
            == "news's background fetch is due and runs at the next opportunity.")
    }
}
