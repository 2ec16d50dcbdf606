import BudgetTime

/// A manifest the system refused to install. Nothing was installed.
public struct InstallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    ///
    /// The problems grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or
    /// in the `switch`:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .alreadyInstalled: print("installed already")
    /// case .invalidBundleIdentifier(let value): print("bad identifier: \(value)")
    /// default: print(error)   // `@unknown default` outside this package
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
