import BudgetClock

/// Memory pressure and jetsam, and notifications coalesced while suspended.
///
/// Rules (IOS-FACTS §8, Part 1): when the apps in memory need more than the device has, suspended apps
/// are purged first, silently, largest footprint first, least recently used first among equals [S71];
/// if that is not enough, running apps get a memory warning and a chance to shrink; then running
/// background apps are killed from the lowest jetsam band up [S72], the foreground app last.
/// Notifications for a suspended app are coalesced to one per kind and delivered first when it runs [S73].
extension DeviceCore {
    /// The bytes the apps in memory use together, recomputed from scratch (for checks; the core keeps
    /// ``memoryInUse`` up to date as apps launch, exit and change their footprints).
    package var memoryInUseRecomputed: Int {
        records.reduce(0) { $0 + ($1.state == .notRunning ? 0 : $1.footprint) }
    }

    /// The jetsam band an app is in now.
    package func jetsamBand(of record: AppRecord) -> JetsamBand {
        switch record.state {
        case .suspended, .notRunning: .idle
        case .inactive, .active: .foreground
        case .background:
            record.activities.contains(.audioPlayback) ? .audioAndAccessory : .background
        }
    }

    /// The largest footprint the model accepts, 2⁴⁰ bytes (about 1.1 TB): larger values are clamped
    /// so that the sum over thousands of apps cannot overflow.
    package static let maximumFootprint = 1 << 40

    /// A footprint clamped to `0...maximumFootprint`.
    package static func clampedFootprint(_ bytes: Int) -> Int {
        min(max(0, bytes), maximumFootprint)
    }

    package mutating func setFootprint(_ bytes: Int, app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard records[s].state != .notRunning else { return [] }
        let footprint = Self.clampedFootprint(bytes)
        memoryInUse += footprint - records[s].footprint
        records[s].footprint = footprint
        return relieveMemoryPressure(at: now)
    }

    package mutating func setMemoryCapacity(_ bytes: Int?, at now: BudgetInstant) -> [Effect] {
        let capacity = bytes.map { max(0, $0) }
        if capacity != memoryCapacity { recordDevice(.memoryCapacity(capacity), now) }
        memoryCapacity = capacity
        return relieveMemoryPressure(at: now)
    }

    /// Frees memory until the apps fit: purges, then warnings, then kills.
    package mutating func relieveMemoryPressure(at now: BudgetInstant) -> [Effect] {
        guard let capacity = memoryCapacity, memoryInUse > capacity else {
            // The episode ends only when no warning is still being handled.
            if pendingMemoryWarnings == 0 { warnedThisEpisode = false }
            return []
        }
        var effects: [Effect] = []
        // 1. Suspended apps, silently: largest first, least recently used among equals. Usually one or
        // two purges suffice, so each victim is found by a linear scan rather than a sort.
        while memoryInUse > capacity, let victim = records.indices.filter({ records[$0].state == .suspended }).min(by: { a, b in
            (-records[a].footprint, records[a].lastUsed.nanoseconds) < (-records[b].footprint, records[b].lastUsed.nanoseconds)
        }) {
            effects += applyValid(.purge, to: records[victim].manifest.id, at: now, invariant: "a suspended app can be purged")
        }
        guard memoryInUse > capacity else {
            // Purging alone ended the episode.
            if pendingMemoryWarnings == 0 { warnedThisEpisode = false }
            return effects
        }
        // 2. A memory warning to every running app, once per episode; wait for them to handle it.
        if !warnedThisEpisode {
            warnedThisEpisode = true
            for s in records.indices where records[s].state.isExecuting && records[s].pendingExit == nil
                && !records[s].memoryWarningInFlight {
                let app = records[s].manifest.id
                records[s].memoryWarningInFlight = true
                records[s].inFlight += 1
                pendingMemoryWarnings += 1
                record(.callback(.didReceiveMemoryWarning), app, now)
                effects.append(.memoryWarning(app, incarnation: records[s].incarnation))
            }
            if pendingMemoryWarnings > 0 { return effects }
        }
        guard pendingMemoryWarnings == 0 else { return effects }
        // 3. Kill running apps from the lowest band up, the foreground app last.
        func killOrder(_ s: Int) -> (Int, Int, Int, Int64) {
            (records[s].state.isForeground ? 1 : 0, jetsamBand(of: records[s]).rawValue, -records[s].footprint, records[s].lastUsed.nanoseconds)
        }
        while memoryInUse > capacity,
              let victim = records.indices.filter({ records[$0].state.isExecuting }).min(by: { killOrder($0) < killOrder($1) }) {
            effects += applyValid(.kill(.memoryPressure), to: records[victim].manifest.id, at: now,
                                  invariant: "an executing app can be killed")
        }
        if memoryInUse <= capacity, pendingMemoryWarnings == 0 { warnedThisEpisode = false }
        return effects
    }

    /// Called once an app has handled its memory warning: when every warned app has, pressure is
    /// evaluated again and apps are killed if the warnings were not enough.
    package mutating func memoryWarningHandled(app: AppID, incarnation: UInt64, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard records[s].incarnation == incarnation, records[s].memoryWarningInFlight else { return [] }
        records[s].memoryWarningInFlight = false
        pendingMemoryWarnings -= 1
        var effects = settle(app, incarnation: incarnation, at: now)
        if pendingMemoryWarnings == 0 { effects += relieveMemoryPressure(at: now) }
        return effects
    }

    // MARK: Notifications

    /// Posts a notification to every app in memory: delivered now to running apps, coalesced for
    /// suspended ones.
    package mutating func post(_ notification: SystemNotification, at now: BudgetInstant) -> [Effect] {
        records.indices.flatMap { post(notification, toSlot: $0, at: now) }
    }

    /// Posts a notification to one app: delivered now if it runs, coalesced if it is suspended,
    /// nothing if it is not running.
    package mutating func post(_ notification: SystemNotification, toSlot s: Int, at now: BudgetInstant) -> [Effect] {
        let app = records[s].manifest.id
        switch records[s].state {
        case .notRunning:
            return []
        case .suspended:
            if let index = records[s].queuedNotifications.firstIndex(where: { $0.kind == notification.kind }) {
                records[s].queuedNotifications[index] = notification
            } else {
                records[s].queuedNotifications.append(notification)
            }
            record(.notificationQueued(notification), app, now)
            return []
        case .inactive, .active, .background:
            guard records[s].pendingExit == nil else { return [] }
            records[s].inFlight += 1
            record(.notificationDelivered(notification), app, now)
            return [.deliverNotification(app, incarnation: records[s].incarnation, notification)]
        }
    }
}
