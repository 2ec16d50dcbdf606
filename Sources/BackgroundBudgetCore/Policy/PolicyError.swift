import BudgetTime

/// A policy value that cannot be used. Nothing was applied.
public struct PolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong with the value.
    ///
    /// The problems grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or
    /// in the `switch`:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .notPositive(0): print("zero")
    /// case .exceeds(let value, let field, let limit): print("\(value) is over \(field)'s limit \(limit)")
    /// default: print(error)   // `@unknown default` outside this package
    /// }
    /// ```
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Problem: Sendable, Hashable {
        /// The value is zero or negative where a positive one is needed.
        case notPositive(Double)
        /// The value is negative.
        case negative(Double)
        /// The value is NaN or infinite.
        case notFinite(Double)
        /// The value is larger than another field allows.
        case exceeds(Double, field: BudgetPolicy.Field, limit: Double)
        /// The value is not a whole number, or too large.
        case notAWholeNumber(Double)
        /// The duration is shorter than the field's ``BudgetPolicy/Field/floor`` (in seconds): iOS
        /// refuses it, or the model could not keep its runs finite with it.
        case belowFloor(Double, floor: Double)
        /// The value lies outside the range the field allows (both ends included).
        case outOfRange(Double, lower: Double, upper: Double)
    }

    /// The field.
    public var field: BudgetPolicy.Field
    /// What was wrong.
    public var problem: Problem

    /// Creates an error.
    public init(field: BudgetPolicy.Field, problem: Problem) {
        self.field = field
        self.problem = problem
    }

    /// A sentence naming the field and the value.
    public var description: String {
        switch problem {
        case .notPositive(let value): "\(field.rawValue) must be greater than zero (got \(value))"
        case .negative(let value): "\(field.rawValue) must not be negative (got \(value))"
        case .notFinite(let value): "\(field.rawValue) must be a finite number (got \(value))"
        case .exceeds(let value, let other, let limit):
            "\(field.rawValue) (\(value)) must not exceed \(other.rawValue) (\(limit))"
        case .notAWholeNumber(let value): "\(field.rawValue) must be a whole number in range (got \(value))"
        case .belowFloor(let value, let floor):
            "\(field.rawValue) must be at least \(plainNumber(floor)) s (got \(plainNumber(value)))"
        case .outOfRange(let value, let lower, let upper):
            "\(field.rawValue) must be between \(plainNumber(lower)) and \(plainNumber(upper)) (got \(plainNumber(value)))"
        }
    }
}
