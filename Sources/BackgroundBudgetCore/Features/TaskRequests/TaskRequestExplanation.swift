import BudgetTime

/// Why a pending task request has not run: "why didn't my BGTask run?"
public struct TaskRequestExplanation: Sendable, Hashable, CustomStringConvertible {
    /// The app.
    public var app: AppID
    /// The pending request.
    public var request: TaskRequest
    /// When it was submitted.
    public var submittedAt: BudgetInstant
    /// Every condition not met now, in a fixed order; empty when the request would run now.
    public var blockers: [TaskRequestBlocker]

    /// Sentences, e.g. `com.example.news's processing "com.example.news.clean" (submitted at t=0.000s)
    /// has not run. The device is not idle. It requires external power and …`.
    public var description: String {
        let head = "\(app)'s \(request.kind) request \"\(request.identifier)\" (submitted at \(submittedAt))"
        guard !blockers.isEmpty else { return head + " is due and runs at the next opportunity." }
        return head + " has not run. " + blockers.map(\.description).joined(separator: " ")
    }
}
