import Testing
import BackgroundBudget
import BackgroundBudgetCore
import BackgroundBudgetScenario
import BudgetClock
import BackgroundBudgetTestKit

@Suite struct BudgetPolicyTests {
    @Test func presetsCarryTheEraAllowances() throws {
        #expect(BudgetPolicy.iOS13.backgroundTaskAllowance == .seconds(30))
        #expect(BudgetPolicy.iOS7.backgroundTaskAllowance == .seconds(180))
        #expect(BudgetPolicy.iOS4.backgroundTaskAllowance == .seconds(600))
        #expect(BudgetPolicy.iOS13.backgroundTaskExpiryCode == 0x2182_bad2)
        #expect(BudgetPolicy.iOS7.backgroundTaskExpiryCode == 0x8bad_f00d)
        for preset in BudgetPolicy.presets {
            try preset.validate()
            #expect(preset.expirationWarningLead == .seconds(5))
            #expect(preset.didEnterBackgroundLimit == .seconds(5))
            #expect(BudgetPolicy.preset(named: preset.name) == preset)
        }
        #expect(BudgetPolicy.preset(named: "iOS99") == nil)
    }

    @Test func validationNamesTheFirstBadField() {
        var policy = BudgetPolicy.iOS13
        policy.backgroundTaskAllowance = .seconds(-1)
        #expect(throws: PolicyError(field: .backgroundTaskAllowance, problem: .notPositive(-1))) { try policy.validate() }

        policy = .iOS13
        policy.expirationWarningLead = .seconds(31)
        #expect(throws: PolicyError(field: .expirationWarningLead, problem: .exceeds(31, field: .backgroundTaskAllowance, limit: 30))) {
            try policy.validate()
        }
        policy = .iOS13
        policy.expirationWarningLead = .seconds(-2)
        #expect(throws: PolicyError(field: .expirationWarningLead, problem: .negative(-2))) { try policy.validate() }
        policy = .iOS13
        policy.maxOpenBackgroundTasks = 0
        #expect(throws: PolicyError(field: .maxOpenBackgroundTasks, problem: .notPositive(0))) { try policy.validate() }
        policy = .iOS13
        policy.didEnterBackgroundLimit = .zero
        #expect(throws: PolicyError(field: .didEnterBackgroundLimit, problem: .notPositive(0))) { try policy.validate() }
    }

    @Test func settingFromOutsideNumbersRefusesNaNInfinityAndFractions() throws {
        let policy = BudgetPolicy.iOS13
        #expect(try policy.setting(.backgroundTaskAllowance, to: 42.5).backgroundTaskAllowance == .milliseconds(42_500))
        #expect(try policy.setting(.maxOpenBackgroundTasks, to: 12).maxOpenBackgroundTasks == 12)
        #expect(try policy.setting(.allowanceResetsOnForeground, to: 0).allowanceResetsOnForeground == false)
        #expect(try policy.setting(.backgroundTaskExpiryCode, to: 0x8bad_f00d).backgroundTaskExpiryCode == 0x8bad_f00d)
        #expect(throws: PolicyError(field: .backgroundTaskAllowance, problem: .notFinite(.infinity))) {
            try policy.setting(.backgroundTaskAllowance, to: .infinity)
        }
        #expect(throws: PolicyError.self) { try policy.setting(.expirationWarningLead, to: .nan) }
        #expect(throws: PolicyError(field: .maxOpenBackgroundTasks, problem: .notAWholeNumber(1.5))) {
            try policy.setting(.maxOpenBackgroundTasks, to: 1.5)
        }
        #expect(throws: PolicyError(field: .allowanceResetsOnForeground, problem: .notAWholeNumber(2))) {
            try policy.setting(.allowanceResetsOnForeground, to: 2)
        }
        #expect(throws: PolicyError(field: .backgroundTaskAllowance, problem: .exceeds(1e300, field: .backgroundTaskAllowance, limit: 1e9))) {
            try policy.setting(.backgroundTaskAllowance, to: 1e300)
        }
        #expect(throws: PolicyError.self) { try policy.setting(.backgroundTaskExpiryCode, to: -1) }
    }

    @Test func errorsReadAsSentences() {
        let error = PolicyError(field: .expirationWarningLead, problem: .exceeds(31, field: .backgroundTaskAllowance, limit: 30))
        #expect(error.description == "expirationWarningLead (31.0) must not exceed backgroundTaskAllowance (30.0)")
    }
}

@Suite struct BackgroundModesTests {
    @Test func everyModeRoundTripsItsPlistString() throws {
        #expect(BackgroundModes.all.count == 12)
        for (mode, value) in BackgroundModes.all {
            #expect(BackgroundModes(plistValue: value) == mode)
            #expect(mode.plistValues == [value])
        }
        let every = try BackgroundModes(plistValues: BackgroundModes.all.map(\.plistValue))
        #expect(every.plistValues == BackgroundModes.all.map(\.plistValue))
        #expect(try BackgroundModes(plistValues: ["fetch", "audio", "fetch"]) == [.audio, .fetch])
        #expect(BackgroundModes([.audio, .fetch]).description == "[audio, fetch]")
    }

