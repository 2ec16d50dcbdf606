import BackgroundBudget
import BackgroundBudgetTestKit
import Testing

/// The README's task-scheduler (podcasts) example, word for word, so that it keeps compiling and
/// passing, with the README's imports only; ``ReadmeExampleTextTests`` checks that the README still
/// holds exactly this text.
@Suite struct ReadmeTaskSchedulerExampleTests {
    @Test func theFeedRefreshesAnHourAfterTheUserLeaves() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate(clock: clock)
        delegate.on(.didFinishLaunching) { app in
            app.taskScheduler.register(forTaskWithIdentifier: "com.example.podcasts.refresh", using: nil) { task in
                task.expirationHandler = { task.setTaskCompleted(success: false) }
                app.simulateWork(for: .seconds(3))                  // download the feed
                task.setTaskCompleted(success: true)
            }
        }
        delegate.on(.didEnterBackground) { app in
            var request = AppRefreshTaskRequest(identifier: "com.example.podcasts.refresh")
            request.earliestBeginDate = system.currentDate.addingTimeInterval(60 * 60)
            try? app.taskScheduler.submit(request)
        }
        let manifest = AppManifest(id: "com.example.podcasts", backgroundModes: [.fetch],
                                   permittedTaskIdentifiers: ["com.example.podcasts.refresh"])
        let app = try system.install(manifest, delegate: delegate)

        try system.open(app)
        try system.pressHome()                                      // t = 0: the request is submitted
        clock.advance(by: .seconds(90 * 60))

        #expect(system.trace.instants(of: .taskStarted) == [.seconds(3600)])
        #expect(system.trace.first(.taskCompleted)?.time == .seconds(3603))
        #expect(app.applicationState == .suspended)

        system.setBackgroundAppRefresh(enabled: false, for: app)   // the user turns it off in Settings
        let refused = #expect(throws: TaskScheduler.Error.self) {
            try app.taskScheduler.submit(AppRefreshTaskRequest(identifier: "com.example.podcasts.refresh"))
        }
        #expect(refused?.code == .unavailable)
    }
}
