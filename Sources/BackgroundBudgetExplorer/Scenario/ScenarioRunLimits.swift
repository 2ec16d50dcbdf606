import BackgroundBudgetRuntime

/// How much work a scenario run may do before ``/BackgroundBudgetScenario/BackgroundBudgetExplorer/Scenario/run(limits:)`` stops it with
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
    ///
    /// The limits grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`.
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Trace events recorded.
        case traceEvents
        /// Clock steps taken.
        case clockSteps

        /// The limit's name.
        public var description: String { rawValue }
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
