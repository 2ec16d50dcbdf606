import BudgetClock

/// What the core keeps per app and per finite task: values only (the shell keeps the app's closures).
extension DeviceCore {
    package struct OpenTask: Sendable {
        package var name: String?
        package var begunAt: BudgetInstant
        package var handlerCalled = false
        package var overrunReported = false
    }

    package struct AppRecord: Sendable {
        package var manifest: AppManifest
        package var state: ApplicationState = .notRunning
        /// Counts launches; timers and queued work of an earlier incarnation are ignored.
        package var incarnation: UInt64 = 0
        /// Deliveries and handler batches handed to the app's queue and not yet settled.
        package var inFlight = 0
        /// Set while `applicationWillTerminate` runs: the exit follows when it returns.
        package var pendingExit: TerminationReason?
        /// Open finite tasks by identifier number (numbers increase in begin order).
        package var tasks: [UInt64: OpenTask] = [:]
        package var nextTaskNumber: UInt64 = 1
        /// When the current background period began, while the app is in the background.
        package var backgroundSince: BudgetInstant?
        /// Allowance spent in earlier background periods that has not been reset.
        package var spentBefore: Duration = .zero
        /// Whether the allowance has been announced in the trace for this background period.
        package var allowanceAnnounced = false
        /// Whether tasks were used in this background period (for the suspension reason).
        package var usedTasksThisPeriod = false
        /// Open tasks whose expiration handler has not been called.
        package var unwarnedTasks = 0
        /// The instants of the armed allowance and overrun timers (to avoid re-arming unchanged ones).
        package var armed = ArmedTimers()
        /// Continuous activities running with their mode declared: each keeps a background app running.
        package var activities: Set<BackgroundActivity> = []
        /// The end of the short run time granted for a background event, while one is granted.
        package var windowUntil: BudgetInstant?
        /// Significant-change monitoring survives termination, as Core Location's does.
        package var monitorsSignificantChanges = false
        /// Monitored regions survive termination too.
        package var monitoredRegions: Set<String> = []
        /// Set when the user kills the app from the app switcher; cleared when the user opens it.
        package var killedByUser = false
        /// The legacy VoIP keep-alive interval, while a handler is installed (the shell keeps the
        /// handler); not kept across launches.
        package var keepAliveInterval: Duration?
        /// Events held until the app next runs (delivered without the mode's background permission).
        package var queuedEvents: [BackgroundEvent] = []
        /// When recent silent pushes were delivered, for throttling.
        package var silentPushTimes: [BudgetInstant] = []
        /// VoIP pushes delivered and not yet handled, and the calls reported for them: each push
        /// handled takes one report, or the app is killed.
        package var voipPushesInFlight = 0
        package var callsReported = 0
        /// The last suspension, for explanations.
        package var lastSuspension: (time: BudgetInstant, reason: SuspensionReason)?
        /// The app's memory footprint in bytes while it is in memory.
        package var footprint = 0
        /// When the app last entered or left the foreground (least recently used apps go first).
        package var lastUsed = BudgetInstant.zero
        /// Whether a memory warning is being handled on the app's queue.
        package var memoryWarningInFlight = false
        /// Notifications queued while suspended, one per kind, in the order the kinds first arrived.
        package var queuedNotifications: [SystemNotification] = []
        /// Whether the app shows in the app switcher: the user opened it and has not swiped it away.
        package var inAppSwitcher = false
        /// The token of each armed timer; a firing with another token is stale.
        package var timerTokens: [AppTimer: UInt64] = [:]
        /// The app's own Background App Refresh switch.
        package var backgroundAppRefresh = true
        /// The app's requested fetch interval (the system remembers it across launches).
        package var fetchInterval = BackgroundFetchInterval.never
        /// The fetch model: when the next fetch may come.
        package var fetchModel = FetchModel(seed: 0)
        /// The running fetch: its number and when it started.
        package var fetch: (number: UInt64, started: BudgetInstant)?
        /// When the last fetch ended (or the interval was set).
        package var lastFetchEnd: BudgetInstant?
        /// The next fetch opportunity, while one is planned.
        package var nextFetchAt: BudgetInstant?
        /// What the app last finished in the background, for the reason of the suspension that follows.
        package var finishedWork: SuspensionReason?
        /// The identifiers `BGTaskScheduler` launch handlers are registered for in this process (the
        /// shell keeps the handlers by identifier).
        package var registeredTaskIdentifiers: Set<String> = []
        /// Submitted requests not yet run, in submission order (the system keeps them across launches).
        package var pendingTaskRequests: [PendingTaskRequest] = []
        /// Where the request timer is armed, if it is.
        package var taskRequestTimerAt: BudgetInstant?
        /// Running `BGTaskScheduler` tasks by number; each holds the app in the background.
        package var runningTasks: [UInt64: RunningScheduledTask] = [:]
    }

    /// The allowance and overrun timers an app has armed.
    package struct ArmedTimers: Equatable, Sendable {
        package var warning: BudgetInstant?
        package var expiry: BudgetInstant?
        package var overrun: BudgetInstant?
    }
}