    @Test func anUnknownModeNamesItsIndexAndTheAcceptedValues() {
        #expect(throws: UnknownBackgroundModeError(value: "gps", index: 1)) {
            try BackgroundModes(plistValues: ["audio", "gps"])
        }
        #expect(UnknownBackgroundModeError(value: "gps", index: 1).description.hasPrefix(
            #"UIBackgroundModes[1]: unknown mode "gps"; accepted: "audio", "location""#))
    }
}

/// The numbers moved into ``BudgetPolicy``: each is read from the policy the system runs under, and a
/// bad value is refused naming the field.
@Suite struct PolicyNumbersTests {
    let clock = VirtualClock()

    private func processing(_ id: String) -> TaskRequest {
        TaskRequest(identifier: id, kind: .processing(requiresNetworkConnectivity: false, requiresExternalPower: false))
    }

    @Test func presetsKeepTheFormerValues() {
        for preset in BudgetPolicy.presets {
            #expect(preset.pendingRefreshTaskRequestLimit == 1)
            #expect(preset.pendingProcessingTaskRequestLimit == 10)
            #expect(preset.silentPushWindow == .seconds(3600))
            #expect(preset.voipUnreportedPushLimit == 3)
            #expect(preset.expirationHandlerLimit == .seconds(1))
            #expect(preset.fetchModelFactors == BudgetPolicy.FetchModelFactors())
        }
        let factors = BudgetPolicy.FetchModelFactors()
        #expect([factors.newData, factors.noData, factors.failed, factors.slow] == [0.75, 1.5, 2, 1.5])
        #expect([factors.slowFraction, factors.minimumFactor, factors.maximumFactor, factors.jitter] == [0.5, 0.5, 8, 0.25])
    }

