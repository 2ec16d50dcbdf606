import BudgetTime

/// What a background fetch found (`UIBackgroundFetchResult`) [S43].
///
/// The set is closed: the three values of `UIBackgroundFetchResult`, so a `switch` over it needs no `default`.
public enum BackgroundFetchResult: String, Sendable, Hashable, CaseIterable {
    /// New content was downloaded.
    case newData
    /// There was nothing new.
    case noData
    /// The fetch failed.
    case failed
}
