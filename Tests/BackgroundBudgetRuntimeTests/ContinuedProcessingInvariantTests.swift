import Testing
import TestSupport
@testable import BackgroundBudget
@testable import BackgroundBudgetRuntime
@testable import BackgroundBudgetCore
@testable import BackgroundBudgetExplorer
@testable import BackgroundBudgetScenario
import BudgetClock

/// Registers one handler for a wildcard entry and keeps every task it is handed.
final class WildcardTaskKeeper: ApplicationDelegate {
    let pattern: String
    let completesOnExpiry: Bool
    let tasks = TestLog<ScheduledTask>()

    init(pattern: String, completesOnExpiry: Bool = true) {
        self.pattern = pattern
        self.completesOnExpiry = completesOnExpiry
    }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) {
        application.register(forTaskWithIdentifier: pattern) { [tasks, completesOnExpiry] task in
            task.expirationHandler = { [weak task] in if completesOnExpiry { task?.setTaskCompleted(success: false) } }
            tasks.append(task)
        }
    }
}

/// A weak reference to a task, to see whether it is still alive.
final class WeakTask: Sendable {
    private struct Reference {
        weak var task: ScheduledTask?
    }
    private let reference = LockedValue(Reference())

    var task: ScheduledTask? {
        get { reference.withLock { $0.task } }
        set { reference.withLock { $0.task = newValue } }
    }
}

/// Continued-processing tasks under seeded random sequences and edge cases: the device-wide count and
/// queue stay in step, queued requests are never lost, and completed tasks are released.
@Suite struct ContinuedProcessingInvariantTests: ContinuedProcessingFixture {
    let clock = VirtualClock()

    /// The device-wide count agrees with the apps' running continued-processing tasks.
    private func checkBookkeeping(_ system: BackgroundSystem, _ note: String) -> Bool {
        system.state.withLock { state in
            let core = state.core
            var fromApps: Set<String> = []
            for record in core.records {
                for (number, running) in record.running?.taskRequests.running ?? [:] where running.kind.isContinuedProcessing {
                    fromApps.insert("\(record.manifest.id)#\(number)")
                }
            }
            let counted = Set(core.continued.running.map { "\($0.app)#\($0.number)" })
            let ok = fromApps == counted && core.continued.running.count == counted.count
                && counted.count <= core.policy.continuedProcessingTaskLimit
            var queued: Set<String> = []
            for event in core.trace.events {
                guard let name = event.name else { continue }
                let key = "\(event.app)|\(name)"
                switch event.eventName {
                case "taskSubmitted", "taskStarted", "taskRequestCancelled": queued.remove(key)
                case "taskQueued": queued.insert(key)
                default: break
                }
            }
            let inQueue = Set(core.continued.queue.map { "\($0.app)|\($0.pending.request.identifier)" })
            if queued != inQueue { Issue.record("\(note): trace says queued \(queued.sorted()), queue has \(inQueue.sorted())"); return false }
            for record in core.records where (record.state == .suspended || record.state == .notRunning) && record.running?.taskRequests.running.isEmpty == false {
                Issue.record("\(note): \(record.manifest.id) is \(record.state) with running tasks"); return false
            }
            if !ok { Issue.record("\(note): apps \(fromApps.sorted()) vs count \(counted.sorted())") }
            return ok
        }
    }

