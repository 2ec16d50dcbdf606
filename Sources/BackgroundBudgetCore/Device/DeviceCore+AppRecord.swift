import BudgetTime

/// What the core keeps per app: values only (the shell keeps the app's closures).
extension DeviceCore {
    /// One installed app: what outlives its process (its manifest, its launch count, the user's marks,
    /// the timers armed, and each feature's state the system keeps across launches, in its own value:
    /// ``FiniteTaskState``, ``ModeState``, ``FetchState``, ``TaskRequestState``, ``MemoryState``,
    /// ``NotificationState``, ``SceneSet``), beside its process (``AppProcess``), which holds the app's
    /// state and each feature's process-scoped part (see ``RunningProcess``). The rules of each feature
    /// live with its values.
    package struct AppRecord: Sendable {
        /// What the app declares (its Info.plist).
        package private(set) var manifest: AppManifest
        /// Counts launches; timers and queued work of an earlier incarnation are ignored.
        package internal(set) var incarnation: UInt64 = 0
        /// The app's process: ``AppProcess/notRunning``, or running with its state and what only
        /// means something while it runs. Made when the process launches, dropped whole when it ends;
        /// the app's authoritative state (``state``) is read from it.
        package internal(set) var process: AppProcess = .notRunning
        /// The last suspension, for explanations.
        var lastSuspension: (time: BudgetInstant, reason: SuspensionReason)?
        /// Set when the user kills the app from the app switcher; cleared when the user opens it.
        var killedByUser = false
        /// Whether the app shows in the app switcher: the user opened it and has not swiped it away.
        package internal(set) var inAppSwitcher = false
        /// The token of each armed timer; a firing with another token is stale.
        package internal(set) var timerTokens: [AppTimer: UInt64] = [:]
        /// The app's own Background App Refresh switch.
        package internal(set) var backgroundAppRefresh = true
        /// What the app last finished in the background, for the reason of the suspension that follows.
        var finishedWork: SuspensionReason?

        /// The finite-task allowance and the task numbers handed out (the open tasks are the process's).
        package internal(set) var finiteTasks = FiniteTaskState()
        /// Location monitoring, events held until the app runs, VoIP pushes left unreported (the
        /// activities, event window and keep-alive are the process's).
        package internal(set) var modes = ModeState()
        /// The legacy fetch interval, model and plan (the fetch running is the process's).
        package internal(set) var fetch = FetchState()
        /// `BGTaskScheduler` pending requests (registrations and running tasks are the process's).
        package internal(set) var taskRequests = TaskRequestState()
        /// Memory footprint and last use (a warning being handled is the process's).
        package internal(set) var memory = MemoryState()
        /// Silent-push throttling (notifications coalesced while suspended are the process's).
        package internal(set) var notifications = NotificationState()
        /// A scene-based app's scenes and sessions (empty for an app-delegate-only app).
        package internal(set) var scenes = SceneSet()

        /// A newly installed app: not running, every feature's state empty.
        package init(manifest: AppManifest) {
            self.manifest = manifest
        }

        /// Counts a delivery or handler batch handed to the app's queue (it holds the app until it
        /// settles) and returns the incarnation it belongs to.
        mutating func handOff() -> UInt64 {
            process.modify { $0.inFlight += 1 }
            return incarnation
        }

        /// Whether nothing keeps the app running in the background: no code on its queue, no fetch,
        /// no `BGTaskScheduler` task, no pending termination, no finite task, no activity (an event
        /// window is checked on its own, as it may have elapsed).
        var isIdleInBackground: Bool {
            isIdleInBackgroundButForCode && running?.codeRunning == 0
        }

        /// ``isIdleInBackground``, whether or not app code is running now.
        var isIdleInBackgroundButForCode: Bool {
            guard let process = running, process.state == .background else { return false }
            return process.inFlight == 0 && process.fetch == nil && process.taskRequests.running.isEmpty
                && process.pendingExit == nil && process.finiteTasks.open.isEmpty && process.modes.activities.isEmpty
        }

        /// The jetsam band the app is in now [S72].
        package var jetsamBand: JetsamBand {
            switch state {
            case .suspended, .notRunning: .idle
            case .inactive, .active: .foreground
            case .background: running?.modes.activities.contains(.audioPlayback) == true ? .audioAndAccessory : .background
            }
        }

        /// The process ended: one assignment drops it, and with it everything only it held (its state,
        /// its open tasks, activities, window, handlers, registrations, running tasks, coalesced
        /// notifications, a memory warning being handled); what the system keeps across launches
        /// (monitoring, queued events, pending requests, the fetch plan, the allowance spent) stays.
        /// - Returns: Whether a fetch was cut short (its opportunity is used up, and the plan goes on
        ///   from `now`), and whether a memory warning was being handled.
        mutating func processEnded(at now: BudgetInstant) -> (fetchCutShort: Bool, memoryWarningDropped: Bool) {
            guard case .running(let ended) = process else { return (false, false) }
            process = .notRunning
            return (fetch.processEnded(during: ended.fetch, at: now), ended.memory.warningInFlight)
        }
    }
}
