import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// The resume watchdog: resuming, from the start of `applicationWillEnterForeground` until
/// `applicationDidBecomeActive` returns, has about 10 s (observed) [S91][S92], then `0x8badf00d`, as
/// launching has ``BudgetPolicy/launchWatchdog``. `applicationWillResignActive` has no limit of its own.
@Suite struct ResumeWatchdogTests {
    let clock = VirtualClock()

    /// The kinds of the trace entries at one instant, in order.
    private func entries(_ system: BackgroundSystem, at time: BudgetInstant) -> [TraceEvent.Kind] {
        system.trace.events.filter { $0.time == time }.map(\.kind)
    }

    /// Opens "news", sends it home at 10 s (it is suspended), and opens it again at 100 s.
    private func reopen(_ system: BackgroundSystem, _ delegate: ScriptedDelegate) throws -> Application {
        let news = try system.install(AppManifest(id: "news"), delegate: delegate)
        try system.open(news)
        clock.advance(to: .seconds(10))
        try system.pressHome()
        clock.advance(to: .seconds(100))
        try system.open(news)
        clock.advance(by: .seconds(60))
        return news
    }

    @Test func aSlowResumeSplitAcrossWillEnterForegroundAndDidBecomeActiveIsKilledTenSecondsAfterItStarted() throws {
        let system = BackgroundSystem(clock: clock)
        let clock = self.clock
        let delegate = ScriptedDelegate()
        delegate.on(.willEnterForeground) { app in app.simulateWork(for: .seconds(6)) }
        delegate.on(.didBecomeActive) { app in
            if clock.now >= .seconds(100) { app.simulateWork(for: .seconds(5)) }    // only when it resumes
        }
        let news = try reopen(system, delegate)
        #expect(delegate.times(of: .lifecycle(.willEnterForeground)) == [.seconds(100)])
        #expect(entries(system, at: .seconds(110)) == [
            .exit(.watchdog, code: 0x8bad_f00d), .killedMidCallback(.didBecomeActive),
            .stateChange(.notRunning, cause: .kill(.watchdog)),
        ])
        #expect(news.applicationState == .notRunning)
    }

    @Test func aResumeThatBecomesActiveWithinTheLimitIsNotKilled() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.willEnterForeground) { app in app.simulateWork(for: .seconds(6)) }
        let news = try reopen(system, delegate)
        #expect(delegate.times(of: .lifecycle(.didBecomeActive)) == [.zero, .seconds(106)])
        #expect(!system.trace.contains(any: .exit))
        #expect(news.applicationState == .active)
    }

    @Test func theResumeLimitIsAValidatedPolicyNumberInEveryPreset() throws {
        #expect(BudgetPolicy.presets.map(\.resumeWatchdog) == [.seconds(10), .seconds(10), .seconds(10)])
        var policy = BudgetPolicy.iOS13
        policy.resumeWatchdog = .zero
        #expect(throws: PolicyError(field: .resumeWatchdog, problem: .notPositive(0))) { try policy.validate() }
        let system = try BackgroundSystem(policy: BudgetPolicy.iOS13.setting(.resumeWatchdog, to: 4), clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.willEnterForeground) { app in app.simulateWork(for: .seconds(6)) }
        _ = try reopen(system, delegate)
        #expect(system.trace.instants(of: .exit) == [.seconds(104)])
    }

    @Test func willResignActiveHasNoLimitOfItsOwn() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.willResignActive) { app in app.simulateWork(for: .seconds(60)) }
        let news = try system.install(AppManifest(id: "news"), delegate: delegate)
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(120))
        #expect(delegate.times(of: .lifecycle(.didEnterBackground)) == [.seconds(60)])
        #expect(!system.trace.contains(any: .exit))
        #expect(news.applicationState == .suspended)
    }
}
