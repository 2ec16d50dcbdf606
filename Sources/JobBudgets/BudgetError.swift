import BudgetTime
import BudgetClock

/// A budget request or extension that cannot be granted. Nothing was scheduled or changed.
public struct BudgetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    ///
    /// The problems grow as the model does, so this is a struct with a static member (or, for a problem
    /// with values, a static function) per problem rather than an enum: a new one is not a breaking
    /// change. Compare with `==`, match in a `switch` that has a `default`, and read a problem's values
    /// through the property of its name:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .notLive: print("the budget is over")
    /// default:
    ///     if let value = error.problem.allowanceNegative { print("negative allowance: \(value)") }
    /// }
    /// ```
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The problems the model knows, with their values, for the package's own exhaustive switches.
        package enum Base: Sendable, Hashable {
            case allowanceNegative(Duration)
            case warningLeadNegative(Duration)
            case graceNegative(Duration)
            case parentNotLive(Budget)
            case maximumAllowanceBelowAllowance(Duration, allowance: Duration)
            case notLive
            case extensionNotPositive(Duration)
            case extensionBeyondCeiling(Duration, ceiling: BudgetInstant)
            case extensionBeyondParent(Duration, parent: Budget)
            case extensionBeyondShutdown(Duration, deadline: BudgetInstant)
            case scopeEnded
        }

        /// The problem, for the package's own exhaustive switches.
        package let base: Base

        package init(_ base: Base) { self.base = base }

        /// The problem's name and values, as Swift prints an enum case (the error's own description is a sentence).
        public var description: String { "\(base)" }

        /// The allowance is negative. (Zero is granted: it expires at once.)
        public static func allowanceNegative(_ value: Duration) -> Problem { Problem(.allowanceNegative(value)) }
        /// What a ``allowanceNegative(_:)`` problem carries; `nil` for any other problem.
        public var allowanceNegative: Duration? {
            if case .allowanceNegative(let v0) = base { v0 } else { nil }
        }

        /// The warning lead is negative. (One longer than the allowance is granted: it warns at once.)
        public static func warningLeadNegative(_ value: Duration) -> Problem { Problem(.warningLeadNegative(value)) }
        /// What a ``warningLeadNegative(_:)`` problem carries; `nil` for any other problem.
        public var warningLeadNegative: Duration? {
            if case .warningLeadNegative(let v0) = base { v0 } else { nil }
        }

        /// The grace period is negative.
        public static func graceNegative(_ value: Duration) -> Problem { Problem(.graceNegative(value)) }
        /// What a ``graceNegative(_:)`` problem carries; `nil` for any other problem.
        public var graceNegative: Duration? {
            if case .graceNegative(let v0) = base { v0 } else { nil }
        }

        /// The parent budget has ended or stopped, or belongs to another scheduler.
        public static func parentNotLive(_ value: Budget) -> Problem { Problem(.parentNotLive(value)) }
        /// What a ``parentNotLive(_:)`` problem carries; `nil` for any other problem.
        public var parentNotLive: Budget? {
            if case .parentNotLive(let v0) = base { v0 } else { nil }
        }

        /// The maximum allowance (the request's or the scheduler's) is below the allowance.
        public static func maximumAllowanceBelowAllowance(_ value: Duration, allowance: Duration) -> Problem {
            Problem(.maximumAllowanceBelowAllowance(value, allowance: allowance))
        }
        /// What a ``maximumAllowanceBelowAllowance(_:allowance:)`` problem carries; `nil` for any other problem.
        public var maximumAllowanceBelowAllowance: (Duration, allowance: Duration)? {
            if case .maximumAllowanceBelowAllowance(let v0, let v1) = base { (v0, allowance: v1) } else { nil }
        }

        /// The budget to extend has ended or stopped, or belongs to another scheduler.
        public static let notLive = Problem(.notLive)

        /// The extension is zero or negative.
        public static func extensionNotPositive(_ value: Duration) -> Problem {
            Problem(.extensionNotPositive(value))
        }
        /// What a ``extensionNotPositive(_:)`` problem carries; `nil` for any other problem.
        public var extensionNotPositive: Duration? {
            if case .extensionNotPositive(let v0) = base { v0 } else { nil }
        }

        /// The extension would move the hard stop past the budget's ceiling (its maximum allowance).
        public static func extensionBeyondCeiling(_ value: Duration, ceiling: BudgetInstant) -> Problem {
            Problem(.extensionBeyondCeiling(value, ceiling: ceiling))
        }
        /// What a ``extensionBeyondCeiling(_:ceiling:)`` problem carries; `nil` for any other problem.
        public var extensionBeyondCeiling: (Duration, ceiling: BudgetInstant)? {
            if case .extensionBeyondCeiling(let v0, let v1) = base { (v0, ceiling: v1) } else { nil }
        }

        /// The extension would move the hard stop past its parent's.
        public static func extensionBeyondParent(_ value: Duration, parent: Budget) -> Problem {
            Problem(.extensionBeyondParent(value, parent: parent))
        }
        /// What a ``extensionBeyondParent(_:parent:)`` problem carries; `nil` for any other problem.
        public var extensionBeyondParent: (Duration, parent: Budget)? {
            if case .extensionBeyondParent(let v0, let v1) = base { (v0, parent: v1) } else { nil }
        }

        /// The extension would move the hard stop past the one ``BudgetScheduler/shutdown(grace:)`` (or
        /// the budget's ``BudgetScope/shutdown(grace:)``) set.
        public static func extensionBeyondShutdown(_ value: Duration, deadline: BudgetInstant) -> Problem {
            Problem(.extensionBeyondShutdown(value, deadline: deadline))
        }
        /// What a ``extensionBeyondShutdown(_:deadline:)`` problem carries; `nil` for any other problem.
        public var extensionBeyondShutdown: (Duration, deadline: BudgetInstant)? {
            if case .extensionBeyondShutdown(let v0, let v1) = base { (v0, deadline: v1) } else { nil }
        }

        /// The ``BudgetScope`` asked for the budget no longer exists.
        public static let scopeEnded = Problem(.scopeEnded)
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
        let what: String = switch problem.base {
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
