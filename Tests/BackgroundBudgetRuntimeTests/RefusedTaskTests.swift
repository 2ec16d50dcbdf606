import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// A `beginBackgroundTask` the system cannot grant: the assertion is granted asynchronously, and one
/// that cannot be granted gets its expiration handler called [S14][S6]. The model refuses a begin
/// when the allowance is spent: it returns `.invalid` at once, and the handler runs on the app's
/// queue after the code that asked has returned, timed as expiration handlers are.
@Suite struct RefusedTaskTests {
    let clock = VirtualClock()

    /// A system whose `didEnterBackground` may run long enough to spend the whole allowance in it.
    private func system() throws -> BackgroundSystem {
        var policy = BudgetPolicy.iOS13
        policy.didEnterBackgroundLimit = .seconds(60)
        return try BackgroundSystem(policy: policy, clock: clock)
    }

    /// The kinds of the trace entries at one instant, in order.
    private func entries(_ system: BackgroundSystem, at time: BudgetInstant) -> [TraceEvent.Kind] {
        system.trace.events.filter { $0.time == time }.map(\.kind)
    }

    @Test func aBeginRefusedForASpentAllowanceCallsItsHandlerAfterTheCallerReturns() throws {
        let system = try system()
        let log = TestLog<String>()
        let clock = self.clock
        let delegate = ScriptedDelegate()
        delegate.on(.didEnterBackground) { app in
            app.simulateWork(for: .seconds(31))                // the whole allowance goes by in the callback
            let task = app.beginBackgroundTask(withName: "late") {
                log.append("handler at \(clock.now)")
                app.endBackgroundTask(.invalid)
            }
            log.append("begin returned \(task == .invalid ? "invalid" : "a task")")
        }
        let app = try system.install(AppManifest(id: "news"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        // Never from inside the begin: after the callback that asked.
        #expect(log.entries == ["begin returned invalid", "handler at t=31.000s"])
        #expect(entries(system, at: .seconds(31)) == [
            .backgroundTaskDenied(name: "late", .allowanceSpent),
            .expirationHandlerCalled(.invalid),
            .backgroundTaskEndIgnored(.invalid, .invalidIdentifier),
            .stateChange(.suspended, cause: .suspend(.noBackgroundWork)),
        ])
        #expect(system.trace.events.first { $0.kind == .expirationHandlerCalled(.invalid) }?.jsonLine
            == #"{"t":31.000,"app":"news","event":"expirationHandler","task":0}"#)
        #expect(app.applicationState == .suspended)
    }

    @Test func aRefusedTasksHandlerRunningPastItsLimitIsKilledWithTheExpiryCode() throws {
        let system = try system()
        let delegate = ScriptedDelegate()
        delegate.on(.didEnterBackground) { app in
            app.simulateWork(for: .seconds(31))
            app.beginBackgroundTask(withName: "late") { app.simulateWork(for: .seconds(2)) }
        }
        let app = try system.install(AppManifest(id: "news"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        clock.advance(by: .seconds(60))
        #expect(system.trace.instants(of: .expirationHandlerCalled) == [.seconds(31)])
        #expect(entries(system, at: .seconds(32)) == [
            .exit(.backgroundTaskExpired, code: 0x2182_bad2),
            .stateChange(.notRunning, cause: .kill(.backgroundTaskExpired)),
        ])
        #expect(app.applicationState == .notRunning)
    }

    @Test func otherRefusalsCallNoHandler() throws {
        let system = try system()
        let calls = TestLog<BudgetInstant>()
        let clock = self.clock
        let app = try system.install(AppManifest(id: "news"))
        #expect(app.beginBackgroundTask { calls.append(clock.now) } == .invalid)       // not running
        try system.open(app)
        try system.pressHome()
        #expect(app.applicationState == .suspended)
        #expect(app.beginBackgroundTask { calls.append(clock.now) } == .invalid)       // suspended
        let old = try system.install(AppManifest(id: "old", exitsOnSuspend: true))
        try system.open(old)
        #expect(old.beginBackgroundTask { calls.append(clock.now) } == .invalid)       // exits on suspend
        clock.advance(by: .seconds(60))
        #expect(calls.entries.isEmpty)
        #expect(!system.trace.contains(any: .expirationHandlerCalled))
    }
}
