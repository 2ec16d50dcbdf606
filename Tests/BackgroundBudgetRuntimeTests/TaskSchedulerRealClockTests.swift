import Dispatch
import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetTestKit

/// What `register(forTaskWithIdentifier:using:launchHandler:)`'s queue means on a real clock: the
/// handler runs on it; with `nil`, on the app's own queue. Lenient, bounded waits; a long suite.
@Suite(.tags(.realTime), .serialized, LongRun.only)
struct TaskSchedulerRealClockTests {
    /// Runs one continued-processing task on a ``DispatchClock`` and says whether its launch handler ran
    /// on `queue`'s key.
    private func handlerRanOnTheQueue(passing queue: DispatchQueue?, key: DispatchSpecificKey<Int>) throws -> Bool? {
        let clock = DispatchClock()
        defer { clock.shutdown() }
        let system = BackgroundSystem(clock: clock)
        let ran = DispatchSemaphore(value: 0)
        let onQueue = TestLog<Bool>()
        let delegate = ScriptedDelegate(clock: clock)
        delegate.on(.didFinishLaunching) { app in
            app.taskScheduler.register(forTaskWithIdentifier: "com.example.podcasts.export.*", using: queue) { task in
                onQueue.append(DispatchQueue.getSpecific(key: key) == 7)
                task.setTaskCompleted(success: true)
                ran.signal()
            }
        }
        let app = try system.install(AppManifest(id: "com.example.podcasts",
                                                 permittedTaskIdentifiers: ["com.example.podcasts.export.*"]), delegate: delegate)
        try system.open(app)
        #expect(waitUntil(seconds: 3) { app.applicationState == .active })
        try app.taskScheduler.submit(ContinuedProcessingTaskRequest(identifier: "com.example.podcasts.export.1",
                                                                    title: "Export", subtitle: ""))
        guard ran.wait(timeout: .now() + 3) == .success else { return nil }
        #expect(waitUntil(seconds: 3) { system.trace.first(.taskCompleted) != nil })
        return onQueue.entries.first
    }

    @Test func theHandlerRunsOnTheQueuePassedAndOnTheAppsQueueForNil() throws {
        let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "podcasts.tasks")
        queue.setSpecific(key: key, value: 7)
        #expect(try handlerRanOnTheQueue(passing: queue, key: key) == true)
        #expect(try handlerRanOnTheQueue(passing: nil, key: key) == false)
    }
}
