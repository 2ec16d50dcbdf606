import BudgetTime

/// Legacy background fetch: the system, not the app, decides when; the app has
/// ``BudgetPolicy/fetchRuntime`` (30 s) to call its completion handler or it is terminated
/// (`0x2182bad4`) [S40][S22]. Apps with `BGTaskSchedulerPermittedIdentifiers` get no legacy fetches
/// [S44]; Background App Refresh off or a user kill skips them [S62][S86].
extension DeviceCore {
    /// What keeps the system from planning fetches for the app at all, in a fixed order.
    private func planBlockers(_ s: Int) -> [FetchBlocker] {
        let manifest = records[s].manifest
        var blockers: [FetchBlocker] = []
        if !manifest.backgroundModes.contains(.fetch) { blockers.append(.fetchModeMissing) }
        if !manifest.permittedTaskIdentifiers.isEmpty { blockers.append(.usesTaskScheduler) }
        if let gate = exitsOnSuspendGate(slot: s) { blockers.append(FetchBlocker(gate)) }
        if records[s].fetch.interval == .never { blockers.append(.intervalNever) }
        return blockers
    }

    /// Whether the system plans fetches for the app at all.
    private func fetchesPlanned(_ s: Int) -> Bool { planBlockers(s).isEmpty }

    /// What skips a planned opportunity now, in the order an opportunity checks it: the Background App
    /// Refresh gates, a critically low battery, the user-kill gate, the app on screen, a fetch running.
    private func opportunityBlockers(_ s: Int) -> [FetchBlocker] {
        var blockers = discretionaryGates(slot: s).map(FetchBlocker.init)
        if let gate = userKillGate(slot: s, for: .content) { blockers.append(FetchBlocker(gate)) }
        if records[s].state.isForeground { blockers.append(.inForeground) }
        if records[s].running?.fetch != nil { blockers.append(.fetchInProgress) }
        return blockers
    }

    /// The app set its minimum background fetch interval: the plan starts again from now.
    package mutating func setFetchInterval(_ interval: BackgroundFetchInterval, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        records[s].fetch.setInterval(interval, at: now)
        return Decision(planFetch(app, at: now))
    }

    /// Arms the next fetch opportunity from the model, or disarms it when no fetch is planned.
    mutating func planFetch(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard fetchesPlanned(s) else {
            records[s].fetch.cancelPlan()
            return [disarm(.fetchOpportunity, for: app)]
        }
        let at = records[s].fetch.planNext(at: now, systemMinimum: policy.minimumFetchInterval)
        return [arm(.fetchOpportunity, for: app, at: at)]
    }

    /// A fetch opportunity: launch or wake the app and call its fetch method, or skip and plan the next.
    mutating func fetchOpportunity(_ app: AppID, at now: BudgetInstant) -> [Effect] {
        let s = slot(app)
        guard fetchesPlanned(s) else { return [] }
        if let skip = opportunityBlockers(s).first.flatMap(FetchSkipReason.init) {
            record(.fetchSkipped(skip), app, now)
            records[s].fetch.skipped(at: now)
            return planFetch(app, at: now)
        }
        var effects: [Effect] = []
        switch records[s].state {
        case .notRunning:
            effects += applyValid(.launchInBackground(.backgroundFetch), to: app, at: now,
                                  invariant: "fetches are planned only for apps that do not exit on suspend")
        case .suspended:
            effects += applyValid(.wake(.backgroundFetch), to: app, at: now, invariant: "a suspended app can be woken")
        case .background, .inactive, .active: break
        }
        guard records[s].state == .background else { return effects }
        lastFetchNumber += 1
        let fetch = RunningFetch(number: lastFetchNumber, started: now)
        records[s].fetch.start(at: now)
        records[s].process.modify { $0.fetch = fetch }
        let incarnation = records[s].handOff()
        record(.fetchStarted, app, now)
        effects.append(arm(.fetchDeadline, for: app, at: now + policy.fetchRuntime))
        effects.append(.performFetch(app, incarnation: incarnation, fetch: lastFetchNumber))
        return effects
    }

    /// The app called its fetch completion handler. A second call, or a call for a fetch that already
    /// ended (the app was killed), is recorded and ignored.
    package mutating func fetchCompleted(_ fetch: UInt64, result: BackgroundFetchResult, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].fetch.complete(fetch, of: records[s].running?.fetch, result: result, runtime: policy.fetchRuntime, at: now) else {
            record(.fetchCompletionIgnored(result), app, now)
            return []
        }
        records[s].process.modify { $0.fetch = nil }
        records[s].finishedWork = .fetchCompleted
        record(.fetchCompleted(result), app, now)
        return Decision([disarm(.fetchDeadline, for: app)] + planFetch(app, at: now)
            + suspendIfIdle(app, at: now, reason: .fetchCompleted))
    }

    /// Why the app gets no background fetch now: every condition not met, in a fixed order.
    package func explainFetch(_ app: AppID, at now: BudgetInstant) -> FetchExplanation {
        let s = slot(app)
        let record = records[s]
        var blockers = planBlockers(s) + opportunityBlockers(s)
        let planned = fetchesPlanned(s) ? record.fetch.nextAt : nil
        if let planned, planned > now { blockers.append(.notBefore(planned)) }
        if planned != nil, record.fetch.model.factor > 1 { blockers.append(.throttled(factor: record.fetch.model.factor)) }
        return FetchExplanation(app: app, nextOpportunity: planned, blockers: blockers)
    }
}