    /// Random but seeded sequences of user, system and app actions; after each, the device-wide count
    /// matches the apps' running tasks, every `taskQueued` request is still queued or has a later
    /// `taskStarted`/`taskRequestCancelled`/`taskSubmitted`, and no suspended or dead app holds a task.
    /// (Seed 215 once lost a queued request when jetsam killed the app its start had just launched;
    /// see `aQueuedRequestIsNotLostWhenItsLaunchIsUndoneByMemoryPressure`.)
    @Test func randomSequencesKeepTheDeviceWideCountAndTheQueueInStep() throws {
        for seed in UInt64(0)..<UInt64(LongRun.cases(300, quick: 10)) {
            let clock = VirtualClock()
            var policy = BudgetPolicy.iOS13
            policy.continuedProcessingTaskLimit = 2
            let system = try BackgroundSystem(policy: policy, clock: clock)
            var random = SplitMix64(seed: seed)
            var apps: [Application] = []
            var delegates: [WildcardTaskKeeper] = []
            for i in 0..<3 {
                let delegate = WildcardTaskKeeper(pattern: "com.example.app\(i).job.*", completesOnExpiry: i != 1)
                delegates.append(delegate)
                apps.append(try system.install(AppManifest(id: AppID(rawValue: "com.example.app\(i)"), exitsOnSuspend: i == 2,
                                                           permittedTaskIdentifiers: ["com.example.app\(i).job.*"]), delegate: delegate))
            }
            var log: [String] = []
            for step in 0..<300 {
                let a = Int(random.next(below: 3))
                let app = apps[a]
                var op = random.next(below: 24)
                if op >= 17 { op = [0, 7, 8, 9, 9, 16, 16][Int(op - 17)] }
                log.append("\(op)@\(a)")
                switch op {
                case 0, 1: try? system.open(app)
                case 2: try? system.pressHome()
                case 3: try? system.killFromAppSwitcher(app)
                case 4: try? system.purge(app)
                case 5: try? system.terminate(app, reason: .system)
                case 6: try? system.send(.kill(.memoryPressure), to: app)
                case 7, 8:
                    let (a, app) = system.foregroundApplication.flatMap { f in apps.firstIndex { $0 === f }.map { ($0, f) } } ?? (a, app)
                    let n = random.next(below: 4)
                    try? app.submit(.continuedProcessing(identifier: "com.example.app\(a).job.\(n)", title: "t", subtitle: "s",
                                                         strategy: random.next(below: 4) == 0 ? .fail : .queue))
                case 9:
                    let tasks = delegates[a].tasks.entries
                    if !tasks.isEmpty { tasks[Int(random.next(below: UInt64(tasks.count)))].setTaskCompleted(success: true) }
                case 10:
                    try? system.cancelContinuedProcessingTask("com.example.app\(a).job.\(random.next(below: 4))", of: app)
                case 11: system.reclaimContinuedProcessingResources()
                case 12: system.setSystemUnderLoad(random.next(below: 2) == 0)
                case 13: system.setMemoryCapacity(random.next(below: 2) == 0 ? nil : 120_000_000)
                case 14: try? system.send(.kill(.watchdog), to: app)
                case 15: try? system.beginInterruption(); try? system.answerInterruption()
                default: clock.advance(by: .seconds(Int64(random.next(below: 8))))
                }
                if !checkBookkeeping(system, "seed \(seed) step \(step) \(log.suffix(6))") { return }
            }
        }
    }

    // MARK: Findings

