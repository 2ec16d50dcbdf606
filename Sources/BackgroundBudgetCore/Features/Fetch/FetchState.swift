import BudgetTime

/// One app's legacy background fetch: the interval it asked for, the system's model of
/// when the next fetch may come, and the plan, all kept across launches; the fetch running is the
/// process's (``RunningFetch``).
///
/// The rules here are pure: ``DeviceCore`` orchestrates them in DeviceCore+Fetch.swift.
package struct FetchState: Sendable {
    /// The app's requested fetch interval (the system remembers it across launches).
    package internal(set) var interval = BackgroundFetchInterval.never
    /// The fetch model: when the next fetch may come.
    package private(set) var model = FetchModel(seed: 0)
    /// When the last fetch ended (or the interval was set).
    var lastEnd: BudgetInstant?
    /// The next fetch opportunity, while one is planned.
    var nextAt: BudgetInstant?

    /// No fetch requested, with the model given (seeded per app by ``DeviceCore/install(_:)``).
    package init(model: FetchModel = FetchModel(seed: 0)) {
        self.model = model
    }

    /// The interval the app asked for, when it asked for a minimum.
    var requestedInterval: Duration? {
        if case .atLeast(let interval) = interval { interval } else { nil }
    }

    /// The app set its interval at `now`: the plan starts from now.
    mutating func setInterval(_ interval: BackgroundFetchInterval, at now: BudgetInstant) {
        self.interval = interval
        lastEnd = now
    }

    /// Plans the next opportunity: the model's next gap after the last fetch ended, never before `now`.
    mutating func planNext(at now: BudgetInstant, systemMinimum: Duration) -> BudgetInstant {
        let gap = model.nextGap(requested: requestedInterval, systemMinimum: systemMinimum)
        let at = max(now, (lastEnd ?? now) + gap)
        nextAt = at
        return at
    }

    /// No fetch is planned.
    mutating func cancelPlan() {
        nextAt = nil
    }

    /// An opportunity was skipped at `now`: the plan goes on from now.
    package mutating func skipped(at now: BudgetInstant) {
        lastEnd = now
    }

    /// A fetch starts: the opportunity is used (the next is planned when it ends). The fetch running
    /// is the process's.
    package mutating func start(at now: BudgetInstant) {
        nextAt = nil
    }

    /// The app completed fetch `number` while its process ran `running`: the model learns from the
    /// result and from a slow fetch. `false` (and nothing changes) when that fetch is not the one
    /// running.
    package mutating func complete(_ number: UInt64, of running: RunningFetch?, result: BackgroundFetchResult, runtime: Duration,
                                   at now: BudgetInstant) -> Bool {
        guard let running, running.number == number else { return false }
        lastEnd = now
        model.record(result, slow: model.isSlow(now - running.started, runtime: runtime))
        return true
    }

    /// The process ended while it ran `running`: a fetch cut short used up its opportunity (`true`),
    /// and the plan goes on from now.
    mutating func processEnded(during running: RunningFetch?, at now: BudgetInstant) -> Bool {
        guard running != nil else { return false }
        lastEnd = now
        return true
    }
}

/// A legacy background fetch running in the app's process
/// (``DeviceCore/RunningProcess/fetch``): it ends with the process.
package struct RunningFetch: Sendable, Equatable {
    /// The fetch's number.
    package let number: UInt64
    /// When it started.
    package let started: BudgetInstant

    /// Fetch `number`, started at `started`.
    package init(number: UInt64, started: BudgetInstant) {
        self.number = number
        self.started = started
    }
}
