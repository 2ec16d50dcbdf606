import BudgetTime

/// Why an app gets no background fetch now: "why didn't my fetch run?"
///
/// ```swift
/// print(system.explainBackgroundFetch(of: news))
/// // com.example.news gets no background fetch now. Background App Refresh is off for the app. …
/// ```
public struct FetchExplanation: Sendable, Hashable, CustomStringConvertible {
    /// The app.
    public var app: AppID
    /// The next opportunity the fetch model has planned, if it plans any.
    public var nextOpportunity: BudgetInstant?
    /// Every condition not met now, in a fixed order; empty when a fetch is due now.
    public var blockers: [FetchBlocker]

    /// Sentences.
    public var description: String {
        guard !blockers.isEmpty else { return "\(app)'s background fetch is due and runs at the next opportunity." }
        return "\(app) gets no background fetch now. " + blockers.map(\.description).joined(separator: " ")
    }
}
