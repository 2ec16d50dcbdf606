import BudgetTime

/// A policy value that cannot be used. Nothing was applied.
public struct PolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong with the value.
    ///
    /// The problems grow as the model does, so this is a struct with a static member (or, for a problem
    /// with values, a static function) per problem rather than an enum: a new one is not a breaking
    /// change. Compare with `==`, match in a `switch` that has a `default`, and read a problem's values
    /// through the property of its name:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .notPositive(0): print("zero")
    /// default:
    ///     if let value = error.problem.exceeds { print("over its limit: \(value)") }
    /// }
    /// ```
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The problems the model knows, with their values, for the package's own exhaustive switches.
        package enum Base: Sendable, Hashable {
            case notPositive(Double)
            case negative(Double)
            case notFinite(Double)
            case exceeds(Double, field: BudgetPolicy.Field, limit: Double)
            case notAWholeNumber(Double)
            case belowFloor(Double, floor: Double)
            case outOfRange(Double, lower: Double, upper: Double)
        }

        /// The problem, for the package's own exhaustive switches.
        package let base: Base

        package init(_ base: Base) { self.base = base }

        /// The problem's name and values, as Swift prints an enum case (the error's own description is a sentence).
        public var description: String { "\(base)" }

        /// The value is zero or negative where a positive one is needed.
        public static func notPositive(_ value: Double) -> Problem { Problem(.notPositive(value)) }
        /// What a ``notPositive(_:)`` problem carries; `nil` for any other problem.
        public var notPositive: Double? {
            if case .notPositive(let v0) = base { v0 } else { nil }
        }

        /// The value is negative.
        public static func negative(_ value: Double) -> Problem { Problem(.negative(value)) }
        /// What a ``negative(_:)`` problem carries; `nil` for any other problem.
        public var negative: Double? {
            if case .negative(let v0) = base { v0 } else { nil }
        }

        /// The value is NaN or infinite.
        public static func notFinite(_ value: Double) -> Problem { Problem(.notFinite(value)) }
        /// What a ``notFinite(_:)`` problem carries; `nil` for any other problem.
        public var notFinite: Double? {
            if case .notFinite(let v0) = base { v0 } else { nil }
        }

        /// The value is larger than another field allows.
        public static func exceeds(_ value: Double, field: BudgetPolicy.Field, limit: Double) -> Problem {
            Problem(.exceeds(value, field: field, limit: limit))
        }
        /// What a ``exceeds(_:field:limit:)`` problem carries; `nil` for any other problem.
        public var exceeds: (Double, field: BudgetPolicy.Field, limit: Double)? {
            if case .exceeds(let v0, let v1, let v2) = base { (v0, field: v1, limit: v2) } else { nil }
        }

        /// The value is not a whole number, or too large.
        public static func notAWholeNumber(_ value: Double) -> Problem { Problem(.notAWholeNumber(value)) }
        /// What a ``notAWholeNumber(_:)`` problem carries; `nil` for any other problem.
        public var notAWholeNumber: Double? {
            if case .notAWholeNumber(let v0) = base { v0 } else { nil }
        }

        /// The duration is shorter than the field's ``BudgetPolicy/Field/floor`` (in seconds): iOS
        /// refuses it, or the model could not keep its runs finite with it.
        public static func belowFloor(_ value: Double, floor: Double) -> Problem {
            Problem(.belowFloor(value, floor: floor))
        }
        /// What a ``belowFloor(_:floor:)`` problem carries; `nil` for any other problem.
        public var belowFloor: (Double, floor: Double)? {
            if case .belowFloor(let v0, let v1) = base { (v0, floor: v1) } else { nil }
        }

        /// The value lies outside the range the field allows (both ends included).
        public static func outOfRange(_ value: Double, lower: Double, upper: Double) -> Problem {
            Problem(.outOfRange(value, lower: lower, upper: upper))
        }
        /// What a ``outOfRange(_:lower:upper:)`` problem carries; `nil` for any other problem.
        public var outOfRange: (Double, lower: Double, upper: Double)? {
            if case .outOfRange(let v0, let v1, let v2) = base { (v0, lower: v1, upper: v2) } else { nil }
        }
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
        switch problem.base {
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
