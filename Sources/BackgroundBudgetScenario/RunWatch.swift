import BackgroundBudgetExplorer
import BackgroundBudgetRuntime
import BudgetClock
import BudgetLock
import BudgetTime

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
