// BackgroundBudgetTestKit: what policy tests need, beside the model itself.
//
//     import BackgroundBudget          // the model: systems, apps, clocks, the trace
//     import BackgroundBudgetTestKit   // scripted delegates, typed expectations, the nothing-pending check
//     import Testing
//
//     @Test func anUnendedTaskIsExpired() throws {
//         let clock = VirtualClock()
//         let system = BackgroundSystem(clock: clock)
//         let delegate = ScriptedDelegate(clock: clock)                    // records every callback
//         delegate.on(.didEnterBackground) { $0.beginBackgroundTask(withName: "upload") }
//         let app = try system.install(AppManifest(id: "news"), delegate: delegate)
//         try system.open(app)
//         try system.pressHome()
//         clock.advance(by: .seconds(60))
//         #expect(system.trace.instants(of: .expirationHandlerCalled) == [.seconds(25)])  // typed, no strings
//         expectTrace(system, app: app, [                                  // one issue at the first mismatch
//             .state(.background), .callback(.didEnterBackground), .exit(.backgroundTaskExpired),
//         ], comparing: .inOrder)
//         system.expectNothingPending()                                    // no timers, tasks or queued work left
//     }
//
// `ScriptedDelegate` replaces per-test delegates; `TraceEvent.Kind.Tag` (with the core's typed trace
// queries) and `TraceStep` replace `eventName` strings; `expectCallbacks` compares callback sequences
// and prints a diff; `pendingWork(allowing:)`, `checkNothingPending(allowing:)` and
// `expectNothingPending(allowing:)` report what a system still has outstanding.
//
// The test kit re-exports nothing (only the umbrella does): a test imports the model with
// `import BackgroundBudget`, and a test that explores adds `import BackgroundBudgetExplorer`.
