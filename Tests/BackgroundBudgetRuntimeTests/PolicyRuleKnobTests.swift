import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock
import BackgroundBudgetTestKit

/// The rules of issue 13 that became policy choices, run on a virtual clock with exact instants:
/// exits-on-suspend (``BudgetPolicy/honoursExitsOnSuspend``) and the jetsam order within a band
/// (``BudgetPolicy/jetsamOrderWithinBand``), each under both settings.
@Suite struct PolicyRuleKnobTests {
    let clock = VirtualClock()
    static let mb = 1_000_000

    /// A system on the virtual clock under the iOS 13 preset, changed by `change`.
    private func system(_ change: (inout BudgetPolicy) -> Void = { _ in }) throws -> BackgroundSystem {
        var policy = BudgetPolicy.iOS13
        change(&policy)
        return try BackgroundSystem(policy: policy, clock: clock)
    }

    // MARK: Exits on suspend

    @Test func everyPresetHonoursExitsOnSuspend() {
        #expect(BudgetPolicy.presets.filter { !$0.honoursExitsOnSuspend }.isEmpty)
    }

    @Test func honouredExitsOnSuspendTerminatesAtHomeAndExplainsTheRule() throws {
        let system = try system()
        let delegate = ScriptedDelegate()
        let app = try system.install(AppManifest(id: "old", exitsOnSuspend: true, backgroundModes: [.bluetoothCentral]), delegate: delegate)
        try system.open(app)
        clock.advance(by: .seconds(5))
        #expect(app.beginBackgroundTask(withName: "upload") == .invalid)
        try system.pressHome()
        #expect(delegate.callbacks.suffix(3) == [.willResignActive, .didEnterBackground, .willTerminate])
        #expect(system.trace.instants(of: .exit, for: app.id) == [.seconds(5)])
        #expect(app.applicationState == .notRunning)
        #expect(system.deliver(.bluetooth(.central), to: app) == .dropped(.exitsOnSuspend))
        let explanation = system.explain(app)
        #expect(explanation.exitsOnSuspend == .honouredByPolicy)
        #expect(explanation.relaunchBlockers == [.exitsOnSuspend])
        #expect(explanation.description == "old is notRunning; not relaunched in the background because it exits on suspend."
            + " Exits on suspend: honoured by policy (iOS 13+ ignores the flag).")
    }

    @Test func ignoredExitsOnSuspendSuspendsLikeAnyAppAndExplainsTheRule() throws {
        let system = try system { $0.honoursExitsOnSuspend = false }
        let delegate = ScriptedDelegate()
        let app = try system.install(AppManifest(id: "old", exitsOnSuspend: true, backgroundModes: [.bluetoothCentral]), delegate: delegate)
        try system.open(app)
        clock.advance(by: .seconds(5))
        let task = app.beginBackgroundTask(withName: "upload")
        #expect(task != .invalid)
        try system.pressHome()
        #expect(!delegate.callbacks.contains(.willTerminate))
        #expect(app.applicationState == .background)
        clock.advance(by: .seconds(3))
        app.endBackgroundTask(task)
        #expect(app.applicationState == .suspended)
        #expect(system.trace.instants(of: .exit, for: app.id) == [])
        #expect(system.trace.events.last { $0.app == app.id && $0.state == .suspended }?.time == .seconds(8))
        #expect(system.deliver(.bluetooth(.central), to: app) == .delivered)
        #expect(app.applicationState == .background)
        let explanation = system.explain(app)
        #expect(explanation.exitsOnSuspend == .ignoredByPolicy)
        #expect(explanation.description.hasSuffix(" Exits on suspend: ignored by policy, as from iOS 13."))
    }

    @Test func anAppWithoutTheFlagIsExplainedWithoutTheRule() throws {
        let system = try system()
        let app = try system.install(AppManifest(id: "plain"))
        try system.open(app)
        #expect(system.explain(app).exitsOnSuspend == nil)
        #expect(system.explain(app).description == "plain is active: kept running by being in the foreground.")
    }

    @Test func honoursExitsOnSuspendIsSetFromZeroOrOneOnly() throws {
        #expect(try BudgetPolicy.iOS13.setting(.honoursExitsOnSuspend, to: 0).honoursExitsOnSuspend == false)
        #expect(try BudgetPolicy.iOS13.setting(.honoursExitsOnSuspend, to: 1).honoursExitsOnSuspend == true)
        #expect(throws: PolicyError(field: .honoursExitsOnSuspend, problem: .notAWholeNumber(2))) {
            try BudgetPolicy.iOS13.setting(.honoursExitsOnSuspend, to: 2)
        }
        #expect(throws: PolicyError(field: .honoursExitsOnSuspend, problem: .notAWholeNumber(0.5))) {
            try BudgetPolicy.iOS13.setting(.honoursExitsOnSuspend, to: 0.5)
        }
    }

    // MARK: Jetsam order within a band

    /// Opens `small` (100 MB) at 0 s and `large` (300 MB) at 10 s, presses Home at 20 s (both are
    /// suspended, `small` used longer ago), then lowers the capacity to 350 MB: one purge is enough.
    private func purgeOne(under order: JetsamOrder) throws -> (exits: [String], at: [BudgetInstant]) {
        let system = try system { $0.jetsamOrderWithinBand = order }
        for (id, footprint) in [("small", 100), ("large", 300)] {
            var manifest = AppManifest(id: AppID(rawValue: id))
            manifest.memoryFootprint = footprint * Self.mb
            try system.open(try system.install(manifest))
            clock.advance(by: .seconds(10))
        }
        try system.pressHome()
        clock.advance(by: .seconds(5))
        system.setMemoryCapacity(350 * Self.mb)
        let exits = system.trace.events(of: .exit)
        return (exits.map { "\($0.app) \($0.reason ?? "")" }, exits.map(\.time))
    }

    @Test func largestFootprintOrderPurgesTheLargerAppFirst() throws {
        #expect(BudgetPolicy.iOS13.jetsamOrderWithinBand == .largestFootprint)
        let (exits, at) = try purgeOne(under: .largestFootprint)
        #expect(exits == ["large memoryPressure"])
        #expect(at == [.seconds(25)])
    }

    @Test func leastRecentlyUsedOrderPurgesTheAppUsedLongestAgoFirst() throws {
        let (exits, at) = try purgeOne(under: .leastRecentlyUsed)
        #expect(exits == ["small memoryPressure"])
        #expect(at == [.seconds(25)])
    }

    @Test func jetsamOrderIsSetFromZeroOrOne() throws {
        #expect(try BudgetPolicy.iOS13.setting(.jetsamOrderWithinBand, to: 1).jetsamOrderWithinBand == .leastRecentlyUsed)
        #expect(try BudgetPolicy.iOS13.setting(.jetsamOrderWithinBand, to: 0).jetsamOrderWithinBand == .largestFootprint)
        #expect(throws: PolicyError(field: .jetsamOrderWithinBand, problem: .notAWholeNumber(2))) {
            try BudgetPolicy.iOS13.setting(.jetsamOrderWithinBand, to: 2)
        }
        #expect(JetsamOrder.allCases.map { JetsamOrder(number: $0.number) } == JetsamOrder.allCases)
    }
}
