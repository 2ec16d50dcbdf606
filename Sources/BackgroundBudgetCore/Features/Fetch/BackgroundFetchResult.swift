import BudgetTime

/// What a background fetch found (`UIBackgroundFetchResult`) [S43].
public enum BackgroundFetchResult: String, Sendable, Hashable, CaseIterable {
    /// New content was downloaded.
    case newData
    /// There was nothing new.
    case noData
    /// The fetch failed.
    case failed
}
