import BudgetTime
import BudgetClock

/// A budget request or extension that cannot be granted. Nothing was scheduled or changed.
public struct BudgetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    ///
    /// More problems may come as the model grows, so outside this package a `switch` over the cases
    /// needs an `@unknown default`. A case with values carries them as associated values:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .notLive: print("the budget is over")
    /// case .allowanceNegative(let value): print("negative allowance: \(value)")
    /// default: print(error)
    /// }
    /// ```
    ///
    /// `String(describing:)` gives the case's name and values, as Swift prints an enum case (the
    /// error's own description is a sentence).
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Problem: Sendable, Hashable {
        /// The allowance is negative. (Zero is granted: it expires at once.)
        case allowanceNegative(Duration)
        /// The warning lead is negative. (One longer than the allowance is granted: it warns at once.)
        case warningLeadNegative(Duration)
        /// The grace period is negative.
        case graceNegative(Duration)
        /// The parent budget has ended or stopped, or belongs to another scheduler.
        case parentNotLive(Budget)
        /// The maximum allowance (the request's or the scheduler's) is below the allowance.
        case maximumAllowanceBelowAllowance(Duration, allowance: Duration)
        /// The budget to extend has ended or stopped, or belongs to another scheduler.
        case notLive
        /// The extension is zero or negative.
        case extensionNotPositive(Duration)
        /// The extension would move the hard stop past the budget's ceiling (its maximum allowance).
        case extensionBeyondCeiling(Duration, ceiling: BudgetInstant)
        /// The extension would move the hard stop past its parent's.
        case extensionBeyondParent(Duration, parent: Budget)
        /// The extension would move the hard stop past the one ``BudgetScheduler/shutdown(grace:)`` (or
        /// the budget's ``BudgetScope/shutdown(grace:)``) set.
        case extensionBeyondShutdown(Duration, deadline: BudgetInstant)
        /// The ``BudgetScope`` asked for the budget no longer exists.
        case scopeEnded
    }

    /// The name given to the request.
    public var name: String
    /// What was wrong.
    public var problem: Problem

    /// Creates an error.
    public init(name: String, problem: Problem) {
        self.name = name
        self.problem = problem
    }

    /// A sentence naming the parameter and the value.
    public var description: String {
        let what: String = switch problem {
        case .allowanceNegative(let allowance): "allowance must not be negative (got \(allowance))"
        case .warningLeadNegative(let lead): "warningLead must not be negative (got \(lead))"
        case .graceNegative(let grace): "grace must not be negative (got \(grace))"
        case .parentNotLive(let parent): "parent \(parent) is not live"
        case .maximumAllowanceBelowAllowance(let maximum, let allowance):
            "maximumAllowance \(maximum) must not be below the allowance \(allowance)"
        case .notLive: "the budget has ended or stopped"
        case .extensionNotPositive(let extra): "an extension must be greater than zero (got \(extra))"
        case .extensionBeyondCeiling(let extra, let ceiling):
            "extending by \(extra) would pass the budget's ceiling at \(ceiling)"
        case .extensionBeyondParent(let extra, let parent): "extending by \(extra) would outlive its parent \(parent)"
        case .extensionBeyondShutdown(let extra, let deadline):
            "extending by \(extra) would pass the shutdown's hard stop at \(deadline)"
        case .scopeEnded: "its scope no longer exists"
        }
        return "budget \"\(name)\": \(what)"
    }
}
