import BudgetTime
import BackgroundBudgetRuntime

/// Something that happens at an instant of a scenario.
public struct ScenarioEvent: Sendable, Hashable {
    /// When it happens. If an app's callback is still working at that instant (a `work` step), the
    /// event happens as soon as the callback returns, as a tap waits for a busy main thread.
    public var at: BudgetInstant
    /// What happens.
    public var action: ScenarioAction
    /// Where the event starts in the scenario file, if it came from one.
    public var position: SourcePosition?

    /// Creates an event.
    /// - Parameters:
    ///   - at: When it happens.
    ///   - action: What happens.
    ///   - position: Where it is in a scenario file, if anywhere.
    public init(at: BudgetInstant, _ action: ScenarioAction, position: SourcePosition? = nil) {
        self.at = at
        self.action = action
        self.position = position
    }

    /// Events are equal when they happen at the same instant and do the same; where they were
    /// written does not matter.
    public static func == (lhs: ScenarioEvent, rhs: ScenarioEvent) -> Bool {
        lhs.at == rhs.at && lhs.action == rhs.action
    }

    /// Hashes the instant and the action.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(at)
        hasher.combine(action)
    }
}
