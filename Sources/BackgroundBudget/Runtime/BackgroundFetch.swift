/// How often an app asks to be woken for a background fetch
/// (`setMinimumBackgroundFetchInterval(_:)`) [S41][S42].
public enum BackgroundFetchInterval: Sendable, Hashable, CustomStringConvertible {
    /// No fetches (`backgroundFetchIntervalNever`), the default.
    case never
    /// As often as the system allows (`backgroundFetchIntervalMinimum`): every
    /// ``BudgetPolicy/minimumFetchInterval`` at best.
    case minimum
    /// No more often than this.
    case atLeast(Duration)

    /// `never`, `minimum` or `atLeast(600.0 seconds)`.
    public var description: String {
        switch self {
        case .never: "never"
        case .minimum: "minimum"
        case .atLeast(let interval): "atLeast(\(interval))"
        }
    }
}

/// What a background fetch found (`UIBackgroundFetchResult`) [S43].
public enum BackgroundFetchResult: String, Sendable, Hashable, CaseIterable {
    /// New content was downloaded.
    case newData
    /// There was nothing new.
    case noData
    /// The fetch failed.
    case failed
}

/// Why a background fetch opportunity passed without a fetch.
public enum FetchSkipReason: String, Sendable, Hashable, CaseIterable {
    /// Background App Refresh is off for the app (denied or restricted).
    case backgroundAppRefreshOff
    /// The user killed the app from the app switcher; it is not launched until the user opens it.
    case killedByUser
    /// The app is on screen.
    case inForeground
    /// A fetch is still running.
    case fetchInProgress
}

/// The model of when the system grants background fetches: documented and seeded, so the same
/// scenario gives the same fetches.
///
/// Apple says the interval is advisory and that apps whose fetches are long or find nothing get fewer
/// opportunities [S40][S41]. The model:
/// - the gap after a fetch is `max(requested, policy minimum) × factor × (1 + jitter)`, never less
///   than the app's requested interval; `jitter` is uniform in [0, 0.25) from a ``SplitMix64`` seeded
///   with ``BudgetPolicy/fetchSeed`` and the app's install position;
/// - `factor` starts at 1; `newData` multiplies it by 0.75 (down to 0.5: more opportunities), `noData`
///   by 1.5, `failed` by 2, and a fetch that took more than half its runtime by 1.5 more (up to 8).
public struct FetchModel: Sendable, Hashable {
    /// The current factor, from 0.5 to 8.
    public private(set) var factor: Double = 1
    private var random: SplitMix64

    /// Creates the model for one app.
    /// - Parameter seed: The seed of its jitter.
    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// The gap before the next fetch.
    /// - Parameters:
    ///   - requested: The app's interval; `nil` for `minimum`.
    ///   - systemMinimum: ``BudgetPolicy/minimumFetchInterval``.
    public mutating func nextGap(requested: Duration?, systemMinimum: Duration) -> Duration {
        let base = max(requested ?? .zero, systemMinimum)
        let jitter = Double(random.next(below: 1 << 20)) / Double(1 << 20) * 0.25
        let scaled = base * (factor * (1 + jitter))
        return max(requested ?? .zero, scaled)
    }

    /// Learns from a fetch's result and duration.
    public mutating func record(_ result: BackgroundFetchResult, slow: Bool) {
        switch result {
        case .newData: factor *= 0.75
        case .noData: factor *= 1.5
        case .failed: factor *= 2
        }
        if slow { factor *= 1.5 }
        factor = min(max(factor, 0.5), 8)
    }
}
