import BudgetTime

/// The device's pure core: every app's authoritative state, its finite tasks and allowance, which app
/// is in the foreground, and the trace. No clocks, queues, locks, closures or object references: callers
/// pass `now`, and every input returns one shape, a ``Decision``: the answer for the caller (nothing,
/// for most inputs) and the ``Effect``s to perform, in order. The app's closures (expiration, launch and
/// keep-alive handlers) and the ``ScheduledTask`` objects live in the shell, keyed by the identifiers
/// the effects name; the core keeps only what it decides with, as values.
package struct DeviceCore: Sendable {
    /// The rules the core applies.
    package let policy: BudgetPolicy
    /// Every installed app's record, in installation order; ``slot(_:)`` finds one by identifier.
    package internal(set) var records: [AppRecord] = []
    /// Each installed app's index in ``records``.
    private var slots: [AppID: Int] = [:]
    /// The apps' identifiers in slot order: a few apps are found faster by comparing identifiers
    /// (equal strings of one manifest share their storage) than by hashing one (``index(of:)``).
    private var ids: [AppID] = []
    /// The app in the foreground, if one is (at most one at a time).
    package internal(set) var foreground: AppID?
    /// What happened, in order.
    package internal(set) var trace = Trace()

    /// How much of the trace to keep.
    package let retention: TraceRetention
    /// The device's memory: capacity, bytes in use, the episode of pressure under way.
    package internal(set) var memory = MemoryPressureState()
    /// The suspended apps in the order memory pressure purges them (kept up to date by
    /// ``purgeOrderChanged(_:)``).
    package internal(set) var purgeOrder = PurgeOrder()
    /// Device-wide settings: Background App Refresh, Low Power Mode.
    package internal(set) var settings = DeviceSettings()
    /// Network, power and idleness, for processing tasks.
    package internal(set) var conditions = DeviceConditions()
    /// Continued-processing tasks: the device-wide queue, the running tasks, load and GPU support.
    package internal(set) var continued = ContinuedProcessingState()
    /// The last `BGTaskScheduler` task number handed out.
    var lastScheduledTaskNumber: UInt64 = 0
    /// The last background fetch number handed out.
    var lastFetchNumber: UInt64 = 0
    /// The last timer token handed out.
    var lastTimerToken: UInt64 = 0
    /// While set, entries recorded are held here instead of the trace (see `holdingEntries(_:)`).
    var held: [TraceEvent]?
    /// The apps given a delivery with callbacks in the current decision: what else the decision
    /// records for them is traced after the delivery's steps (see ``beginDecision()``).
    var holdsBehind: Set<AppID> = []

    /// A device with no app installed, applying `policy` and keeping the trace as `retention` says.
    package init(policy: BudgetPolicy, retention: TraceRetention = .all) {
        self.policy = policy
        self.retention = retention
    }

    /// Adds an app in the not-running state.
    package mutating func install(_ manifest: AppManifest) throws(InstallError) {
        if let problem = manifest.id.validationProblem {
            throw InstallError(app: manifest.id, problem: .invalidBundleIdentifier(problem))
        }
        guard slots[manifest.id] == nil else { throw InstallError(app: manifest.id, problem: .alreadyInstalled) }
        slots[manifest.id] = records.count
        ids.append(manifest.id)
        var record = AppRecord(manifest: manifest)
        record.fetch = FetchState(model: FetchModel(seed: policy.fetchSeed &+ UInt64(records.count) &* 0x9E37_79B9_7F4A_7C15, factors: policy.fetchModelFactors))
        records.append(record)
    }

    /// Where an installed app's record is. The system only hands the core apps it installed, so an
    /// unknown identifier is a broken invariant.
    package func slot(_ app: AppID) -> Int {
        guard let slot = index(of: app) else {
            preconditionFailure("BackgroundSystem handed the core an app it never installed: \(app)")
        }
        return slot
    }

    /// The slot of an installed app, or `nil`: by comparison among a few apps, by hash among many.
    @inline(__always)
    private func index(of app: AppID) -> Int? {
        ids.count <= 8 ? ids.firstIndex(of: app) : slots[app]
    }

    /// The authoritative state of an app.
    package func state(of app: AppID) -> ApplicationState {
        index(of: app).map { records[$0].state } ?? .notRunning
    }

    /// Whether `incarnation` is the app's live process: it is running and was not relaunched since.
    /// The shell drops, without effect or trace, every call made by code of an ended process.
    package func isLive(_ app: AppID, incarnation: UInt64) -> Bool {
        index(of: app).map { records[$0].incarnation == incarnation && records[$0].isRunning } ?? false
    }

    /// Records a trace entry for an app.
    mutating func record(_ kind: TraceEvent.Kind, _ app: AppID, _ now: BudgetInstant) {
        let event = TraceEvent(time: now, app: app, kind: kind)
        if held != nil {
            held?.append(event)
        } else if !holdsBehind.isEmpty, holdsBehind.contains(app), let slot = index(of: app), !records[slot].heldSteps.isEmpty {
            // Decided with the app's delivery: its work is queued behind the delivery's steps.
            records[slot].holdAfterSteps(event)
        } else {
            trace.append(event, retention: retention)
        }
    }

    /// Records a device-wide change on ``AppID/device``.
    mutating func recordDevice(_ change: DeviceChange, _ now: BudgetInstant) {
        record(.deviceChanged(change), .device, now)
    }
}
