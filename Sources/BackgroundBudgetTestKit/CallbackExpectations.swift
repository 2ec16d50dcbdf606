import BackgroundBudgetCore
import BackgroundBudgetRuntime
#if canImport(Testing)
import Testing
#endif

/// Compares the delegate callbacks an app received, all of them and in order, with the expected
/// sequence, and throws the first difference with a diff of the two sequences.
///
/// ```swift
/// try checkCallbacks(system.trace, app: app.id, [
///     .willFinishLaunching, .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground,
/// ])
/// ```
/// - Parameters:
///   - trace: The trace.
///   - app: The app whose callbacks to compare.
///   - expected: Every callback the app should have received, in order.
/// - Throws: ``TraceMismatch`` at the first difference; its ``TraceMismatch/diff`` and description show
///   the expected callbacks not received (`-`) and the received ones not expected (`+`).
public func checkCallbacks(_ trace: Trace, app: AppID, _ expected: [AppCallback]) throws(TraceMismatch) {
    try checkEveryEntry(expected.map(TraceStep.callback), trace.events(of: .callback, for: app), app: app)
}

#if canImport(Testing)
/// Expects an app to have received exactly these delegate callbacks, in order; on a difference,
/// records one issue at the caller with a diff of the expected and the received sequences:
///
/// ```text
/// Trace of news differs at step 3 of 3:
///   expected: applicationDidBecomeActive
///     actual: t=4.000s news applicationWillResignActive
/// Diff of the 3 steps with the 4 compared entries (- expected, not found; + found, not expected):
///     1 t=0.000s news application:willFinishLaunchingWithOptions
///     2 t=0.000s news application:didFinishLaunchingWithOptions
///   - applicationDidBecomeActive
///   + 3 t=4.000s news applicationWillResignActive
///   + 4 t=4.000s news applicationDidEnterBackground
/// ```
///
/// ```swift
/// expectCallbacks(system, app: app, [.willFinishLaunching, .didFinishLaunching, .didBecomeActive])
/// ```
/// - Returns: Whether the callbacks matched.
@discardableResult
public func expectCallbacks(_ system: BackgroundSystem, app: Application, _ expected: [AppCallback],
                            sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    expectCallbacks(system.trace, app: app.id, expected, sourceLocation: sourceLocation)
}

/// Expects an app of a trace to have received exactly these delegate callbacks, in order; records one
/// issue with a diff on a difference.
///
/// ```swift
/// expectCallbacks(run.trace, app: "com.example.news", [.willFinishLaunching, .didFinishLaunching])
/// ```
/// - Returns: Whether the callbacks matched.
@discardableResult
public func expectCallbacks(_ trace: Trace, app: AppID, _ expected: [AppCallback],
                            sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    do {
        try checkCallbacks(trace, app: app, expected)
        return true
    } catch {
        Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
        return false
    }
}
#endif
