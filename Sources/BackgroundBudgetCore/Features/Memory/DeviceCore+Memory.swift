import BudgetTime

/// Memory pressure and jetsam.
///
/// Rules: when the apps in memory need more than the device has, suspended apps
/// are purged first, silently [S71], in the order ``BudgetPolicy/jetsamOrderWithinBand`` says (largest
/// footprint first by default, a model assumption; least recently used first is xnu's order [S101]);
/// if that is not enough, running apps get a memory warning and a chance to shrink; then running
/// background apps are killed from the lowest jetsam band up [S72], the foreground app last.
extension DeviceCore {
    /// The bytes the apps in memory use together, recomputed from scratch (for checks; the core keeps
    /// ``MemoryPressureState/inUse`` up to date as apps launch, exit and change their footprints).
    var memoryInUseRecomputed: Int {
        records.reduce(0) { $0 + ($1.isRunning ? $1.memory.footprint : 0) }
    }

    /// The app memory pressure would purge first, found by scanning every app: what ``purgeOrder``
    /// keeps at hand (for checks).
    package var purgeVictimRecomputed: Int? {
        let order = policy.jetsamOrderWithinBand
        return records.indices.filter { records[$0].state == .suspended }.min { a, b in
            records[a].memory.purgeRank(order) < records[b].memory.purgeRank(order)
        }
    }

    /// An app's state, footprint or last use changed: its place among the purge candidates follows.
    /// - Complexity: O(log n).
    mutating func purgeOrderChanged(_ s: Int) {
        let rank = records[s].state == .suspended ? records[s].memory.purgeRank(policy.jetsamOrderWithinBand) : nil
        purgeOrder.set(s, rank: rank)
    }

    /// The jetsam band an app is in now.
    package func jetsamBand(of record: AppRecord) -> JetsamBand {
        record.jetsamBand
    }

    /// The largest footprint the model accepts, 2⁴⁰ bytes (about 1.1 TB): larger values are clamped
    /// so that the sum over thousands of apps cannot overflow.
    static let maximumFootprint = 1 << 40

    /// A footprint clamped to `0...maximumFootprint`.
    static func clampedFootprint(_ bytes: Int) -> Int {
        min(max(0, bytes), maximumFootprint)
    }

    /// The app's footprint changed: pressure is relieved if the apps no longer fit.
    package mutating func setFootprint(_ bytes: Int, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].isRunning else { return [] }
        memory.inUse += records[s].memory.setFootprint(bytes)
        purgeOrderChanged(s)
        return Decision(relieveMemoryPressure(at: now))
    }

    /// The device's capacity changed (`nil` for no limit): pressure is relieved if the apps no longer fit.
    package mutating func setMemoryCapacity(_ bytes: Int?, at now: BudgetInstant) -> Decision<Void> {
        if memory.setCapacity(bytes) { recordDevice(.memoryCapacity(memory.capacity), now) }
        return Decision(relieveMemoryPressure(at: now))
    }

    /// Frees memory until the apps fit: purges, then warnings, then kills.
    mutating func relieveMemoryPressure(at now: BudgetInstant) -> [Effect] {
        guard let capacity = memory.capacity, memory.inUse > capacity else {
            // The episode ends only when no warning is still being handled.
            memory.endEpisodeIfSettled()
            return []
        }
        var effects: [Effect] = []
        // 1. Suspended apps, silently, in the policy's order within the band (then install order),
        // which `purgeOrder` keeps: each victim costs O(log n), whatever the number of apps.
        while memory.inUse > capacity, let victim = purgeOrder.first {
            effects += applyValid(.purge, to: records[victim].manifest.id, at: now, invariant: "a suspended app can be purged")
        }
        guard memory.inUse > capacity else {
            // Purging alone ended the episode.
            memory.endEpisodeIfSettled()
            return effects
        }
        // 2. A memory warning to every running app, once per episode; wait for them to handle it.
        if memory.beginWarnings() {
            for s in records.indices where records[s].state.isExecuting && !records[s].isTerminating {
                guard records[s].process.modify({ $0.memory.warningSent() }) == true else { continue }
                let app = records[s].manifest.id
                let incarnation = records[s].handOff()
                memory.pendingWarnings += 1
                // Traced when the app's queue starts the callback, as every callback is (see
                // `HeldSteps`): behind what the queue already holds, never before it.
                let warning = TraceEvent(time: now, app: app, kind: .callback(.didReceiveMemoryWarning))
                records[s].process.modify { $0.heldSteps.append(HeldSteps(entries: [warning], callback: .app(.didReceiveMemoryWarning))) }
                effects.append(.memoryWarning(app, incarnation: incarnation))
            }
            if memory.pendingWarnings > 0 { return effects }
        }
        guard memory.pendingWarnings == 0 else { return effects }
        // 3. Kill running apps from the lowest band up, the foreground app last.
        func killOrder(_ s: Int) -> (Int, Int, Int, Int64) {
            (records[s].state.isForeground ? 1 : 0, records[s].jetsamBand.rawValue, -records[s].memory.footprint, records[s].memory.lastUsed.nanoseconds)
        }
        while memory.inUse > capacity,
              let victim = records.indices.filter({ records[$0].state.isExecuting }).min(by: { killOrder($0) < killOrder($1) }) {
            effects += applyValid(.kill(.memoryPressure), to: records[victim].manifest.id, at: now,
                                  invariant: "an executing app can be killed")
        }
        if memory.inUse <= capacity { memory.endEpisodeIfSettled() }
        return effects
    }

    /// Called once an app has handled its memory warning: when every warned app has, pressure is
    /// evaluated again and apps are killed if the warnings were not enough.
    package mutating func memoryWarningHandled(app: AppID, incarnation: UInt64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].incarnation == incarnation, records[s].process.modify({ $0.memory.warningSettled() }) == true else { return [] }
        memory.warningSettled()
        var effects = settle(app, incarnation: incarnation, at: now).effects
        if memory.pendingWarnings == 0 { effects += relieveMemoryPressure(at: now) }
        return Decision(effects)
    }
}
