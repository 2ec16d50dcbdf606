import BudgetTime

/// A manifest the system refused to install. Nothing was installed.
public struct InstallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    ///
    /// The problems grow as the model does, so this is a struct with a static member (or, for a problem
    /// with values, a static function) per problem rather than an enum: a new one is not a breaking
    /// change. Compare with `==`, match in a `switch` that has a `default`, and read a problem's values
    /// through the property of its name:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .alreadyInstalled: print("installed already")
    /// default:
    ///     if let value = error.problem.invalidBundleIdentifier { print("bad identifier: \(value)") }
    /// }
    /// ```
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The problems the model knows, with their values, for the package's own exhaustive switches.
        package enum Base: Sendable, Hashable {
            case invalidBundleIdentifier(String)
            case alreadyInstalled
        }

        /// The problem, for the package's own exhaustive switches.
        package let base: Base

        package init(_ base: Base) { self.base = base }

        /// The problem's name and values, as Swift prints an enum case (the error's own description is a sentence).
        public var description: String { "\(base)" }

        /// The bundle identifier is not valid; the string says why.
        public static func invalidBundleIdentifier(_ value: String) -> Problem {
            Problem(.invalidBundleIdentifier(value))
        }
        /// What a ``invalidBundleIdentifier(_:)`` problem carries; `nil` for any other problem.
        public var invalidBundleIdentifier: String? {
            if case .invalidBundleIdentifier(let v0) = base { v0 } else { nil }
        }

        /// An app with this identifier is already installed.
        public static let alreadyInstalled = Problem(.alreadyInstalled)
    }

    /// The identifier of the manifest that was refused.
    public var app: AppID
    /// What was wrong.
    public var problem: Problem

    /// Creates an error.
    public init(app: AppID, problem: Problem) {
        self.app = app
        self.problem = problem
    }

    /// A sentence naming the key and what was wrong with it.
    public var description: String {
        switch problem.base {
        case .invalidBundleIdentifier(let why):
            "CFBundleIdentifier \"\(app.rawValue)\" \(why)"
        case .alreadyInstalled:
            "an app with CFBundleIdentifier \"\(app.rawValue)\" is already installed"
        }
    }
}
