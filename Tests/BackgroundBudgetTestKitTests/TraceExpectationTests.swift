import BackgroundBudget
import Testing
import BackgroundBudgetTestKit

@Suite struct TraceExpectationTests {
    let clock = VirtualClock()

    /// An app whose didEnterBackground begins a task it never ends: handler at 25 s, killed at 30 s.
    private func expiredUploader() throws -> (BackgroundSystem, Application) {
        let system = BackgroundSystem(clock: clock)
        let delegate = ScriptedDelegate()
        delegate.on(.didEnterBackground) { $0.beginBackgroundTask(withName: "upload") }
        let app = try system.install(AppManifest(id: "news"), delegate: delegate)
        try system.open(app)
        try system.pressHome()
        clock.advance(by: .seconds(60))
        return (system, app)
    }

    @Test func tagsNameEveryKindAndQueriesPickByTag() throws {
        let (system, app) = try expiredUploader()
        #expect(Set(system.trace.events.map(\.kind.tag)).isSuperset(of: [.callback, .stateChange, .exit]))
        #expect(system.trace.instants(of: .expirationHandlerCalled) == [.seconds(25)])
        #expect(system.trace.first(.exit, for: app.id)?.kind == .exit(.backgroundTaskExpired, code: 0x2182_bad2))
        #expect(system.trace.last(.stateChange)?.state == .notRunning)
        #expect(system.trace.count(of: .callback) == 5)
        #expect(!system.trace.contains(any: .fetchStarted, .taskStarted))
        #expect(system.trace.events(of: .exit, for: "other").isEmpty)
        #expect(TraceEvent.Kind.Tag.allCases.count == 50)
    }

    @Test func aMatchingTraceRecordsNothing() throws {
        let (system, app) = try expiredUploader()
        #expect(expectTrace(system, app: app, [
            .callback(.willFinishLaunching), .callback(.didFinishLaunching), .callback(.didBecomeActive),
            .callback(.willResignActive), .callback(.didEnterBackground),
        ]))
        #expect(expectTrace(system, app: app, [
            .state(.background), .callback(.didEnterBackground).at(.zero),
            .any(.expirationHandlerCalled).at(.seconds(25)), .exit(.backgroundTaskExpired),
        ], comparing: .inOrder))
        try checkTrace(system.trace, app: app.id, [
            .state(.inactive), .state(.active), .state(.inactive), .state(.background), .state(.notRunning),
        ])
    }

    @Test func theFirstMismatchIsThrownWithTheExpectedAndActualLine() throws {
        let (system, app) = try expiredUploader()
        let error = #expect(throws: TraceMismatch.self) {
            try checkTrace(system.trace, app: app.id, [.state(.inactive), .state(.active), .state(.suspended)])
        }
        let mismatch = try #require(error)
        #expect(mismatch.index == 2)
        #expect(mismatch.actual?.state == .inactive)
        #expect(mismatch.description.contains("expected: stateChange state=\"suspended\""))
        #expect(mismatch.description.contains("actual: t=0.000s news stateChange state=\"inactive\""))
    }

    @Test func extraEntriesAndMissingOnesAreMismatchesToo() throws {
        let (system, app) = try expiredUploader()
        let extra = #expect(throws: TraceMismatch.self) {
            try checkTrace(system.trace, app: app.id, [.exactly(.exit(.backgroundTaskExpired, code: 0x2182_bad2))],
                           comparing: .everyEntry)
        }
        #expect(extra?.index == 0)
        let missing = #expect(throws: TraceMismatch.self) {
            try checkTrace(system.trace, app: app.id, [.exit(.backgroundTaskExpired), .callback(.willTerminate)],
                           comparing: .inOrder)
        }
        #expect(missing?.index == 1)
        #expect(missing?.actual?.state == .notRunning)   // where the search for the missing step began
        let short = #expect(throws: TraceMismatch.self) {
            try checkTrace(system.trace, app: app.id, [.any(.callback), .any(.callback), .any(.callback),
                                                       .any(.callback), .any(.callback), .any(.callback)])
        }
        #expect(short?.index == 5)
        #expect(short?.actual == nil)
    }

    @Test func expectTraceRecordsOneIssueShowingTheMismatch() throws {
        let (system, app) = try expiredUploader()
        withKnownIssue {
            #expect(!expectTrace(system, app: app, [
                .callback(.willFinishLaunching), .callback(.didFinishLaunching), .callback(.didBecomeActive),
                .callback(.willResignActive), .callback(.didEnterBackground), .callback(.willTerminate),
            ]))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("expected: applicationWillTerminate") }
                && issue.comments.contains { $0.rawValue.contains("actual: no more entries") }
        }
    }

    @Test func aTimedStepNeedsTheInstantToo() throws {
        let (system, app) = try expiredUploader()
        withKnownIssue {
            expectTrace(system, app: app, [.any(.expirationHandlerCalled).at(.seconds(24))])
        }
    }
}
