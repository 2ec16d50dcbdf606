import BackgroundBudget

/// How much work a scenario run may do before ``Scenario/run(limits:)`` stops it with
/// ``ScenarioError/Problem/runLimitExceeded(_:limit:seconds:)``.
///
/// A scenario is at most 10⁹ s long, but work that repeats (a keep-alive handler every 600 s, fetches,
/// a callback that keeps the app awake) can still make a run record millions of trace events and take
/// minutes and gigabytes. The limits stop such a run early, saying where and how much, instead:
///
/// ```swift
/// let run = try scenario.run()                                             // the standard limits
/// let big = try scenario.run(limits: ScenarioRunLimits(maxTraceEvents: 50_000_000, maxClockSteps: 500_000_000))
/// ```
public struct ScenarioRunLimits: Sendable, Hashable {
    /// The most trace events a run may record (kept or not).
    public var maxTraceEvents: Int
    /// The most clock steps (timers, deadlines, work items) a run may take, nested ones included.
    public var maxClockSteps: Int

    /// What a limit counts.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Trace events recorded.
        case traceEvents
        /// Clock steps taken.
        case clockSteps
    }

    /// Trace events every run may record, whatever its size: 1,000,000.
    public static let baseTraceEvents = 1_000_000
    /// Trace events allowed on top of ``baseTraceEvents`` for each scenario event: 100.
    public static let traceEventsPerEvent = 100
    /// Clock steps every run may take, whatever its size: 10,000,000.
    public static let baseClockSteps = 10_000_000
    /// Clock steps allowed on top of ``baseClockSteps`` for each scenario event: 1,000.
    public static let clockStepsPerEvent = 1_000

    /// Creates limits.
    /// - Parameters:
    ///   - maxTraceEvents: The most trace events a run may record.
    ///   - maxClockSteps: The most clock steps a run may take.
    public init(maxTraceEvents: Int, maxClockSteps: Int) {
        self.maxTraceEvents = maxTraceEvents
        self.maxClockSteps = maxClockSteps
    }

    /// The limits a run gets by default: ``baseTraceEvents`` plus ``traceEventsPerEvent`` per event,
    /// and ``baseClockSteps`` plus ``clockStepsPerEvent`` per event. They are far above what any
    /// scenario in `Examples/scenarios` needs (the longest records a few hundred events) and keep a
    /// runaway run to seconds and a few hundred megabytes.
    /// - Parameter scenario: The scenario to run.
    public static func standard(for scenario: Scenario) -> ScenarioRunLimits {
        let events = scenario.events.count
        return ScenarioRunLimits(
            maxTraceEvents: baseTraceEvents.addingSaturating(events.multipliedSaturating(by: traceEventsPerEvent)),
            maxClockSteps: baseClockSteps.addingSaturating(events.multipliedSaturating(by: clockStepsPerEvent)))
    }
}

/// Counts a run's clock steps and watches its trace; the first limit passed stays recorded.
final class RunWatch: Sendable {
    private let limits: ScenarioRunLimits
    private let system: BackgroundSystem
    private let state = LockedValue<(steps: Int, exceeded: (ScenarioRunLimits.Kind, BudgetInstant)?)>((0, nil))

    init(limits: ScenarioRunLimits, system: BackgroundSystem) {
        self.limits = limits
        self.system = system
    }

    /// Called after each clock step, outside the clock's lock: counts it, and says whether the run may go on.
    func mayContinue() -> Bool {
        let steps = state.withLock { state -> Int in
            state.steps += 1
            return state.steps
        }
        var exceeded: ScenarioRunLimits.Kind?
        if steps > limits.maxClockSteps {
            exceeded = .clockSteps
        } else if system.recordedEventCount > limits.maxTraceEvents {
            exceeded = .traceEvents
        }
        guard let exceeded else { return true }
        let now = system.clock.now
        state.withLock { state in if state.exceeded == nil { state.exceeded = (exceeded, now) } }
        return false
    }

    /// Throws when a limit was passed (during the clock's steps, or by what the events recorded
    /// directly), naming `path`.
    func check(_ clock: VirtualClock, path: String, position: SourcePosition?) throws(ScenarioError) {
        var passed = state.withLock { $0.exceeded }
        if passed == nil, system.recordedEventCount > limits.maxTraceEvents { passed = (.traceEvents, clock.now) }
        guard let (kind, instant) = passed else { return }
        let limit = kind == .traceEvents ? limits.maxTraceEvents : limits.maxClockSteps
        throw ScenarioError(.runLimitExceeded(kind, limit: limit, seconds: instant.seconds), path: path, position: position)
    }
}

extension Int {
    /// `self + other`, clamped to the representable range.
    func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self × other`, clamped to the representable range.
    func multipliedSaturating(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}
