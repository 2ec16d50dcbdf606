import BudgetTime

/// No queued or running continued-processing task of the app has the identifier the user (or the
/// test) named.
public struct TaskLookupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The app.
    public var app: AppID
    /// The identifier that was not found.
    public var identifier: String
    /// The identifiers of the app's queued and running continued-processing tasks, for the message.
    public var known: [String]

    /// Creates an error.
    public init(app: AppID, identifier: String, known: [String]) {
        self.app = app
        self.identifier = identifier
        self.known = known
    }

    /// A sentence, with the identifiers that do exist (at most ten of them, then how many more).
    public var description: String {
        "\(app) has no queued or running continued-processing task \"\(BoundedText.clipped(identifier))\""
            + (known.isEmpty ? " (it has none)." : "; it has " + BoundedText.quotedList(known) + ".")
    }
}
