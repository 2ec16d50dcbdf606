import BackgroundBudget
import Testing
import BackgroundBudgetTestKit

@Suite struct CallbackDiffTests {
    let clock = VirtualClock()

    /// An app opened, then sent home at 4 s: five callbacks.
    private func openedAndSentHome() throws -> (BackgroundSystem, Application) {
        let system = BackgroundSystem(clock: clock)
        let app = try system.install(AppManifest(id: "news"), delegate: ScriptedDelegate())
        try system.open(app)
        clock.advance(by: .seconds(4))
        try system.pressHome()
        return (system, app)
    }

    @Test func typedQueriesNameKindsNotStrings() throws {
        let (system, app) = try openedAndSentHome()
        #expect(system.trace.callbacks(for: app.id) == [
            .willFinishLaunching, .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground,
        ])
        #expect(system.trace.events(of: .callback, for: app.id).map(\.time).last == .seconds(4))
        #expect(system.trace.first(.stateChange)?.state == .inactive)
        #expect(system.trace.events(of: .exit).isEmpty)
        #expect(system.trace.first(.expirationHandlerCalled) == nil)
    }

    @Test func matchingCallbacksThrowNothing() throws {
        let (system, app) = try openedAndSentHome()
        try checkCallbacks(system.trace, app: app.id, [
            .willFinishLaunching, .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground,
        ])
        #expect(expectCallbacks(system, app: app, [
            .willFinishLaunching, .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground,
        ]))
    }

    @Test func aDifferenceIsShownAsADiffOfTheTwoSequences() throws {
        let (system, app) = try openedAndSentHome()
        let error = #expect(throws: TraceMismatch.self) {
            try checkCallbacks(system.trace, app: app.id, [
                .willFinishLaunching, .didFinishLaunching, .willEnterForeground, .didBecomeActive, .didEnterBackground,
            ])
        }
        let mismatch = try #require(error)
        #expect(mismatch.index == 2)
        #expect(mismatch.diff.map(\.description) == [
            "    1 t=0.000s news application:willFinishLaunchingWithOptions",
            "    2 t=0.000s news application:didFinishLaunchingWithOptions",
            "  - applicationWillEnterForeground",
            "    3 t=0.000s news applicationDidBecomeActive",
            "  + 4 t=4.000s news applicationWillResignActive",
            "    5 t=4.000s news applicationDidEnterBackground",
        ])
        #expect(mismatch.description.contains("(- expected, not found; + found, not expected):\n"
            + "    1 t=0.000s news application:willFinishLaunchingWithOptions\n"))
    }

    @Test func noExpectedCallbacksMeansNoneReceived() throws {
        let (system, app) = try openedAndSentHome()
        let error = #expect(throws: TraceMismatch.self) { try checkCallbacks(system.trace, app: app.id, []) }
        #expect(error?.diff.filter(\.isDifference).count == 5)
        try checkCallbacks(system.trace, app: "someone-else", [])
    }

    @Test func longRunsOfMatchingEntriesAreShortened() throws {
        let (system, app) = try openedAndSentHome()
        for _ in 0..<5 {
            try system.open(app)
            try system.pressHome()
        }
        var expected = system.trace.callbacks(for: app.id)
        expected.removeLast()
        let mismatch = try #require(#expect(throws: TraceMismatch.self) { try checkCallbacks(system.trace, app: app.id, expected) })
        #expect(mismatch.description.contains("    … \(expected.count - 4) matching entries\n"))
        #expect(mismatch.description.hasSuffix("  + \(expected.count + 1) t=4.000s news applicationDidEnterBackground\n"))
    }

    @Test func expectCallbacksRecordsOneIssueWithTheDiff() throws {
        let (system, app) = try openedAndSentHome()
        withKnownIssue {
            #expect(!expectCallbacks(system, app: app, [.willFinishLaunching, .didFinishLaunching, .didBecomeActive]))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("  + 4 t=4.000s news applicationWillResignActive\n") }
        }
    }

    @Test func aStepListComparedEntryByEntryGetsADiffAndAnInOrderOneDoesNot() throws {
        let (system, app) = try openedAndSentHome()
        let every = #expect(throws: TraceMismatch.self) {
            try checkTrace(system.trace, app: app.id, [.state(.inactive), .state(.active), .state(.suspended)])
        }
        #expect(every?.diff.map(\.isDifference) == [false, false, true, true, false])
        let inOrder = #expect(throws: TraceMismatch.self) {
            try checkTrace(system.trace, app: app.id, [.state(.inactive), .state(.notRunning)], comparing: .inOrder)
        }
        #expect(inOrder?.diff.isEmpty == true)
    }
}
