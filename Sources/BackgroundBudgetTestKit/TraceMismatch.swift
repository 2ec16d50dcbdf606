import BackgroundBudgetCore
import BackgroundBudgetRuntime
#if canImport(Testing)
import Testing
#endif

/// The first difference between expected ``TraceStep``s and a trace, as
/// ``checkTrace(_:app:_:comparing:)`` throws it and `expectTrace` records it.
///
/// ```swift
/// do { try checkTrace(system.trace, app: app.id, [.state(.suspended)]) }
/// catch { print(error) }   // Trace of news differs at step 1 of 1: …
/// ```
public struct TraceMismatch: Error, Sendable, CustomStringConvertible {
    /// The app whose entries were compared, or `nil` for every app's.
    public var app: AppID?
    /// The 0-based index of the first step that was not met.
    public var index: Int
    /// The step that was not met, or `nil` when the trace has entries beyond the last step.
    public var expected: TraceStep?
    /// The entry found instead, or `nil` when the trace ran out.
    public var actual: TraceEvent?
    /// The entries compared, in order.
    public var compared: [TraceEvent]
    /// How many steps were expected.
    public var stepCount: Int

    /// Every step next to the compared entries, aligned as `diff` aligns lines (``TraceDiffLine``),
    /// for the comparisons that take every entry of the mentioned kinds
    /// (``TraceStep/Comparison/mentionedKinds``, ``TraceStep/Comparison/everyEntry``); empty for
    /// ``TraceStep/Comparison/inOrder`` and for comparisons too large to align.
    public var diff: [TraceDiffLine] = []

    /// The mismatch with the expected and actual line, then the diff of the steps with the compared
    /// entries (or, without a diff, the compared entries around the mismatch).
    public var description: String {
        var text = "Trace of \(app.map { "\($0)" } ?? "all apps") differs at step \(index + 1) of \(stepCount):\n"
        text += "  expected: \(expected?.description ?? "no more entries")\n"
        text += "    actual: \(actual?.description ?? "no more entries")\n"
        if !diff.isEmpty {
            text += "Diff of the \(stepCount) steps with the \(compared.count) compared entries "
                + "(- expected, not found; + found, not expected):\n"
            return text + TraceDiffLine.text(of: diff)
        }
        text += "Compared entries (\(compared.count)):\n"
        let low = max(0, index - 8), high = min(compared.count, index + 4)
        if low > 0 { text += "    …\n" }
        for position in low..<high {
            text += (position == index ? "  → " : "    ") + "\(position + 1) \(compared[position])\n"
        }
        if high < compared.count { text += "    …\n" }
        return text
    }
}

/// Compares a trace with expected steps and throws the first mismatch.
///
/// ```swift
/// try checkTrace(system.trace, app: app.id, [.callback(.didEnterBackground), .state(.background)])
/// ```
/// - Parameters:
///   - trace: The trace.
///   - app: The app whose entries to compare; every app's when `nil`.
///   - steps: The expected entries.
///   - comparison: Which entries are compared (``TraceStep/Comparison/mentionedKinds`` by default).
/// - Throws: ``TraceMismatch`` for the first step not met, or the first unexpected entry.
public func checkTrace(_ trace: Trace, app: AppID?, _ steps: [TraceStep],
                       comparing comparison: TraceStep.Comparison = .mentionedKinds) throws(TraceMismatch) {
    let entries = app.map { trace.events(for: $0) } ?? trace.events
    func mismatch(_ index: Int, _ compared: [TraceEvent], actual: TraceEvent?) -> TraceMismatch {
        TraceMismatch(app: app, index: index, expected: index < steps.count ? steps[index] : nil, actual: actual,
                      compared: compared, stepCount: steps.count)
    }
    switch comparison {
    case .mentionedKinds, .everyEntry:
        let tags = Set(steps.map(\.tag))
        let compared = comparison == .everyEntry ? entries : entries.filter { tags.contains($0.kind.tag) }
        try checkEveryEntry(steps, compared, app: app)
    case .inOrder:
        var position = 0
        for (index, step) in steps.enumerated() {
            guard let found = entries[position...].firstIndex(where: step.matches) else {
                throw mismatch(index, entries, actual: position < entries.count ? entries[position] : nil)
            }
            position = found + 1
        }
    }
}

/// Compares `compared` with `steps` one for one and throws the first mismatch, with a diff.
func checkEveryEntry(_ steps: [TraceStep], _ compared: [TraceEvent], app: AppID?) throws(TraceMismatch) {
    for index in 0..<max(steps.count, compared.count) {
        let actual = index < compared.count ? compared[index] : nil
        guard index < steps.count, let actual, steps[index].matches(actual) else {
            var mismatch = TraceMismatch(app: app, index: index, expected: index < steps.count ? steps[index] : nil,
                                         actual: actual, compared: compared, stepCount: steps.count)
            mismatch.diff = TraceDiffLine.align(steps, compared) ?? []
            throw mismatch
        }
    }
}

#if canImport(Testing)
/// Expects an app's trace to match the steps; on a mismatch, records one issue at the caller that
/// shows the first difference (expected and actual line) and the entries around it.
///
/// ```swift
/// expectTrace(system, app: app, [
///     .callback(.willResignActive), .state(.inactive),
///     .state(.background), .callback(.didEnterBackground), .state(.suspended),
/// ], comparing: .inOrder)
/// ```
/// - Returns: Whether the trace matched.
@discardableResult
public func expectTrace(_ system: BackgroundSystem, app: Application?, _ steps: [TraceStep],
                        comparing comparison: TraceStep.Comparison = .mentionedKinds,
                        sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    expectTrace(system.trace, app: app?.id, steps, comparing: comparison, sourceLocation: sourceLocation)
}

/// Expects a trace to match the steps, for one app or all; records one issue on a mismatch.
///
/// ```swift
/// expectTrace(trace, app: "news", [.any(.fetchStarted), .any(.fetchCompleted)], comparing: .inOrder)
/// ```
/// - Returns: Whether the trace matched.
@discardableResult
public func expectTrace(_ trace: Trace, app: AppID?, _ steps: [TraceStep],
                        comparing comparison: TraceStep.Comparison = .mentionedKinds,
                        sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    do {
        try checkTrace(trace, app: app, steps, comparing: comparison)
        return true
    } catch {
        Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
        return false
    }
}
#endif
