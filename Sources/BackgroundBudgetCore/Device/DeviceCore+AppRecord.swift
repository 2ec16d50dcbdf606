import BudgetClock

/// What the core keeps per app: values only (the shell keeps the app's closures).
extension DeviceCore {
    /// One installed app: its lifecycle, and each feature's state in its own value
    /// (``FiniteTaskState``, ``ModeState``, ``FetchState``, ``TaskRequestState``, ``MemoryState``,
    /// ``NotificationState``), whose rules live with it.
    package struct AppRecord: Sendable {
        package var manifest: AppManifest
        package var state: ApplicationState = .notRunning
        /// Counts launches; timers and queued work of an earlier incarnation are ignored.
        package var incarnation: UInt64 = 0
        /// Deliveries and handler batches handed to the app's queue and not yet settled.
        package var inFlight = 0
        /// Set while `applicationWillTerminate` runs: the exit follows when it returns.
        package var pendingExit: TerminationReason?
        /// The last suspension, for explanations.
        package var lastSuspension: (time: BudgetInstant, reason: SuspensionReason)?
        /// Set when the user kills the app from the app switcher; cleared when the user opens it.
        package var killedByUser = false
        /// Whether the app shows in the app switcher: the user opened it and has not swiped it away.
        package var inAppSwitcher = false
        /// The token of each armed timer; a firing with another token is stale.
        package var timerTokens: [AppTimer: UInt64] = [:]
        /// The app's own Background App Refresh switch.
        package var backgroundAppRefresh = true
        /// What the app last finished in the background, for the reason of the suspension that follows.
        package var finishedWork: SuspensionReason?

        /// Finite background tasks and their allowance.
        package var finiteTasks = FiniteTaskState()
        /// Background modes at work: activities, event windows, monitoring, VoIP.
        package var modes = ModeState()
        /// Legacy background fetch.
        package var fetch = FetchState()
        /// `BGTaskScheduler` registrations, pending requests and running tasks.
        package var taskRequests = TaskRequestState()
        /// Memory footprint, last use and memory warnings.
        package var memory = MemoryState()
        /// Notifications coalesced while suspended, and silent-push throttling.
        package var notifications = NotificationState()

        /// A newly installed app: not running, every feature's state empty.
        package init(manifest: AppManifest) {
            self.manifest = manifest
        }
    }
}
