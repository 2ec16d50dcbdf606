import Foundation
import Testing
import BackgroundBudget
import TestSupport
@testable import BackgroundBudgetExplorer
@testable import BackgroundBudgetScenario

/// Each built-in invariant breaks on the trace it is about, and holds on a clean one.
@Suite struct ExplorerInvariantTests {
    static let app: AppID = "com.example.app"

    static func seen(_ kinds: [TraceEvent.Kind]) -> ExplorerObservation {
        let events = kinds.enumerated().map { TraceEvent(time: .seconds(Int64($0.offset)), app: app, kind: $0.element) }
        return ExplorerObservation(trace: Trace(events: events), now: .seconds(Int64(kinds.count)))
    }

    static func example(_ name: String) throws -> ExplorerObservation {
        let data = try Data(contentsOf: SampleFiles.root.appendingPathComponent("Examples/scenarios/\(name).json"))
        let run = try Scenario(jsonBytes: Array(data)).run()
        return ExplorerObservation(trace: run.trace, now: run.end)
    }

    @Test func theWatchdogKillOfASlowCallbackBreaksNoWatchdogKill() throws {
        let message = ExplorerInvariant.noWatchdogKill.violation(in: try Self.example("slow-did-enter-background"))
        #expect(message == "com.example.notes killed by the watchdog (0x8badf00d)")
        #expect(ExplorerInvariant.noWatchdogKill.violation(in: try Self.example("state-lab")) == nil)
    }

