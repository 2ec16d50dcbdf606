import BudgetTime

/// Reading `backgroundTimeRemaining` as an input: the core computes the value from its own state
/// (`allowanceRemaining(_:at:)`) and records what the app read, so a trace shows the
/// remaining time at the instants the app looked at it.
extension DeviceCore {
    /// The app read its remaining background time: records
    /// ``TraceEvent/Kind/backgroundTimeRemainingRead(_:)`` and returns the value.
    /// - Returns: Time left in the current allowance (no effect): `nil` in the foreground
    ///   (unbounded), zero when the allowance is spent or the app is suspended or not running.
    package mutating func readBackgroundTimeRemaining(_ app: AppID, at now: BudgetInstant) -> Decision<Duration?> {
        let remaining = allowanceRemaining(app, at: now)
        record(.backgroundTimeRemainingRead(remaining), app, now)
        return Decision(remaining, effects: [])
    }
}

/// Reading a scene session's state restoration activity: the value is the shell's (the core does not
/// keep activities), the core records what the scene's code read, in order with its other decisions.
extension DeviceCore {
    /// A scene's code read its session's `stateRestorationActivity`: records
    /// ``TraceEvent/Kind/restorationActivityRead(activityType:scene:)``.
    package mutating func readRestorationActivity(_ activityType: String?, scene: SceneID, of app: AppID,
                                                  at now: BudgetInstant) -> Decision<Void> {
        record(.restorationActivityRead(activityType: activityType, scene: scene), app, now)
        return []
    }
}
