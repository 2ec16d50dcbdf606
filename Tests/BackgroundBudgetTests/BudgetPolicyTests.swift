import Testing
@testable import BackgroundBudget
@testable import BackgroundBudgetScenario
@testable import BudgetClock
@testable import JobBudgets
@testable import SavedState

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
