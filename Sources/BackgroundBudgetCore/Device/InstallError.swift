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
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Problem: Sendable, Hashable {
        /// The bundle identifier is not valid; the string says why.
        case invalidBundleIdentifier(String)
        /// An app with this identifier is already installed.
        case alreadyInstalled
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
        switch problem {
        case .invalidBundleIdentifier(let why):
            "CFBundleIdentifier \"\(app.rawValue)\" \(why)"
        case .alreadyInstalled:
            "an app with CFBundleIdentifier \"\(app.rawValue)\" is already installed"
        }
    }
}