    /// When the launch that would start a queued request is undone at once (jetsam kills the app it
    /// just launched), the request stays queued instead of vanishing without a trace event.
    @Test func aQueuedRequestIsNotLostWhenItsLaunchIsUndoneByMemoryPressure() throws {
        let system = try system(limit: 1)
        func manifest(_ id: AppID, _ footprint: Int) -> AppManifest {
            var manifest = AppManifest(id: id, permittedTaskIdentifiers: ["\(id).job.*"])
            manifest.memoryFootprint = footprint
            return manifest
        }
        let photos = try system.install(manifest("com.example.photos", 80_000_000), delegate: WildcardTaskKeeper(pattern: "com.example.photos.job.*"))
        let videoDelegate = WildcardTaskKeeper(pattern: "com.example.video.job.*")
        let video = try system.install(manifest("com.example.video", 50_000_000), delegate: videoDelegate)
        let other = try system.install(manifest("com.example.other", 50_000_000), delegate: nil)

        try system.open(video)
        try video.submit(.continuedProcessing(identifier: "com.example.video.job.1", title: "Render", subtitle: "Clip"))
        try system.open(photos)
        try photos.submit(.continuedProcessing(identifier: "com.example.photos.job.a", title: "Export", subtitle: "Album"))
        #expect(names(system, "taskQueued") == ["com.example.photos.job.a"])
        system.setMemoryCapacity(150_000_000)
        clock.advance(by: .seconds(1))
        try system.open(other)                       // 180 MB: warnings, then Photos (suspended) is purged
        #expect(photos.applicationState == .notRunning)
        #expect(video.applicationState == .background)
        clock.advance(by: .seconds(1))
        // Room frees up: the queued request launches Photos (180 MB again), which jetsam kills at once.
        try #require(videoDelegate.tasks.entries.first).setTaskCompleted(success: true)

        let outcome = names(system, "taskStarted") + names(system, "taskRequestCancelled") + names(system, "taskDropped")
        let stillQueued = photos.pendingTaskRequests().map(\.identifier)
        // The request must be accounted for: started, cancelled or dropped with a trace event, or still queued.
        #expect(outcome.contains("com.example.photos.job.a") || stillQueued == ["com.example.photos.job.a"],
                "lost without a trace; trace tail: \(system.trace.events.suffix(8).map(\.jsonLine))")
    }

    /// A queued request that does not start although there is room (its app exits on suspend and is
    /// not on screen) is explained with that blocker, not as "due and runs at the next opportunity".
    @Test func aQueuedRequestThatCannotStartSaysWhy() throws {
        let system = try system(limit: 1)
        let photos = try install(system, ExportDelegate())
        let legacy = try install(system, ExportDelegate(), id: "com.example.legacy", permitted: ["com.example.legacy.job.*"],
                                 exitsOnSuspend: true)
        try system.open(photos)
        try photos.submit(export("a"))
        try system.open(legacy)
        try legacy.submit(.continuedProcessing(identifier: "com.example.legacy.job.1", title: "Job", subtitle: "1"))
        try system.pressHome()                                             // legacy exits; its request waits
        try system.open(photos)
        try system.cancelContinuedProcessingTask("com.example.photos.export.a", of: photos)
        #expect(system.continuedProcessingActivities.map(\.phase) == [.queued(position: 0)])   // room, yet queued
        let explanation = try #require(system.explainPendingTaskRequest("com.example.legacy.job.1", of: legacy))
        #expect(!explanation.blockers.isEmpty, "\(explanation)")
    }

    /// However the user kills the app (`exit(.userKill)`, not only a swipe), its queued
    /// continued-processing requests are cancelled instead of relaunching it at once.
    @Test func aUserKillThatIsNotASwipeDoesNotRelaunchTheApp() throws {
        let system = try system(limit: 1)
        let delegate = ExportDelegate()
        let photos = try install(system, delegate)
        try system.open(photos)
        try photos.submit(export("a"))
        try photos.submit(export("b"))
        try system.pressHome()
        clock.advance(by: .seconds(5))
        try system.send(.kill(.userKill), to: photos)
        #expect(photos.applicationState == .notRunning, "relaunched in the background after a user kill: \(names(system, "taskStarted"))")
        #expect(!names(system, "taskStarted").contains("com.example.photos.export.b"))
    }

    // MARK: Scenario handlers with progress

    private func scenario(result: String, progress: Int?) throws -> Scenario {
        let progressKey = progress.map { ", \"progress\": \($0)" } ?? ""
        return try Scenario(json: """
        {"apps": [{"id": "com.example.photos", "permittedTaskIdentifiers": ["com.example.photos.export.*"],
                   "behaviour": {"application:didFinishLaunchingWithOptions": [
                      {"do": "registerTask", "identifier": "com.example.photos.export.*", "result": "\(result)", "work": 100\(progressKey)}]}}],
         "events": [{"at": 0, "do": "open", "app": "com.example.photos"},
                    {"at": 1, "do": "submitTask", "app": "com.example.photos", "identifier": "com.example.photos.export.a",
                     "kind": "continuedProcessing"},
                    {"at": 2, "do": "home"},
                    {"at": 20, "do": "cancelContinuedTask", "app": "com.example.photos", "identifier": "com.example.photos.export.a"}],
         "end": 60}
        """)
    }

    /// `"result": "never"` means the handler never completes the task, with or without `progress`:
    /// after expiry the system marks it `expiredUnfinished` either way.
    @Test func neverMeansNeverWithProgressToo() throws {
        let plain = try scenario(result: "never", progress: nil).run()
        let stepped = try scenario(result: "never", progress: 10).run()
        func completions(_ run: ScenarioRun) -> [String?] { run.trace.events.filter { $0.eventName == "taskCompleted" }.map(\.reason) }
        #expect(completions(plain) == ["expiredUnfinished"])
        #expect(completions(stepped) == completions(plain))
    }

    /// An expiration handler that captures its task (a cycle task → handler → task) is dropped when the
    /// task ends, so completed tasks are released.
    @Test func aCompletedTaskIsReleased() throws {
        let system = try system()
        let photos = try install(system, nil)
        try system.open(photos)
        ScenarioTaskHandler(identifier: ExportDelegate.pattern, result: true, work: .seconds(10), progressSteps: 2).register(in: photos)
        try photos.submit(export("a"))
        weak var task: ScheduledTask?
        do {
            task = system.state.withLock { state in state.closures[photos.id]?.scheduledTasks.values.first }
        }
        #expect(task != nil)
        clock.advance(by: .seconds(10))
        #expect(names(system, "taskCompleted") == ["com.example.photos.export.a"])
        #expect(clock.pendingCount == 0)
        #expect(task == nil, "the completed ScheduledTask is still alive")

        // Control: a task whose expiration handler does not capture it is released once completed.
        let box = WeakTask()
        #expect(photos.register(forTaskWithIdentifier: "com.example.photos.export.b") { task in
            task.expirationHandler = {}
            box.task = task
        })
        try photos.submit(export("b"))
        #expect(box.task != nil)
        box.task?.setTaskCompleted(success: true)
        #expect(box.task == nil)
    }

    // MARK: explainBackgroundFetch
}
