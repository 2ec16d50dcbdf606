import BackgroundBudget
import BackgroundBudgetTestKit
import Testing

/// The README's test-kit example, word for word, so that it keeps compiling and passing.
@Suite struct ReadmeTestKitExampleTests {
    @Test func anUploadNeverEndedIsExpiredAndTheAppKilled() throws {
        let clock = VirtualClock()
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate(clock: clock)
        delegate.on(.didEnterBackground) { $0.beginBackgroundTask(withName: "upload") }
        let app = try system.install(AppManifest(id: "com.example.news"), delegate: delegate)

        try system.open(app)
        try system.pressHome()
        clock.advance(by: .seconds(60))

        #expect(system.trace.instants(of: .expirationHandlerCalled) == [.seconds(25)])
        expectTrace(system, app: app, [
            .state(.background), .callback(.didEnterBackground), .exit(.backgroundTaskExpired),
        ], comparing: .inOrder)
        system.expectNothingPending()
    }
}
