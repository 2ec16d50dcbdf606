import BackgroundBudgetRuntime

extension Explorer {
    /// The first invariant that the target's own events (the setup every sequence starts from)
    /// already break, before any explored event; `nil` when they break none.
    ///
    /// A saved counterexample is such a file: its events are the setup and the sequence that broke,
    /// so this is how `bgbudget check` re-checks it, and how `bgbudget explore` says plainly that a
    /// file is broken before it explores anything (a walk would otherwise blame its first event).
    /// - Returns: The invariant's name and how it broke, or `nil`.
    package func setupViolation() -> (name: String, message: String)? {
        var fresh = session()
        return fresh.violation()
    }
}
