import BudgetTime

/// The model of when the system grants background fetches: documented and seeded, so the same
/// scenario gives the same fetches.
///
/// Apple says the interval is advisory and that apps whose fetches are long or find nothing get fewer
/// opportunities [S40][S41]. The model:
/// - the gap after a fetch is `max(requested, policy minimum) × factor × (1 + jitter)`, never less
///   than the app's requested interval; `jitter` is uniform in [0, 0.25) from a `SplitMix64` seeded
///   with ``BudgetPolicy/fetchSeed`` and the app's install position;
/// - `factor` starts at 1; `newData` multiplies it by 0.75 (down to 0.5: more opportunities), `noData`
///   by 1.5, `failed` by 2, and a fetch that took more than half its runtime by 1.5 more (up to 8).
///
/// Every number is in ``BudgetPolicy/FetchModelFactors`` (the defaults are quoted above).
package struct FetchModel: Sendable, Hashable {
    /// The current factor, from ``BudgetPolicy/FetchModelFactors/minimumFactor`` (0.5) to
    /// ``BudgetPolicy/FetchModelFactors/maximumFactor`` (8).
    package private(set) var factor: Double = 1
    /// The factors the model applies (``BudgetPolicy/fetchModelFactors``).
    package let factors: BudgetPolicy.FetchModelFactors
    private var random: SplitMix64
    /// The jitter generator's state, for state fingerprints.
    package var randomState: UInt64 { random.state }

    /// Creates the model for one app.
    /// - Parameters:
    ///   - seed: The seed of its jitter.
    ///   - factors: Its factors; the defaults unless given.
    package init(seed: UInt64, factors: BudgetPolicy.FetchModelFactors = BudgetPolicy.FetchModelFactors()) {
        random = SplitMix64(seed: seed)
        self.factors = factors
    }

    /// The gap before the next fetch.
    /// - Parameters:
    ///   - requested: The app's interval; `nil` for `minimum`.
    ///   - systemMinimum: ``BudgetPolicy/minimumFetchInterval``.
    package mutating func nextGap(requested: Duration?, systemMinimum: Duration) -> Duration {
        let base = max(requested ?? .zero, systemMinimum)
        let jitter = Double(random.next(below: 1 << 20)) / Double(1 << 20) * factors.jitter
        // Scaling by up to 10 stays inside the nanosecond range only below about 9 × 10⁸ s; a longer
        // interval (decades: no fetch in any run) is kept as it is instead of overflowing.
        guard base <= BudgetPolicy.FetchModelFactors.longestScaledBase else { return base }
        let scaled = base * (factor * (1 + jitter))
        return max(requested ?? .zero, scaled)
    }

    /// Learns from a fetch's result and duration.
    package mutating func record(_ result: BackgroundFetchResult, slow: Bool) {
        switch result {
        case .newData: factor *= factors.newData
        case .noData: factor *= factors.noData
        case .failed: factor *= factors.failed
        }
        if slow { factor *= factors.slow }
        factor = min(max(factor, factors.minimumFactor), factors.maximumFactor)
    }

    /// Whether a fetch that ran this long counts as slow: longer than
    /// ``BudgetPolicy/FetchModelFactors/slowFraction`` of its runtime.
    /// - Parameters:
    ///   - duration: How long the fetch ran.
    ///   - runtime: ``BudgetPolicy/fetchRuntime``.
    package func isSlow(_ duration: Duration, runtime: Duration) -> Bool {
        duration > runtime * factors.slowFraction
    }
}
