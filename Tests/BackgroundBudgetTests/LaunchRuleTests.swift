import Testing
import TestSupport
@testable import BackgroundBudget
@testable import BackgroundBudgetCore
@testable import BudgetClock
import BackgroundBudgetTestKit

/// Issue 13's rules on a whole system, with the exact trace entries: a `BGTaskScheduler` task
/// that expires with no expiration handler is completed unsuccessfully at once [S49].
@Suite struct LaunchRuleTests {
    let clock = VirtualClock()
    static let refreshID = "com.example.news.refresh"
    static let cleanID = "com.example.news.clean"
    static let message = "All launch handlers must be registered before application finishes launching"

    private func install(_ system: BackgroundSystem, _ delegate: any ApplicationDelegate) throws -> Application {
        try system.install(AppManifest(id: "news", backgroundModes: [.fetch, .processing],
                                       permittedTaskIdentifiers: [Self.refreshID, Self.cleanID]), delegate: delegate)
    }

    private func entries(_ system: BackgroundSystem, at time: BudgetInstant) -> [TraceEvent.Kind] {
        system.trace.events.filter { $0.time == time }.map(\.kind)
    }

    // MARK: Expiry without a handler

    /// Registers handlers that never complete their task and never set an expiration handler.
    private func silentDelegate() -> ScriptedDelegate {
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { app in
            for identifier in [Self.refreshID, Self.cleanID] { app.register(forTaskWithIdentifier: identifier) { _ in } }
        }
        return delegate
    }

    @Test func aRefreshWithoutExpirationHandlerIsCompletedUnsuccessfullyWhenItExpiresAndTheAppLives() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try install(system, silentDelegate())
        try system.open(news)
        try system.pressHome()
        try news.submit(TaskRequest(identifier: Self.refreshID, kind: .appRefresh))
        clock.advance(by: .seconds(1_000))
        #expect(entries(system, at: .seconds(925)) == [
            .taskExpired(Self.refreshID, .runtimeEnding), .taskCompleted(Self.refreshID, .expiredUnfinished),
            .stateChange(.suspended, cause: .suspend(.scheduledTaskCompleted)),
        ])
        #expect(!system.trace.contains(any: .exit))
        #expect(news.applicationState == .suspended)
    }

    @Test func aProcessingTaskWithoutExpirationHandlerGetsNoGrace() throws {
        let system = BackgroundSystem(clock: clock)
        let news = try install(system, silentDelegate())
        try system.open(news)
        try system.pressHome()
        system.setExternalPower(true)
        system.setDeviceIdle(true)
        try news.submit(TaskRequest(identifier: Self.cleanID, kind: .processing(requiresNetworkConnectivity: false, requiresExternalPower: true)))
        clock.advance(by: .seconds(50))
        system.setExternalPower(false)
        #expect(entries(system, at: .seconds(50)) == [
            .deviceChanged(.externalPower(false)),
            .taskExpired(Self.cleanID, .externalPowerLost), .taskCompleted(Self.cleanID, .expiredUnfinished),
            .stateChange(.suspended, cause: .suspend(.scheduledTaskCompleted)),
        ])
    }

    @Test func aHandlerSetThenClearedCountsAsNone() throws {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didFinishLaunching) { app in
            app.register(forTaskWithIdentifier: Self.refreshID) { task in
                task.expirationHandler = { task.setTaskCompleted(success: false) }
                task.expirationHandler = nil
            }
        }
        let news = try install(system, delegate)
        try system.open(news)
        try system.pressHome()
        try news.submit(TaskRequest(identifier: Self.refreshID, kind: .appRefresh))
        clock.advance(by: .seconds(1_000))
        #expect(system.trace.instants(of: .taskCompleted) == [.seconds(925)])
        #expect(!system.trace.contains(any: .exit))
    }
}
