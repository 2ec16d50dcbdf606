import BackgroundBudgetExplorer
import Foundation
import Testing
import BackgroundBudget
import BackgroundBudgetCore
import BackgroundBudgetScenario
import BudgetClock

/// Every scenario in Examples/scenarios runs, and its trace is exactly what the rules say, instant by instant.
@Suite struct ExampleScenarioTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/scenarios")

    static func load(_ name: String) throws -> Scenario {
        let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
        return try Scenario(jsonBytes: Array(bytes), file: name)
    }

    /// `"14.000 uploader → background (interruptionAnswered)"`: the time, the last part of the app's
    /// identifier, and the callback, state change or exit.
    static func steps(_ run: ScenarioRun) -> [String] {
        run.trace.events.map { event in
            let app = event.app.rawValue.split(separator: ".").last.map(String.init) ?? event.app.rawValue
            let time = formatSeconds(event.time.nanoseconds)
            // Through the generic accessors, not a switch on the kind: new kinds print by their names.
            if let state = event.state { return "\(time) \(app) → \(state) (\(event.reason ?? ""))" }
            if let reason = event.reason { return "\(time) \(app) \(event.eventName) (\(reason))" }
            return "\(time) \(app) \(event.eventName)"
        }
    }

    @Test func everyExampleHasADescriptionAndIsCheckedHere() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files == [
            "a-day-in-the-background.json", "allowance-is-shared.json", "answer-call-during-upload.json", "audio-keeps-running.json", "background-fetch.json",
            "background-launch.json", "continued-processing.json",
            "dormant-foreground-task.json", "draft-loss.json", "exits-on-suspend.json", "foreground-return-resets-allowance.json",
            "handler-ends-the-task.json", "ios7-allowance.json", "location-relaunch.json", "memory-pressure.json",
            "never-ended-task-is-killed.json",
            "notifications-while-suspended.json", "scene-based-app.json", "silent-push-completion.json", "slow-did-enter-background.json", "state-lab.json",
            "switching-apps.json",
            "task-scheduler.json", "too-many-assertions.json", "upload-finishes-in-time.json",
        ])
        for file in files {
            let scenario = try Self.load(file)
            #expect(scenario.description.count > 40, "\(file) needs a description that teaches")
            #expect(try scenario.run().rendered(as: .jsonl) == scenario.run().rendered(as: .jsonl))
        }
    }

    @Test func stateLabMatchesTheStateLabExampleLineForLine() throws {
        // The same walk-through as Examples/StateLab/main.swift, through the library API.
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let stateLab = try system.install(AppManifest(id: "com.example.StateLab", displayName: "State Lab"))
        try system.open(stateLab)
        clock.advance(by: .milliseconds(4_210))
        try system.beginInterruption()
        clock.advance(by: .milliseconds(2_530))
        try system.dismissInterruption()
        clock.advance(by: .milliseconds(6_120))
        try system.beginInterruption()
        clock.advance(by: .milliseconds(1_870))
        try system.answerInterruption()
        clock.advance(by: .milliseconds(24_460))
        try system.open(stateLab)

        let run = try Self.load("state-lab.json").run()
        #expect(run.trace == system.trace)
        #expect(run.rendered(as: .log) == system.logLines())
        #expect(run.end == .seconds(45))
        let log = run.rendered(as: .log).split(separator: "\n")
        #expect(log[12] == "2026-01-01 00:00:14.730 State Lab[1069:307] applicationDidBecomeActive:")
        #expect(log[16] == "2026-01-01 00:00:14.730 State Lab[1069:307] applicationDidEnterBackground:")
        #expect(log[17] == "2026-01-01 00:00:14.730 State Lab[1069:307] (state: suspended, reason: noBackgroundWork)")
    }

    @Test func answeringACallSuspendsTheUploaderOnceItsSaveReturns() throws {
        #expect(Self.steps(try Self.load("answer-call-during-upload.json").run()) == [
            "0.000 uploader → inactive (launch)",
            "0.000 uploader application:willFinishLaunchingWithOptions",
            "0.000 uploader application:didFinishLaunchingWithOptions",
            "0.000 uploader → active (launch)",
            "0.000 uploader applicationDidBecomeActive",
            "10.000 uploader applicationWillResignActive",
            "10.000 uploader → inactive (interruptionBegan)",
            "14.000 uploader → active (interruptionAnswered)",
            "14.000 uploader applicationDidBecomeActive",
            "14.000 uploader applicationWillResignActive",
            "14.000 uploader → inactive (interruptionAnswered)",
            "14.000 uploader → background (interruptionAnswered)",
            "14.000 uploader applicationDidEnterBackground",
            "17.000 uploader → suspended (noBackgroundWork)",
            "74.000 uploader → background (enterForeground)",
            "74.000 uploader applicationWillEnterForeground",
            "74.000 uploader → inactive (enterForeground)",
            "74.000 uploader → active (enterForeground)",
            "74.000 uploader applicationDidBecomeActive",
        ])
    }

    @Test func switchingPurgingAndKillingAcrossThreeApps() throws {
        #expect(Self.steps(try Self.load("switching-apps.json").run()) == [
            "0.000 mail → inactive (launch)",
            "0.000 mail application:willFinishLaunchingWithOptions",
            "0.000 mail application:didFinishLaunchingWithOptions",
            "0.000 mail → active (launch)",
            "0.000 mail applicationDidBecomeActive",
            "20.000 mail applicationWillResignActive",
            "20.000 mail → inactive (switchAway)",
            "20.000 mail → background (switchAway)",
            "20.000 mail applicationDidEnterBackground",
            "20.000 mail → suspended (noBackgroundWork)",
            "20.000 maps → inactive (launch)",
            "20.000 maps application:willFinishLaunchingWithOptions",
            "20.000 maps application:didFinishLaunchingWithOptions",
            "20.000 maps → active (launch)",
            "20.000 maps applicationDidBecomeActive",
            "45.000 maps applicationWillResignActive",
            "45.000 maps → inactive (switchAway)",
            "45.000 maps → background (switchAway)",
            "45.000 maps applicationDidEnterBackground",
            "45.000 maps → suspended (noBackgroundWork)",
            "45.000 music → inactive (launch)",
            "45.000 music application:willFinishLaunchingWithOptions",
            "45.000 music application:didFinishLaunchingWithOptions",
            "45.000 music → active (launch)",
            "45.000 music applicationDidBecomeActive",
            "60.000 mail exit (memoryPressure)",
            "60.000 mail → notRunning (memoryPressure)",
            "75.000 music applicationWillResignActive",
            "75.000 music → inactive (pressHome)",
            "75.000 music → background (pressHome)",
            "75.000 music applicationDidEnterBackground",
            "75.000 music → suspended (noBackgroundWork)",
            "90.000 maps exit (userKill)",
            "90.000 maps → notRunning (userKill)",
            "100.000 mail → inactive (launch)",
            "100.000 mail application:willFinishLaunchingWithOptions",
            "100.000 mail application:didFinishLaunchingWithOptions",
            "100.000 mail → active (launch)",
            "100.000 mail applicationDidBecomeActive",
            // The system resumes music as it decides the switch, before mail's callbacks run on
            // mail's queue: a resume, like a suspension, runs no code of the app [S3].
            "115.000 music → background (enterForeground)",
            "115.000 mail applicationWillResignActive",
            "115.000 mail → inactive (switchAway)",
            "115.000 mail → background (switchAway)",
            "115.000 mail applicationDidEnterBackground",
            "115.000 mail → suspended (noBackgroundWork)",
            "115.000 music applicationWillEnterForeground",
            "115.000 music → inactive (enterForeground)",
            "115.000 music → active (enterForeground)",
            "115.000 music applicationDidBecomeActive",
        ])
    }

    @Test func aSceneBasedAppHearsSceneCallbacksAndItsReclaimedSceneReconnects() throws {
        // Its behaviour for applicationDidEnterBackground (2 s of work) runs in sceneDidEnterBackground.
        let steps = Self.steps(try Self.load("scene-based-app.json").run()).filter { $0.contains("notes") }
        #expect(steps == [
            "0.000 notes → background (launch)",
            "0.000 notes application:willFinishLaunchingWithOptions",
            "0.000 notes application:didFinishLaunchingWithOptions",
            "0.000 notes scene:willConnectToSession:options",
            "0.000 notes sceneWillEnterForeground",
            "0.000 notes → inactive (launch)",
            "0.000 notes → active (launch)",
            "0.000 notes sceneDidBecomeActive",
            "10.000 notes scene:willConnectToSession:options",
            "10.000 notes sceneWillEnterForeground",
            "10.000 notes sceneDidBecomeActive",
            "20.000 notes sceneWillResignActive",
            "20.000 notes sceneDidEnterBackground",
            "22.000 notes sceneDidDisconnect",
            "30.000 notes sceneWillResignActive",
            "30.000 notes → inactive (interruptionBegan)",
            "35.000 notes → active (interruptionDismissed)",
            "35.000 notes sceneDidBecomeActive",
            "40.000 notes sceneWillResignActive",
            "40.000 notes → inactive (switchAway)",
            "40.000 notes → background (switchAway)",
            "40.000 notes sceneDidEnterBackground",
            "42.000 notes → suspended (noBackgroundWork)",
            "60.000 notes → background (reclaimScene)",
            "60.000 notes sceneDidDisconnect",
            "60.000 notes → suspended (noBackgroundWork)",
            "70.000 notes → background (enterForeground)",
            "70.000 notes scene:willConnectToSession:options",
            "70.000 notes sceneWillEnterForeground",
            "70.000 notes → inactive (enterForeground)",
            "70.000 notes → active (enterForeground)",
            "70.000 notes sceneDidBecomeActive",
        ])
        let sessions = try Self.load("scene-based-app.json").run().trace.events
            .compactMap(\.sceneCallback).filter { $0.callback == .willConnect }.map(\.scene.rawValue)
        #expect(sessions == ["scene-1", "scene-2", "scene-1"])
    }

    @Test func anExitsOnSuspendAppTerminatesOnHomeAndLaunchesCold() throws {
        #expect(Self.steps(try Self.load("exits-on-suspend.json").run()) == [
            "0.000 legacy → inactive (launch)",
            "0.000 legacy application:willFinishLaunchingWithOptions",
            "0.000 legacy application:didFinishLaunchingWithOptions",
            "0.000 legacy → active (launch)",
            "0.000 legacy applicationDidBecomeActive",
            "30.000 legacy applicationWillResignActive",
            "30.000 legacy → inactive (pressHome)",
            "30.000 legacy → background (pressHome)",
            "30.000 legacy applicationDidEnterBackground",
            "30.000 legacy applicationWillTerminate",
            "30.000 legacy exit (exitsOnSuspend)",
            "30.000 legacy → notRunning (exitsOnSuspend)",
            "50.000 legacy → inactive (launch)",
            "50.000 legacy application:willFinishLaunchingWithOptions",
            "50.000 legacy application:didFinishLaunchingWithOptions",
            "50.000 legacy → active (launch)",
            "50.000 legacy applicationDidBecomeActive",
        ])
    }

    @Test func aBackgroundLaunchNeverBecomesActiveUntilTheUserOpensTheApp() throws {
        #expect(Self.steps(try Self.load("background-launch.json").run()) == [
            "5.000 tracker → background (location)",
            "5.000 tracker application:willFinishLaunchingWithOptions",
            "5.000 tracker application:didFinishLaunchingWithOptions",
            "5.800 tracker applicationDidEnterBackground",
            "7.300 tracker → suspended (noBackgroundWork)",
            "40.000 tracker → background (enterForeground)",
            "40.000 tracker applicationWillEnterForeground",
            "40.000 tracker → inactive (enterForeground)",
            "40.000 tracker → active (enterForeground)",
            "40.000 tracker applicationDidBecomeActive",
            "70.000 tracker applicationWillResignActive",
            "70.000 tracker → inactive (pressHome)",
            "70.000 tracker → background (pressHome)",
            "70.000 tracker applicationDidEnterBackground",
            "71.500 tracker → suspended (noBackgroundWork)",
            "90.000 tracker exit (memoryPressure)",
            "90.000 tracker → notRunning (memoryPressure)",
            "110.000 tracker → background (remoteNotification)",
            "110.000 tracker application:willFinishLaunchingWithOptions",
            "110.000 tracker application:didFinishLaunchingWithOptions",
            "110.800 tracker applicationDidEnterBackground",
            "112.300 tracker → suspended (noBackgroundWork)",
        ])
    }

    // MARK: Finite background tasks

    /// The steps after the app's launch (which every task example shares).
    static func afterLaunch(_ file: String) throws -> [String] {
        Array(steps(try load(file).run()).drop { $0.hasPrefix("0.000 ") })
    }

    static let home10 = [
        "10.000 uploader applicationWillResignActive", "10.000 uploader → inactive (pressHome)",
        "10.000 uploader → background (pressHome)", "10.000 uploader applicationDidEnterBackground",
    ]

    @Test func anUploadThatFitsEndsItsTaskAndIsSuspended() throws {
        #expect(try Self.afterLaunch("upload-finishes-in-time.json") == Self.home10 + [
            "10.000 uploader beginBackgroundTask", "10.000 uploader allowanceStarted",
            "22.000 uploader endBackgroundTask", "22.000 uploader → suspended (backgroundTasksEnded)",
        ])
    }

    @Test func theHandlerEndsAnUploadThatDoesNotFit() throws {
        #expect(try Self.afterLaunch("handler-ends-the-task.json") == Self.home10 + [
            "10.000 uploader beginBackgroundTask", "10.000 uploader allowanceStarted",
            "35.000 uploader expirationHandler", "35.000 uploader endBackgroundTask",
            "35.000 uploader → suspended (backgroundTasksEnded)",
        ])
    }

    @Test func aTaskNeverEndedKillsTheAppWhenTheAllowanceRunsOut() throws {
        let tail = try Self.afterLaunch("never-ended-task-is-killed.json").suffix(4)
        #expect(Array(tail) == [
            "10.000 leaky allowanceStarted", "35.000 leaky expirationHandler",
            "40.000 leaky exit (backgroundTaskExpired)", "40.000 leaky → notRunning (backgroundTaskExpired)",
        ])
        let run = try Self.load("never-ended-task-is-killed.json").run()
        #expect(run.trace.events.first { $0.eventName == "exit" }?.code == "0x2182bad2")
    }

    @Test func iOS7GaveOneHundredAndEightySeconds() throws {
        let run = try Self.load("ios7-allowance.json").run()
        #expect(run.trace.events.first { $0.eventName == "expirationHandler" }?.time == .seconds(185))
        let exit = try #require(run.trace.events.first { $0.eventName == "exit" })
        #expect(exit.time == .seconds(190))
        #expect(exit.code == "0x8badf00d")
    }

    @Test func aSlowDidEnterBackgroundMeetsTheWatchdog() throws {
        #expect(try Self.afterLaunch("slow-did-enter-background.json").suffix(4) == [
            "10.000 notes applicationDidEnterBackground", "15.000 notes exit (watchdog)", "15.000 notes killedMidCallback",
            "15.000 notes → notRunning (watchdog)",
        ])
    }

    @Test func aForegroundTaskIsDormantUntilTheAppLeaves() throws {
        #expect(try Self.afterLaunch("dormant-foreground-task.json") == [
            "5.000 sync beginBackgroundTask", "35.000 sync backgroundTaskOpenTooLong",
            "60.000 sync applicationWillResignActive", "60.000 sync → inactive (pressHome)",
            "60.000 sync → background (pressHome)", "60.000 sync allowanceStarted",
            "60.000 sync applicationDidEnterBackground", "85.000 sync expirationHandler",
            "85.000 sync endBackgroundTask", "85.000 sync → suspended (backgroundTasksEnded)",
        ])
    }

    @Test func twoTasksShareOneAllowance() throws {
        #expect(try Self.afterLaunch("allowance-is-shared.json").suffix(6) == [
            "30.000 photos beginBackgroundTask", "35.000 photos expirationHandler", "35.000 photos expirationHandler",
            "35.000 photos endBackgroundTask", "35.000 photos endBackgroundTask", "35.000 photos → suspended (backgroundTasksEnded)",
        ])
        let run = try Self.load("allowance-is-shared.json").run()
        #expect(run.trace.events.filter { $0.eventName == "expirationHandler" }.map(\.task) == [
            BackgroundTaskIdentifier(rawValue: 1), BackgroundTaskIdentifier(rawValue: 2),
        ])
    }

    @Test func returningToTheForegroundResetsTheAllowance() throws {
        let run = try Self.load("foreground-return-resets-allowance.json").run()
        let allowances = run.trace.events.compactMap { event -> BudgetInstant? in
            if case .allowanceStarted(let until) = event.kind { return until }
            return nil
        }
        #expect(allowances == [.seconds(40), .seconds(70)])
        #expect(run.trace.events.first { $0.eventName == "expirationHandler" }?.time == .seconds(65))
    }

    @Test func oneAssertionTooManyTerminatesTheApp() throws {
        #expect(try Self.afterLaunch("too-many-assertions.json").suffix(4) == [
            "10.000 leaky beginBackgroundTaskDenied (tooManyTasks)", "10.000 leaky exit (tooManyBackgroundTasks)",
            "10.000 leaky killedMidCallback", "10.000 leaky → notRunning (tooManyBackgroundTasks)",
        ])
    }

    // MARK: Memory and notifications

    @Test func suspendedAppsArePurgedLargestFirstUnderPressure() throws {
        let run = try Self.load("memory-pressure.json").run()
        let exits = run.trace.events.filter { $0.eventName == "exit" }.map { "\(formatSeconds($0.time.nanoseconds)) \($0.app) \($0.reason ?? "")" }
        #expect(exits == ["40.000 com.example.maps memoryPressure", "60.000 com.example.photos memoryPressure"])
        // Maps is suspended before it is purged: purges are silent, with no callback.
        let maps = run.trace.events(for: "com.example.maps").filter { $0.time == .seconds(40) }.map(\.eventName)
        #expect(maps.suffix(3) == ["stateChange", "exit", "stateChange"])
        #expect(run.trace.states(for: "com.example.mail").last == .suspended)
    }

    @Test func notificationsAreCoalescedAndDeliveredBeforeTheForegroundCallbacks() throws {
        #expect(try Self.afterLaunch("notifications-while-suspended.json").filter { $0.hasPrefix("60.000") } == [
            "60.000 reader → background (enterForeground)",
            "60.000 reader notificationDelivered", "60.000 reader notificationDelivered",
            "60.000 reader applicationWillEnterForeground", "60.000 reader → inactive (enterForeground)",
            "60.000 reader → active (enterForeground)", "60.000 reader applicationDidBecomeActive",
        ])
        let run = try Self.load("notifications-while-suspended.json").run()
        #expect(run.trace.events.filter { $0.eventName == "notificationDelivered" }.map(\.name) == ["orientation(landscapeRight)", "batteryLevel(0.75)"])
    }

    // MARK: Background modes

    @Test func audioKeepsAPlayerRunningUntilPauseAndIsRefusedWithoutTheMode() throws {
        let lines = try Self.afterLaunch("audio-keeps-running.json")
        #expect(lines.filter { $0.contains("player") }.suffix(3) == [
            "10.000 player applicationDidEnterBackground", "130.000 player activityStopped",
            "130.000 player → suspended (activityStopped)",
        ])
        #expect(lines.contains("142.000 podcasts activityDenied (modeNotDeclared)"))
        #expect(lines.last == "150.000 podcasts → suspended (noBackgroundWork)")
    }

    @Test func aSignificantChangeRelaunchesEvenAfterAUserKill() throws {
        let lines = try Self.afterLaunch("location-relaunch.json")
        #expect(lines.filter { $0.hasPrefix("600.000") || $0.hasPrefix("610.000") } == [
            "600.000 tracker → background (location)", "600.000 tracker application:willFinishLaunchingWithOptions",
            "600.000 tracker application:didFinishLaunchingWithOptions", "600.000 tracker applicationDidEnterBackground",
            "600.000 tracker eventWindowStarted", "600.000 tracker eventDelivered",
            "610.000 tracker → suspended (eventWindowEnded)",
        ])
        #expect(lines.contains("800.000 tracker eventDropped (killedByUser)"))
        #expect(lines.contains("900.000 tracker → background (location)"))
    }

    // MARK: Background fetch

    @Test func fetchesComeNoSoonerThanAskedAndStopWhenRefreshIsOffOrTheUserKillsTheApp() throws {
        let run = try Self.load("background-fetch.json").run()
        let starts = run.trace.events.filter { $0.eventName == "performFetch" }.map(\.time)
        #expect(starts.count == 10)
        #expect(zip(starts.dropFirst(), starts).allSatisfy { $0 - $1 >= .seconds(1_800) })
        // Nothing between Low Power Mode (3 h) and its end (4 h), nor between the kill (5 h) and the reopening (7 h).
        #expect(!starts.contains { ($0 > .seconds(10_800) && $0 < .seconds(14_400)) || ($0 > .seconds(18_000) && $0 < .seconds(25_200)) })
        #expect(run.trace.events.filter { $0.kind == .fetchSkipped(.backgroundAppRefreshOff) }.count == 2)
        #expect(run.trace.events.filter { $0.kind == .fetchSkipped(.killedByUser) }.count == 4)
        #expect(run.trace.events.filter { $0.eventName == "fetchCompleted" }.allSatisfy { $0.name == "newData" })
    }

    // MARK: BGTaskScheduler

    @Test func taskRequestsRunWhenTheirConditionsHoldAndTheAppSuspendsAfter() throws {
        let run = try Self.load("task-scheduler.json").run()
        let app: AppID = "com.example.photos"
        #expect(run.trace.events.filter { $0.eventName == "taskRegistered" }.map(\.name)
            == ["com.example.photos.refresh", "com.example.photos.index"])
        #expect(run.trace.events.filter { $0.eventName == "taskStarted" } == [
            TraceEvent(time: .seconds(1_800), app: app, kind: .taskStarted("com.example.photos.refresh")),
            TraceEvent(time: .seconds(4_000), app: app, kind: .taskStarted("com.example.photos.index")),
        ])
        #expect(run.trace.events.filter { $0.eventName == "taskCompleted" } == [
            TraceEvent(time: .seconds(1_803), app: app, kind: .taskCompleted("com.example.photos.refresh", .success)),
            TraceEvent(time: .seconds(4_120), app: app, kind: .taskCompleted("com.example.photos.index", .success)),
        ])
        #expect(run.trace.events.filter { $0.reason == "backgroundTask" }.map(\.time) == [.seconds(1_800), .seconds(4_000)])
        #expect(run.trace.events.last { $0.state != nil }
            == TraceEvent(time: .seconds(4_120), app: app, kind: .stateChange(.suspended, cause: .suspend(.scheduledTaskCompleted))))
    }

    @Test func continuedProcessingExportsQueueFailAndAreReclaimed() throws {
        let run = try Self.load("continued-processing.json").run()
        let app: AppID = "com.example.photos"
        func export(_ name: String) -> String { "com.example.photos.export.\(name)" }
        func named(_ event: String) -> [TraceEvent] { run.trace.events.filter { $0.eventName == event } }
        #expect(named("taskStarted") == [
            TraceEvent(time: .seconds(5), app: app, kind: .taskStarted(export("summer"))),
            TraceEvent(time: .seconds(105), app: app, kind: .taskStarted(export("winter"))),
        ])
        #expect(named("taskQueued").map(\.time) == [.seconds(8), .seconds(200)])
        #expect(named("taskSubmitRejected") == [TraceEvent(time: .seconds(9), app: app,
                                                          kind: .taskSubmitRejected(export("spring"), .immediateRunIneligible))])
        #expect(named("taskProgress").count == 11 + 5)
        #expect(named("taskExpired") == [TraceEvent(time: .seconds(150), app: app, kind: .taskExpired(export("winter"), .resourcesReclaimed))])
        #expect(named("taskCompleted").map(\.reason) == ["success", "failure"])
        #expect(named("taskRequestCancelled") == [TraceEvent(time: .seconds(220), app: app, kind: .taskRequestCancelled(export("autumn")))])
        // The export holds Photos in the background from Home (t = 10) until the reclaimed one ends.
        #expect(run.trace.events.filter { $0.state != nil }.map { "\(formatSeconds($0.time.nanoseconds)) \($0.state!)" }
            .contains("150.000 suspended"))
        #expect(!run.trace.events.contains { $0.state == .suspended && $0.time < .seconds(150) })
    }
}