    @Test func thePendingLimitsComeFromThePolicy() throws {
        var policy = BudgetPolicy.iOS13
        policy.pendingRefreshTaskRequestLimit = 2
        policy.pendingProcessingTaskRequestLimit = 1
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let ids = ["news.r1", "news.r2", "news.r3", "news.p1", "news.p2"]
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch, .processing], permittedTaskIdentifiers: ids))
        try news.submit(TaskRequest(identifier: "news.r1", kind: .appRefresh))
        try news.submit(TaskRequest(identifier: "news.r2", kind: .appRefresh))     // the default limit (1) refuses this one
        #expect(throws: TaskSchedulerError(.pendingLimitReached(2), identifier: "news.r3")) {
            try news.submit(TaskRequest(identifier: "news.r3", kind: .appRefresh))
        }
        try news.submit(processing("news.p1"))
        #expect(throws: TaskSchedulerError(.pendingLimitReached(1), identifier: "news.p2")) { try news.submit(processing("news.p2")) }
    }

    @Test func theSilentPushWindowComesFromThePolicy() throws {
        var policy = BudgetPolicy.iOS13
        policy.silentPushWindow = .seconds(600)
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.remoteNotification]))
        try system.open(news)
        try system.pressHome()
        for _ in 0..<3 {
            #expect(system.deliver(.silentPush, to: news) == .delivered)
            clock.advance(by: .seconds(30))
        }
        #expect(system.deliver(.silentPush, to: news) == .dropped(.throttled))
        clock.advance(by: .seconds(540))                     // t = 630 s: the first push left the 600 s window
        #expect(system.deliver(.silentPush, to: news) == .delivered)   // an hour's window still throttles it
    }

    @Test func theFetchModelFactorsComeFromThePolicy() throws {
        var factors = BudgetPolicy.FetchModelFactors()
        factors.noData = 3
        factors.maximumFactor = 4
        factors.minimumFactor = 0.25
        factors.newData = 0.1
        factors.jitter = 0
        var model = FetchModel(seed: 1, factors: factors)
        #expect(model.nextGap(requested: nil, systemMinimum: .seconds(100)) == .seconds(100))   // no jitter
        model.record(.noData, slow: false)
        #expect(model.factor == 3)
        model.record(.noData, slow: false)
        #expect(model.factor == 4)                                                              // the maximum
        model.record(.newData, slow: false)
        #expect(model.factor == 0.4)
        model.record(.newData, slow: false)
        #expect(model.factor == 0.25)                                                           // the minimum
        factors.failed = 3
        factors.slow = 1.25
        var failing = FetchModel(seed: 1, factors: factors)
        failing.record(.failed, slow: true)
        #expect(failing.factor == 3.75)                                                         // clamped to 4 only above it
        factors.slowFraction = 0.1
        #expect(FetchModel(seed: 1, factors: factors).isSlow(.seconds(4), runtime: .seconds(30)))
        #expect(!FetchModel(seed: 1).isSlow(.seconds(4), runtime: .seconds(30)))

        // In a system: a 2 s noData fetch is slow past 0.05 × 30 s, so the gap stretches ×(1.5 × 1.5).
        var policy = BudgetPolicy.iOS13
        policy.fetchModelFactors.slowFraction = 0.05
        let system = try BackgroundSystem(policy: policy, clock: clock)
        let news = try system.install(AppManifest(id: "news", backgroundModes: [.fetch]), delegate: ScriptedDelegate.fetcher(result: .noData))
        try system.open(news)
        try system.pressHome()
        clock.advance(by: .seconds(1_200))
        #expect(system.explainBackgroundFetch(of: news).blockers.last == .throttled(factor: 2.25))
    }

    @Test func invalidNumbersAreRefusedNamingTheField() throws {
        func refused(_ change: (inout BudgetPolicy) -> Void) -> PolicyError? {
            var policy = BudgetPolicy.iOS13
            change(&policy)
            do { try policy.validate() } catch { return error }
            return nil
        }
        #expect(refused { $0.pendingRefreshTaskRequestLimit = 0 } == PolicyError(field: .pendingRefreshTaskRequestLimit, problem: .notPositive(0)))
        #expect(refused { $0.pendingProcessingTaskRequestLimit = -3 }
            == PolicyError(field: .pendingProcessingTaskRequestLimit, problem: .notPositive(-3)))
        #expect(refused { $0.silentPushWindow = .zero } == PolicyError(field: .silentPushWindow, problem: .notPositive(0)))
        #expect(refused { $0.voipUnreportedPushLimit = 0 } == PolicyError(field: .voipUnreportedPushLimit, problem: .notPositive(0)))
        #expect(refused { $0.expirationHandlerLimit = .zero } == PolicyError(field: .expirationHandlerLimit, problem: .notPositive(0)))
        let tiny = refused { $0.silentPushWindow = .microseconds(10) }
        #expect(tiny?.field == .silentPushWindow)
        if case .belowFloor(_, let floor)? = tiny?.problem { #expect(floor == 0.001) } else { Issue.record("not belowFloor: \(String(describing: tiny))") }
        #expect(refused { $0.fetchModelFactors.noData = 0 } == PolicyError(field: .fetchNoDataFactor, problem: .notPositive(0)))
        let nan = refused { $0.fetchModelFactors.failed = .nan }
        #expect(nan?.field == .fetchFailedFactor)
        if case .notFinite? = nan?.problem {} else { Issue.record("not notFinite: \(String(describing: nan))") }
        #expect(refused { $0.fetchModelFactors.failed = .infinity } == PolicyError(field: .fetchFailedFactor, problem: .notFinite(.infinity)))
        #expect(refused { $0.fetchModelFactors.slowFraction = 1.5 }
            == PolicyError(field: .fetchSlowFraction, problem: .outOfRange(1.5, lower: 0, upper: 1)))
        #expect(refused { $0.fetchModelFactors.jitter = -0.1 } == PolicyError(field: .fetchJitter, problem: .outOfRange(-0.1, lower: 0, upper: 1)))
        #expect(refused { $0.fetchModelFactors.minimumFactor = 2 }
            == PolicyError(field: .fetchMinimumFactor, problem: .outOfRange(2, lower: 0, upper: 1)))
        #expect(refused { $0.fetchModelFactors.maximumFactor = 0.9 }
            == PolicyError(field: .fetchMaximumFactor, problem: .outOfRange(0.9, lower: 1, upper: 8)))
        #expect(refused { $0.fetchModelFactors.maximumFactor = 9 }      // 9 × 1.25 would overflow the gap's range
            == PolicyError(field: .fetchMaximumFactor, problem: .outOfRange(9, lower: 1, upper: 8)))
        #expect(throws: PolicyError.self) { try BackgroundSystem(policy: { var p = BudgetPolicy.iOS13; p.silentPushWindow = .zero; return p }(),
                                                                 clock: clock) }

        // From outside numbers (scenario files): set and checked at once.
        let policy = BudgetPolicy.iOS13
        #expect(try policy.setting(.silentPushWindow, to: 120).silentPushWindow == .seconds(120))
        #expect(try policy.setting(.pendingProcessingTaskRequestLimit, to: 3).pendingProcessingTaskRequestLimit == 3)
        #expect(try policy.setting(.voipUnreportedPushLimit, to: 5).voipUnreportedPushLimit == 5)
        #expect(try policy.setting(.expirationHandlerLimit, to: 2).expirationHandlerLimit == .seconds(2))
        #expect(try policy.setting(.fetchNoDataFactor, to: 1.25).fetchModelFactors.noData == 1.25)
        #expect(throws: PolicyError(field: .pendingRefreshTaskRequestLimit, problem: .notAWholeNumber(1.5))) {
            try policy.setting(.pendingRefreshTaskRequestLimit, to: 1.5)
        }
        #expect(throws: PolicyError(field: .fetchJitter, problem: .outOfRange(2, lower: 0, upper: 1))) { try policy.setting(.fetchJitter, to: 2) }
        #expect(throws: PolicyError(field: .silentPushWindow, problem: .notPositive(-1))) { try policy.setting(.silentPushWindow, to: -1) }
        #expect(PolicyError(field: .fetchJitter, problem: .outOfRange(2, lower: 0, upper: 1)).description
            == "fetchJitter must be between 0 and 1 (got 2)")
    }
}
