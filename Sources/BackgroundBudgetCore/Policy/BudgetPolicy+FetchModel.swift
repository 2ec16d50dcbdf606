import BudgetTime

extension BudgetPolicy {
    /// The numbers of the fetch model (see the Background fetch article): how each fetch's result and duration stretch or shrink the
    /// gap before the next fetch opportunity.
    ///
    /// Apple says the fetch interval is advisory and that apps whose fetches are long or find nothing
    /// get fewer opportunities [S40][S41], but publishes no number: every value here is a model
    /// assumption, the same in every preset. The model's factor starts at 1 (the gap as requested) and
    /// stays within ``minimumFactor``…``maximumFactor``.
    public struct FetchModelFactors: Sendable, Hashable {
        /// What a `newData` fetch multiplies the factor by: 0.75, more opportunities. Model assumption.
        public var newData: Double = 0.75
        /// What a `noData` fetch multiplies the factor by: 1.5, fewer opportunities. Model assumption.
        public var noData: Double = 1.5
        /// What a `failed` fetch multiplies the factor by: 2. Model assumption.
        public var failed: Double = 2
        /// What a slow fetch multiplies the factor by, on top of its result's factor: 1.5. Model assumption.
        public var slow: Double = 1.5
        /// The share of ``BudgetPolicy/fetchRuntime`` after which a fetch counts as slow: 0.5 (it took
        /// more than half its runtime). Model assumption.
        public var slowFraction: Double = 0.5
        /// The smallest factor: 0.5, twice as many opportunities as requested at most. Model assumption.
        public var minimumFactor: Double = 0.5
        /// The largest factor: 8. Model assumption.
        public var maximumFactor: Double = 8
        /// The spread of the random jitter added to each gap: the gap is multiplied by `1 + j` with
        /// `j` uniform in [0, jitter): 0.25. Model assumption.
        public var jitter: Double = 0.25

        /// The largest stretch a gap may get, `maximumFactor × (1 + jitter)`: 10, so that every gap the
        /// model scales (up to 9 × 10⁸ s) stays inside the nanosecond range. The model's limit.
        public static let largestStretch = 10.0

        /// The longest base gap the model scales: 9 × 10⁸ s, so that ``largestStretch`` × it fits in
        /// `Int64` nanoseconds; a longer interval (decades: no fetch in any run) is kept unscaled.
        /// The model's limit.
        static let longestScaledBase = Duration.seconds(900_000_000)

        /// The default factors.
        public init() {}

        /// Sets the factor a policy field names; other fields are ignored.
        mutating func set(_ field: Field, to value: Double) {
            switch field {
            case .fetchNewDataFactor: newData = value
            case .fetchNoDataFactor: noData = value
            case .fetchFailedFactor: failed = value
            case .fetchSlowFactor: slow = value
            case .fetchSlowFraction: slowFraction = value
            case .fetchMinimumFactor: minimumFactor = value
            case .fetchMaximumFactor: maximumFactor = value
            case .fetchJitter: jitter = value
            default: break
            }
        }

        /// Checks every factor.
        /// - Throws: ``PolicyError`` naming the first factor that is not finite, a multiplier or a
        ///   slow fraction that is not positive, a slow fraction above 1, a jitter outside 0…1, a
        ///   minimum factor outside (0, 1], or a maximum factor below 1 or above
        ///   ``largestStretch`` ÷ (1 + jitter).
        public func validate() throws(PolicyError) {
            let values: [(Field, Double)] = [
                (.fetchNewDataFactor, newData), (.fetchNoDataFactor, noData), (.fetchFailedFactor, failed),
                (.fetchSlowFactor, slow), (.fetchSlowFraction, slowFraction), (.fetchMinimumFactor, minimumFactor),
                (.fetchMaximumFactor, maximumFactor), (.fetchJitter, jitter),
            ]
            for (field, value) in values {
                guard value.isFinite else { throw PolicyError(field: field, problem: .notFinite(value)) }
                if field != .fetchJitter, value <= 0 { throw PolicyError(field: field, problem: .notPositive(value)) }
            }
            func within(_ field: Field, _ value: Double, _ lower: Double, _ upper: Double) throws(PolicyError) {
                guard value >= lower, value <= upper else {
                    throw PolicyError(field: field, problem: .outOfRange(value, lower: lower, upper: upper))
                }
            }
            try within(.fetchSlowFraction, slowFraction, 0, 1)
            try within(.fetchJitter, jitter, 0, 1)
            try within(.fetchMinimumFactor, minimumFactor, 0, 1)
            try within(.fetchMaximumFactor, maximumFactor, 1, Self.largestStretch / (1 + jitter))
        }
    }
}
