import BudgetTime

extension DeviceCore {
    /// What holds the app in its state now, its last suspension, and what keeps it from being
    /// relaunched in the background, and which rule applied to its `UIApplicationExitsOnSuspend` flag.
    package func explain(_ app: AppID, at now: BudgetInstant) -> Explanation {
        let record = records[slot(app)]
        var holds: [Explanation.Hold] = []
        if record.state.isForeground { holds.append(.foreground) }
        if record.state.isExecuting, let process = record.running {
            if record.isTerminating { holds.append(.terminating) }
            if !process.finiteTasks.open.isEmpty {
                holds.append(.backgroundTasks(count: process.finiteTasks.open.count,
                                              allowanceEndsAt: record.state == .background ? process.finiteTasks.armed.expiry : nil))
            }
            holds += BackgroundActivity.allCases.filter(process.modes.activities.contains).map(Explanation.Hold.activity)
            if let until = process.modes.windowUntil, until > now { holds.append(.eventWindow(until: until)) }
            holds += process.taskRequests.running.sorted { $0.key < $1.key }.map { .scheduledTask($0.value.identifier) }
            if record.inFlight > 0 { holds.append(.codeRunning) }
        }
        var blockers: [Explanation.RelaunchBlocker] = []
        if !record.isRunning {
            let s = slot(app)
            let locationMonitoring = record.modes.monitorsLocation
            if exitsOnSuspendGate(slot: s) != nil { blockers.append(.exitsOnSuspend) }
            // Location events relaunch after a user kill as the policy says; nothing else does.
            if userKillGate(slot: s, for: locationMonitoring ? .location : .content) != nil { blockers.append(.killedByUser) }
            if record.manifest.backgroundModes.isEmpty, !locationMonitoring { blockers.append(.nothingToRelaunchFor) }
        }
        let exitsRule: Explanation.ExitsOnSuspendRule? = !record.manifest.exitsOnSuspend ? nil
            : policy.honoursExitsOnSuspend ? .honouredByPolicy : .ignoredByPolicy
        return Explanation(app: app, state: record.state, holds: holds, lastSuspension: record.lastSuspension,
                           relaunchBlockers: blockers, exitsOnSuspend: exitsRule, heldFileLocks: record.heldFileLocks.sorted())
    }
}
