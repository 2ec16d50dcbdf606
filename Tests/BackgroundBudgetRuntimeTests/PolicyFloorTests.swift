import BackgroundBudgetExplorer
import Testing
import BackgroundBudget
import BackgroundBudgetCore
@testable import BackgroundBudgetScenario
import BudgetClock
import BackgroundBudgetTestKit

/// Interval-like policy numbers have floors: iOS's own (600 s for the VoIP keep-alive) or the model's
/// (1 s between fetch opportunities, 1 ms for every other duration), so no policy can make a run
/// repeat without end.
@Suite struct PolicyFloorTests {
    @Test func aKeepAliveIntervalUnder600SecondsIsRefusedByValidation() {
        var policy = BudgetPolicy.iOS13
        policy.voipKeepAliveMinimumInterval = .nanoseconds(1)
        #expect(throws: PolicyError(field: .voipKeepAliveMinimumInterval, problem: .belowFloor(1e-9, floor: 600))) {
            try policy.validate()
        }
        policy.voipKeepAliveMinimumInterval = .seconds(600)
        #expect(throws: Never.self) { try policy.validate() }
        #expect(throws: PolicyError.self) { try BackgroundSystem(policy: BudgetPolicy.iOS13.with(\.voipKeepAliveMinimumInterval, .seconds(599)),
                                                                  clock: VirtualClock()) }
    }

    @Test func settingRefusesEveryDurationBelowItsFloorAndNamesTheFloor() throws {
        for field in BudgetPolicy.Field.allCases where field.isDuration {
            let floor = try #require(field.floor)
            if floor == .zero {
                #expect(throws: PolicyError(field: field, problem: .negative(-1e-9))) { try BudgetPolicy.iOS13.setting(field, to: -1e-9) }
                continue
            }
            let under = floor.secondsDouble / 2
            #expect(throws: PolicyError(field: field, problem: .belowFloor(under, floor: floor.secondsDouble))) {
                try BudgetPolicy.iOS13.setting(field, to: under)
            }
            #expect(throws: PolicyError(field: field, problem: .notPositive(0))) { try BudgetPolicy.iOS13.setting(field, to: 0) }
            #expect(try BudgetPolicy.iOS13.setting(field, to: floor.secondsDouble).validateFieldAlone(field))
        }
        #expect(BudgetPolicy.Field.voipKeepAliveMinimumInterval.floor == .seconds(600))
        #expect(BudgetPolicy.Field.minimumFetchInterval.floor == .seconds(1))
        #expect(BudgetPolicy.Field.fetchSeed.floor == nil)
        #expect(PolicyError(field: .voipKeepAliveMinimumInterval, problem: .belowFloor(1e-9, floor: 600)).description
            == "voipKeepAliveMinimumInterval must be at least 600 s (got 1e-09)")
    }

    @Test func everyPresetIsAtOrAboveEveryFloor() throws {
        for preset in BudgetPolicy.presets {
            try preset.validate()
        }
    }

    @Test func aScenarioWithANanosecondKeepAliveIsRefusedAtTheOverride() {
        let json = """
            {"policy": {"overrides": {"voipKeepAliveMinimumInterval": 1e-9}},
             "apps": [{"id": "com.example.phone", "backgroundModes": ["voip"]}],
             "events": [{"at": 0, "do": "launch", "app": "com.example.phone"}], "end": 1000000000}
            """
        do {
            _ = try Scenario(json: json)
            Issue.record("decoded")
        } catch {
            #expect(error.problem == .invalidPolicy(PolicyError(field: .voipKeepAliveMinimumInterval, problem: .belowFloor(1e-9, floor: 600))))
            #expect(error.path == "$.policy.overrides.voipKeepAliveMinimumInterval")
        }
    }

    @Test func theAppCannotInstallAKeepAliveUnderThePolicyMinimum() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let phone = try system.install(AppManifest(id: "com.example.phone", backgroundModes: [.voip]))
        try system.open(phone)
        #expect(!phone.setKeepAliveTimeout(.nanoseconds(1)) {})
        #expect(!phone.setKeepAliveTimeout(.seconds(-600)) {})
        #expect(phone.setKeepAliveTimeout(.seconds(Int64.max)) {})     // far in the future, never overflows
        clock.advance(by: .seconds(100_000))
        #expect(!system.trace.events.contains { $0.eventName == "keepAliveHandler" })
    }
}

/// Fetch intervals from app code: the shortest is raised to the policy's floor, the longest never overflows.
@Suite struct FetchIntervalEdgeTests {
    private func fetchStarts(_ interval: BackgroundFetchInterval, minimum: Duration, over seconds: Int64) throws -> [BudgetInstant] {
        let clock = VirtualClock()
        let policy = try BudgetPolicy.iOS13.setting(.minimumFetchInterval, to: minimum.secondsDouble)
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]),
                                      delegate: ScriptedDelegate.fetcher(result: .newData, work: .zero, interval: interval))
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(seconds))
        return system.trace.events.filter { $0.eventName == "performFetch" }.map(\.time)
    }

    @Test func aZeroOrNegativeIntervalFetchesNoMoreOftenThanThePolicyFloorAllows() throws {
        for interval in [BackgroundFetchInterval.atLeast(.zero), .atLeast(.seconds(-5)), .atLeast(.nanoseconds(1)), .minimum] {
            let starts = try fetchStarts(interval, minimum: .seconds(1), over: 60)
            #expect(!starts.isEmpty && starts.count <= 120)      // the gap is at least half the 1 s floor
        }
    }

    @Test func aHugeIntervalNeverOverflows() throws {
        #expect(try fetchStarts(.atLeast(.seconds(Int64.max)), minimum: .seconds(900), over: 100_000).isEmpty)
    }
}

extension BudgetPolicy {
    /// A copy with one property changed.
    func with<Value>(_ key: WritableKeyPath<BudgetPolicy, Value>, _ value: Value) -> BudgetPolicy {
        var copy = self
        copy[keyPath: key] = value
        return copy
    }

    /// `true` when the policy validates, or fails only for a field other than `field`.
    func validateFieldAlone(_ field: Field) -> Bool {
        do {
            try validate()
            return true
        } catch {
            return error.field != field
        }
    }
}
