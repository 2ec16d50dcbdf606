import BackgroundBudgetCore

extension ExplorerInvariant {
    /// No process ends by the app's own doing: a crash or a kill for breaking a rule that no budget
    /// explains.
    ///
    /// Flags an exit for an uncaught exception (`BGTaskScheduler`'s `NSInternalInconsistencyException`
    /// for a launch handler registered after launch, or for a request submitted or launched without
    /// one), a task identifier registered twice, a VoIP push not reported to CallKit (`0xbaadca11`), a
    /// file lock held at suspension (`0xdead10cc`), or a launch refused for want of the scene life
    /// cycle. Does not flag an exit the app cannot prevent (``isBeyondTheAppsControl(_:)``: the user,
    /// memory, a reboot, the system), an exit at the end of a documented budget — the watchdog, the
    /// background-task allowance, a fetch's or refresh's runtime, the cap on open tasks, each watched by
    /// its own invariant — nor `UIApplicationExitsOnSuspend`, which the app asks for.
    public static let noSelfInflictedExit = ExplorerInvariant("noSelfInflictedExit", state: { EachEvent { event in
        guard case .stateChange(.notRunning, let cause) = event.kind, let reason = selfInflictedReason(cause) else { return nil }
        return "\(event.app)'s process ended by its own doing (\(reason))"
    } })

    /// The reason of an exit of the app's own doing, or `nil` for any other exit or event.
    /// - Parameter cause: The lifecycle event of a `stateChange` to `notRunning`.
    static func selfInflictedReason(_ cause: LifecycleEvent) -> TerminationReason? {
        guard !isBeyondTheAppsControl(cause) else { return nil }
        switch cause {
        case .kill(let reason), .terminate(let reason):
            switch reason {
            case .uncaughtException, .taskRegisteredTwice, .voipPushNotReported, .fileLockHeldAtSuspension, .sceneLifecycleRequired:
                return reason
            // A documented budget ran out: each has its own invariant.
            case .watchdog, .backgroundTaskExpired, .backgroundFetchNotCompleted, .tooManyBackgroundTasks: return nil
            // The app opts into it with its Info.plist.
            case .exitsOnSuspend: return nil
            case .memoryPressure, .userKill, .reboot, .system: return nil
            }
        default:
            return nil
        }
    }
}
