import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BudgetClock

/// At most 20 monitored regions per app (observed) [S32]: starting a 21st fails for that region, as
/// Core Location reports it (`monitoringDidFailFor`, `regionMonitoringFailure`); the others stay.
@Suite struct RegionLimitTests {
    let clock = VirtualClock()

    @Test func theTwentyFirstRegionFailsAndTheTwentyAlreadyMonitoredStay() throws {
        let system = BackgroundSystem(clock: clock)
        let tracker = try system.install(AppManifest(id: "tracker", backgroundModes: [.location]))
        try system.open(tracker)
        for index in 1...20 { #expect(tracker.startMonitoring(region: "r\(index)")) }
        #expect(tracker.startMonitoring(region: "r5"))                   // already monitored: nothing changes
        clock.advance(to: .seconds(7))
        #expect(!tracker.startMonitoring(region: "r21"))
        #expect(system.trace.events.filter { $0.kind.tag == .regionMonitoringFailed }.map(\.jsonLine) == [
            #"{"t":7.000,"app":"tracker","event":"regionMonitoringFailed","name":"r21","reason":"tooManyRegions"}"#,
        ])
        try system.pressHome()
        try system.killFromAppSwitcher(tracker)
        #expect(system.deliver(.regionBoundary("r21"), to: tracker) == .dropped(.notMonitoring))
        #expect(system.deliver(.regionBoundary("r20"), to: tracker) == .delivered)
        // Stopping one makes room.
        tracker.stopMonitoring(region: "r1")
        #expect(tracker.startMonitoring(region: "r21"))
    }

    @Test func theLimitIsAValidatedPolicyNumber() throws {
        #expect(BudgetPolicy.presets.map(\.maxMonitoredRegions) == [20, 20, 20])
        var policy = BudgetPolicy.iOS13
        policy.maxMonitoredRegions = 0
        #expect(throws: PolicyError(field: .maxMonitoredRegions, problem: .notPositive(0))) { try policy.validate() }
        let system = try BackgroundSystem(policy: BudgetPolicy.iOS13.setting(.maxMonitoredRegions, to: 2), clock: clock)
        let tracker = try system.install(AppManifest(id: "tracker", backgroundModes: [.location]))
        try system.open(tracker)
        #expect([tracker.startMonitoring(region: "a"), tracker.startMonitoring(region: "b"), tracker.startMonitoring(region: "c")]
            == [true, true, false])
    }
}
