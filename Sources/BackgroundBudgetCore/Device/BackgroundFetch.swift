import BudgetClock

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
///
/// Every number is in ``BudgetPolicy/FetchModelFactors`` (the defaults are quoted above).
public struct FetchModel: Sendable, Hashable {
    /// The current factor, from ``BudgetPolicy/FetchModelFactors/minimumFactor`` (0.5) to
    /// ``BudgetPolicy/FetchModelFactors/maximumFactor`` (8).
    public private(set) var factor: Double = 1
    /// The factors the model applies (``BudgetPolicy/fetchModelFactors``).
    public let factors: BudgetPolicy.FetchModelFactors
    private var random: SplitMix64

    /// Creates the model for one app.
    /// - Parameters:
    ///   - seed: The seed of its jitter.
    ///   - factors: Its factors; the defaults unless given.
    public init(seed: UInt64, factors: BudgetPolicy.FetchModelFactors = BudgetPolicy.FetchModelFactors()) {
        random = SplitMix64(seed: seed)
        self.factors = factors
    }

    /// The gap before the next fetch.
    /// - Parameters:
    ///   - requested: The app's interval; `nil` for `minimum`.
    ///   - systemMinimum: ``BudgetPolicy/minimumFetchInterval``.
    public mutating func nextGap(requested: Duration?, systemMinimum: Duration) -> Duration {
        let base = max(requested ?? .zero, systemMinimum)
        let jitter = Double(random.next(below: 1 << 20)) / Double(1 << 20) * factors.jitter
        // Scaling by up to 10 stays inside the nanosecond range only below about 9 × 10⁸ s; a longer
        // interval (decades: no fetch in any run) is kept as it is instead of overflowing.
        guard base <= Self.longestScaledBase else { return base }
        let scaled = base * (factor * (1 + jitter))
        return max(requested ?? .zero, scaled)
    }

    /// The longest base gap that is scaled: 9 × 10⁸ s, so that
    /// ``BudgetPolicy/FetchModelFactors/largestStretch`` (10) × it fits in `Int64` nanoseconds.
    package static let longestScaledBase = Duration.seconds(900_000_000)

    /// Learns from a fetch's result and duration.
    public mutating func record(_ result: BackgroundFetchResult, slow: Bool) {
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
    public func isSlow(_ duration: Duration, runtime: Duration) -> Bool {
        duration > runtime * factors.slowFraction
    }
}

/// Something that keeps an app from getting a background fetch now.
public enum FetchBlocker: Sendable, Hashable, CustomStringConvertible {
    /// `UIBackgroundModes` does not declare `fetch`.
    case fetchModeMissing
    /// The app has `BGTaskSchedulerPermittedIdentifiers`, which turn legacy fetch off [S44].
    case usesTaskScheduler
    /// The app exits on suspend: it is never woken in the background.
    case exitsOnSuspend
    /// The app's minimum fetch interval is `never` (the default).
    case intervalNever
    /// The app's own Background App Refresh switch is off.
    case backgroundAppRefreshOff
    /// Background App Refresh is off for the whole device (Settings › General › Background App Refresh).
    case backgroundAppRefreshOffForDevice
    /// Low Power Mode is on, which turns Background App Refresh off for every app [S60][S66].
    case lowPowerMode
    /// The device forbids Background App Refresh (for example parental controls) [S61].
    case backgroundAppRefreshRestricted
    /// The user killed the app from the app switcher and has not opened it since.
    case killedByUser
    /// The app is on screen; opportunities while it is are skipped.
    case inForeground
    /// A fetch is running.
    case fetchInProgress
    /// The next opportunity the fetch model planned is at this instant.
    case notBefore(BudgetInstant)
    /// Recent `noData`, `failed` or slow fetches stretched the gap between opportunities by this
    /// factor (``FetchModel/factor``); `newData` shrinks it again.
    case throttled(factor: Double)

    /// A sentence.
    public var description: String {
        switch self {
        case .fetchModeMissing: "UIBackgroundModes does not declare \"fetch\"."
        case .usesTaskScheduler: "The app has BGTaskSchedulerPermittedIdentifiers, which turn legacy background fetch off."
        case .exitsOnSuspend: "The app exits on suspend, so it is never woken in the background."
        case .intervalNever: "The app's minimum background fetch interval is \"never\"."
        case .backgroundAppRefreshOff: "Background App Refresh is off for the app."
        case .backgroundAppRefreshOffForDevice: "Background App Refresh is off for the whole device."
        case .lowPowerMode: "Low Power Mode is on, which turns Background App Refresh off for every app."
        case .backgroundAppRefreshRestricted: "Background App Refresh is restricted on this device (for example by parental controls)."
        case .killedByUser: "The user killed the app from the app switcher and has not opened it since."
        case .inForeground: "The app is on screen."
        case .fetchInProgress: "A fetch is running."
        case .notBefore(let instant): "The next fetch opportunity is at \(instant)."
        case .throttled(let factor):
            "Recent fetches found nothing, failed or were slow: the gap between opportunities is stretched ×\(Self.format(factor))."
        }
    }

    private static func format(_ factor: Double) -> String {
        let hundredths = (factor * 100).rounded()
        return hundredths.truncatingRemainder(dividingBy: 100) == 0 ? String(Int(hundredths / 100)) : String(hundredths / 100)
    }
}

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