    @Test func aTaskNeverEndedBreaksNoKillWithOpenTaskAndEveryTaskEndsOnce() throws {
        let seen = try Self.example("never-ended-task-is-killed")
        #expect(ExplorerInvariant.noKillWithOpenTask.violation(in: seen)
                == "com.example.leaky its process ended (kill(backgroundTaskExpired)) with background task 1 still open")
        #expect(ExplorerInvariant.everyTaskEndsOnce.violation(in: seen)?.contains("background task 1 was never ended") == true)
        let clean = try Self.example("upload-finishes-in-time")
        #expect(ExplorerInvariant.noKillWithOpenTask.violation(in: clean) == nil)
        #expect(ExplorerInvariant.everyTaskEndsOnce.violation(in: clean) == nil)
    }

    @Test func endingATaskTwiceBreaksEveryTaskEndsOnce() {
        let task = BackgroundTaskIdentifier(rawValue: 3)
        let seen = Self.seen([.backgroundTaskBegan(task, name: nil), .backgroundTaskEnded(task),
                              .backgroundTaskEndIgnored(task, .alreadyEnded)])
        #expect(ExplorerInvariant.everyTaskEndsOnce.violation(in: seen) == "com.example.app ended background task 3 a second time")
    }

    @Test func aScheduledTaskLeftUnfinishedOrCutShortByTheAppBreaksScheduledTaskCompletes() {
        let invariant = ExplorerInvariant.scheduledTaskCompletes
        #expect(invariant.violation(in: Self.seen([.taskStarted("sync"), .taskCompleted("sync", .success)])) == nil)
        // Completed from the expiration handler, as Apple's sample does: no failure.
        #expect(invariant.violation(in: Self.seen([.taskStarted("sync"), .taskExpired("sync", .runtimeCap),
                                                   .taskCompleted("sync", .failure)])) == nil)
        #expect(invariant.violation(in: Self.seen([.taskStarted("sync"), .taskExpired("sync", .runtimeCap),
                                                   .taskCompleted("sync", .expiredUnfinished)]))
                == "com.example.app's task sync expired and was not completed from its expiration handler")
        #expect(invariant.violation(in: Self.seen([.taskStarted("sync"), .stateChange(.notRunning, cause: .kill(.watchdog))]))
                == "com.example.app's process ended (kill(watchdog)) while its task sync ran")
        // A purge, a swipe or a reboot is not the app's doing, unless asked.
        for cause: LifecycleEvent in [.purge, .killFromAppSwitcher, .kill(.reboot), .terminate(.system)] {
            let cut = Self.seen([.taskStarted("sync"), .stateChange(.notRunning, cause: cause)])
            #expect(invariant.violation(in: cut) == nil, "\(cause)")
            #expect(ExplorerInvariant.scheduledTaskCompletes(countingExitsTheAppCannotPrevent: true).violation(in: cut)
                    == "com.example.app's process ended (\(cause)) while its task sync ran")
        }
    }

    @Test func exitsTheAppCannotPreventDoNotCountAgainstItsTasksUnlessAsked() throws {
        let task = BackgroundTaskIdentifier(rawValue: 1)
        let begun = TraceEvent.Kind.backgroundTaskBegan(task, name: "upload")
        for cause: LifecycleEvent in [.killFromAppSwitcher, .purge, .kill(.reboot), .terminate(.memoryPressure), .terminate(.system)] {
            #expect(ExplorerInvariant.isBeyondTheAppsControl(cause))
            let seen = Self.seen([begun, .stateChange(.notRunning, cause: cause)])
            #expect(ExplorerInvariant.noKillWithOpenTask.violation(in: seen) == nil, "\(cause)")
            #expect(ExplorerInvariant.everyTaskEndsOnce.violation(in: seen) == nil, "\(cause)")
            #expect(try ExplorerInvariant.named("noKillWithOpenTask:anyExit")[0].violation(in: seen)
                    == "com.example.app its process ended (\(cause)) with background task 1 still open")
            #expect(try ExplorerInvariant.named("everyTaskEndsOnce:anyExit")[0].violation(in: seen)
                    == "com.example.app background task 1 was never ended (process ended: \(cause))")
        }
        for cause: LifecycleEvent in [.kill(.backgroundTaskExpired), .kill(.watchdog), .terminate(.exitsOnSuspend), .kill(.uncaughtException)] {
            #expect(!ExplorerInvariant.isBeyondTheAppsControl(cause))
            #expect(ExplorerInvariant.noKillWithOpenTask.violation(in: Self.seen([begun, .stateChange(.notRunning, cause: cause)])) != nil)
        }
    }

    @Test func dataSavedCountsExitsFromTheBackgroundButNotARebootWhileTheUserTypes() {
        let saved = ExplorerInvariant.dataSaved(by: [.didEnterBackground])
        let typing: [TraceEvent.Kind] = [.stateChange(.active, cause: .launch), .callback(.didBecomeActive)]
        #expect(saved.violation(in: Self.seen(typing + [.stateChange(.notRunning, cause: .kill(.reboot))])) == nil)
        #expect(ExplorerInvariant.dataSaved(by: [.didEnterBackground], countingExitsTheAppCannotPrevent: true)
            .violation(in: Self.seen(typing + [.stateChange(.notRunning, cause: .kill(.reboot))])) != nil)
        // Suspended with unsaved data (no save on the way out), then purged: the app's fault.
        let purged = typing + [.stateChange(.suspended, cause: .pressHome), .stateChange(.notRunning, cause: .purge)]
        #expect(saved.violation(in: Self.seen(purged))?.hasPrefix("com.example.app lost unsaved data: its process ended (purge)") == true)
        // A crash in the foreground is the app's own.
        #expect(saved.violation(in: Self.seen(typing + [.stateChange(.notRunning, cause: .kill(.uncaughtException))])) != nil)
    }

    @Test func aCallbackAfterTheProcessEndedBreaksNoCallbackAfterExit() {
        let invariant = ExplorerInvariant.noCallbackAfterExit
        #expect(invariant.violation(in: Self.seen([.stateChange(.notRunning, cause: .purge), .callback(.didEnterBackground)]))
                == "com.example.app got applicationDidEnterBackground after its process ended")
        #expect(invariant.violation(in: Self.seen([.stateChange(.notRunning, cause: .purge), .stateChange(.inactive, cause: .launch),
                                                   .callback(.willFinishLaunching)])) == nil)
    }

    @Test func invariantNamesReadFromTheCommandLine() throws {
        #expect(try ExplorerInvariant.named("all").map(\.name) == ExplorerInvariant.builtIn.map(\.name))
        #expect(try ExplorerInvariant.named("noWatchdogKill").map(\.name) == ["noWatchdogKill"])
        #expect(try ExplorerInvariant.named("dataSaved:applicationDidEnterBackground,applicationWillTerminate").map(\.name) == ["dataSaved"])
        #expect(try ExplorerInvariant.named("dataSaved:applicationWillTerminate:anyExit").map(\.name) == ["dataSaved"])
        #expect(try ExplorerInvariant.named("scheduledTaskCompletes:anyExit").map(\.name) == ["scheduledTaskCompletes"])
        #expect(throws: ExplorerError.self) { try ExplorerInvariant.named("noWatchdogKill:anyExit") }
        #expect(throws: ExplorerError.self) { try ExplorerInvariant.named("noCrash") }
        #expect(throws: ExplorerError.self) { try ExplorerInvariant.named("dataSaved:applicationDidSave") }
    }

    @Test func aMenuRefusesNoEntryBadWeightsAndEventsItCannotWrite() {
        #expect(throws: ExplorerError.emptyMenu) { try ExplorerMenu([]) }
        #expect(throws: ExplorerError.badWeight(index: 0, weight: 0)) { try ExplorerMenu([.init(.act(.home), weight: 0)]) }
        #expect(throws: ExplorerError.unexplorableEvent(index: 1, "wait 0 s")) {
            try ExplorerMenu([.init(.act(.home)), .init(.wait(.zero))])
        }
        #expect(throws: ExplorerError.self) { try ExplorerMenu([.init(.act(.post(.userDefaults)))]) }
        let entries = ExplorerMenu.standard(for: ["com.example.a", "com.example.b"]).entries
        #expect(entries.allSatisfy { $0.event.isExplorable })
    }

    @Test func explorerEventsAreWrittenAsScenarioEventsThatReadBack() throws {
        let events: [ExplorerEvent] = ExplorerMenu.standard(for: ["com.example.a", "com.example.b"]).entries.map(\.event)
        for event in events {
            guard case .act(let action) = event else { continue }
            let json = try #require(event.json(at: .seconds(5)))
            let scenario = try Scenario(json: #"{"apps": [{"id": "com.example.a"}, {"id": "com.example.b"}], "events": ["# + json + "]}")
            #expect(scenario.events.first?.action == action, "\(json)")
        }
        let text = #"{"a": ["x\"y\n\u0001", 1.5, true, null, {"b": 2}]}"#
        #expect(try JSONParser.parse(Array(text.utf8)).rendered() == text)
    }
}
