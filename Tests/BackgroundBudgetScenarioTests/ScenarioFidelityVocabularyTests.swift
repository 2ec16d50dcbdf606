import BackgroundBudgetExplorer
import BudgetTime
import Testing
import BackgroundBudgetScenario
import BudgetClock

/// Scenario words for the rules the fidelity audit added: file locks (`0xdead10cc`), the region limit,
/// a critically low battery and a reboot. Each decodes, refuses what it must with a located error, and
/// runs to exact trace entries.
extension ScenarioVocabularyTests {
    @Test func aLockHeldWhenTheAppWouldBeSuspendedKillsItAndAReleasedOneDoesNot() throws {
        func run(_ steps: String) throws -> [String] {
            try Scenario(json: """
                {"apps": [{"id": "notes", "behaviour": {"applicationDidEnterBackground": [\(steps)]}}],
                 "events": [{"at": 0, "do": "open", "app": "notes"}, {"at": 10, "do": "home"}], "end": 60}
                """).run().trace.events.filter { $0.time == .seconds(12) }.map(\.jsonLine)
        }
        let lock = #"{"do": "acquireFileLock", "path": "shared.sqlite"}, {"do": "work", "for": 2}"#
        #expect(try run(lock) == [
            #"{"t":12.000,"app":"notes","event":"exit","reason":"fileLockHeldAtSuspension","code":"0xdead10cc"}"#,
            #"{"t":12.000,"app":"notes","event":"stateChange","state":"notRunning","reason":"fileLockHeldAtSuspension"}"#,
        ])
        #expect(try run(lock + #", {"do": "releaseFileLock", "path": "shared.sqlite"}"#) == [
            #"{"t":12.000,"app":"notes","event":"fileLockReleased","name":"shared.sqlite"}"#,
            #"{"t":12.000,"app":"notes","event":"stateChange","state":"suspended","reason":"noBackgroundWork"}"#,
        ])
        #expect(failure(#"{"apps": [{"id": "a", "behaviour": {"applicationDidEnterBackground": [{"do": "acquireFileLock"}]}}], "events": []}"#)
            == #"1:71 $.apps[0].behaviour.applicationDidEnterBackground[0]: missing required key "path""#)
    }

    @Test func aRegionPastThePolicyLimitFailsInTheTrace() throws {
        let run = try Scenario(json: """
            {"policy": {"overrides": {"maxMonitoredRegions": 1}},
             "apps": [{"id": "tracker", "backgroundModes": ["location"], "behaviour": {"application:didFinishLaunchingWithOptions": [
                {"do": "monitorRegion", "region": "home"}, {"do": "monitorRegion", "region": "work"}]}}],
             "events": [{"at": 0, "do": "open", "app": "tracker"}], "end": 10}
            """).run()
        #expect(run.trace.events.filter { $0.eventName == "regionMonitoringFailed" }.map(\.jsonLine) == [
            #"{"t":0.000,"app":"tracker","event":"regionMonitoringFailed","name":"work","reason":"tooManyRegions"}"#,
        ])
    }

    @Test func aCriticallyLowBatteryDropsSilentPushesUntilItRecovers() throws {
        let run = try Scenario(json: """
            {"apps": [{"id": "news", "backgroundModes": ["remote-notification"]}],
             "events": [{"at": 0, "do": "open", "app": "news"}, {"at": 10, "do": "home"},
                        {"at": 20, "do": "setCriticallyLowBattery", "enabled": true},
                        {"at": 30, "do": "deliver", "app": "news", "event": "silentPush"},
                        {"at": 40, "do": "setCriticallyLowBattery", "enabled": false},
                        {"at": 50, "do": "deliver", "app": "news", "event": "silentPush"}], "end": 60}
            """).run()
        #expect(run.trace.events.filter { [20, 30, 40].map { BudgetInstant.seconds($0) }.contains($0.time) }.map(\.jsonLine) == [
            #"{"t":20.000,"app":"(device)","event":"deviceChanged","name":"criticallyLowBattery","value":"on"}"#,
            #"{"t":30.000,"app":"news","event":"eventDropped","name":"silentPush","reason":"criticallyLowBattery"}"#,
            #"{"t":40.000,"app":"(device)","event":"deviceChanged","name":"criticallyLowBattery","value":"off"}"#,
        ])
        #expect(run.trace.events.contains { $0.time == .seconds(50) && $0.eventName == "eventDelivered" })
    }

    @Test func aRebootEndsTheProcessesAndRelaunchesTheVoIPApp() throws {
        let run = try Scenario(json: """
            {"apps": [{"id": "phone", "backgroundModes": ["voip"]}, {"id": "news"}],
             "events": [{"at": 0, "do": "open", "app": "phone"}, {"at": 5, "do": "switchTo", "app": "news"},
                        {"at": 10, "do": "reboot"}], "end": 20}
            """).run()
        #expect(run.trace.events.filter { $0.time == .seconds(10) && $0.eventName != "stateChange" }.map(\.jsonLine) == [
            #"{"t":10.000,"app":"(device)","event":"deviceChanged","name":"reboot","value":"restarted"}"#,
            #"{"t":10.000,"app":"phone","event":"exit","reason":"reboot"}"#,
            #"{"t":10.000,"app":"news","event":"exit","reason":"reboot"}"#,
            #"{"t":10.000,"app":"phone","event":"application:willFinishLaunchingWithOptions"}"#,
            #"{"t":10.000,"app":"phone","event":"application:didFinishLaunchingWithOptions"}"#,
            #"{"t":10.000,"app":"phone","event":"applicationDidEnterBackground"}"#,
        ])
        #expect(failure(#"{"apps": [], "events": [{"at": 1, "do": "reboot", "app": "x"}]}"#)
            == #"1:51 $.events[0].app: unknown key "app"; accepted: "at", "do""#)
    }
}
