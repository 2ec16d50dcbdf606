import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock

/// Several `BGTaskScheduler` tasks in one launch share one time allotment [S58], on the virtual clock.
@Suite struct SharedAllotmentTests {
    let clock = VirtualClock()
    static let first = "com.example.news.refresh.a"
    static let second = "com.example.news.refresh.b"

    /// Two refresh requests due at 2000 s and 2020 s run in one background run of `news`, whose
    /// delegate answers each with `answer`.
    private func runTwoRefreshes(_ answer: TaskAnswer) throws -> (BackgroundSystem, Application, TaskDelegate) {
        var policy = BudgetPolicy.iOS13
        policy.pendingRefreshTaskRequestLimit = 2
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let delegate = TaskDelegate([Self.first: answer, Self.second: answer])
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch], permittedTaskIdentifiers: [Self.first, Self.second]),
                                      delegate: delegate)
        try system.open(news)
        try news.submit(TaskRequest(identifier: Self.first, kind: .appRefresh, earliestBeginDate: .seconds(2_000)))
        try news.submit(TaskRequest(identifier: Self.second, kind: .appRefresh, earliestBeginDate: .seconds(2_020)))
        try system.pressHome()
        clock.advance(to: .seconds(2_020))
        #expect(delegate.runs.entries.map { $0.0 } == [Self.first, Self.second])
        #expect(delegate.runs.entries.map { $0.1 } == [.seconds(2_000), .seconds(2_020)])
        return (system, news, delegate)
    }

    /// Started at t and t + 20 s, both refreshes are warned at t + 25 s and the app, which completes
    /// neither, is terminated at t + 30 s with `0x2182bad4`: 30 s in all, not 50 s.
    @Test func twoRefreshesStartedTwentySecondsApartAreBothWarnedAt25sAndKilledAt30s() throws {
        let (system, news, delegate) = try runTwoRefreshes(TaskAnswer(success: nil, completesOnExpiry: false))
        clock.advance(to: .seconds(2_025) - .nanoseconds(1))
        #expect(delegate.expirations.entries.isEmpty)
        clock.advance(to: .seconds(2_025))
        #expect(delegate.expirations.entries.map { $0.0 } == [Self.first, Self.second])
        #expect(delegate.expirations.entries.map { $0.1 } == [.seconds(2_025), .seconds(2_025)])
        clock.advance(to: .seconds(2_030) - .nanoseconds(1))
        #expect(news.applicationState == .background)
        clock.advance(to: .seconds(2_030))
        #expect(news.applicationState == .notRunning)
        let exit = system.trace.events.last { $0.app == "news" && $0.eventName == "exit" }
        #expect(exit == TraceEvent(time: .seconds(2_030), app: "news", kind: .exit(.backgroundFetchNotCompleted, code: 0x2182_bad4)))
    }

    /// A new background run starts a new allotment: after the app was in the foreground, a refresh
    /// counts its 30 s from its own start again.
    @Test func theForegroundResetsTheAllotment() throws {
        let (system, news, delegate) = try runTwoRefreshes(TaskAnswer(success: nil, completesOnExpiry: true))
        clock.advance(to: .seconds(2_025))
        #expect(news.applicationState == .suspended)
        try system.open(news)
        try news.submit(TaskRequest(identifier: Self.first, kind: .appRefresh, earliestBeginDate: .seconds(4_000)))
        try system.pressHome()
        clock.advance(to: .seconds(4_030))
        #expect(delegate.expirations.entries.last.map { $0.0 } == Self.first)
        #expect(delegate.expirations.entries.last.map { $0.1 } == .seconds(4_025))
    }
}
