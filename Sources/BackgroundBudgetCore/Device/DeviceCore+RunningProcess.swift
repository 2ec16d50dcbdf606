import BudgetTime

extension DeviceCore {
    /// An app's process, as one value: not running, or running with everything that only means
    /// something while it runs. The app's ``ApplicationState`` is read from it
    /// (``AppRecord/state``), so the state and the process cannot disagree, and a process ends with
    /// one assignment (`process = .notRunning`) that drops all of it.
    package enum AppProcess: Sendable {
        /// No process: the app is not running.
        case notRunning
        /// The running process.
        case running(RunningProcess)

        /// The running process; `nil` when the app is not running.
        package var running: RunningProcess? {
            if case .running(let process) = self { process } else { nil }
        }

        /// Changes the running process in place and returns what `body` returns; `nil`, with nothing
        /// changed, when the app is not running. The process is moved out while `body` runs, so a
        /// change to its tables copies none of them.
        @discardableResult
        mutating func modify<Value>(_ body: (inout RunningProcess) -> Value) -> Value? {
            guard case .running(var process) = self else { return nil }
            self = .notRunning
            defer { self = .running(process) }
            return body(&process)
        }
    }

    /// What only means something while the app's process runs: the record holds it as
    /// ``AppProcess/running(_:)``, made when the process launches and dropped, whole, when it ends, so a
    /// process that is not running cannot carry a state, a pending exit, a running callback, a deadline
    /// or a lock.
    package struct RunningProcess: Sendable {
        /// The app's state while its process runs: never ``ApplicationState/notRunning``, which is the
        /// absence of a process.
        package internal(set) var state: ApplicationState
        /// Deliveries and handler batches handed to the app's queue and not yet settled.
        package internal(set) var inFlight = 0
        /// Pieces of the app's code running now on its queues (``DeviceCore/appCodeStarted(_:)``): a
        /// suspension waits until they have returned.
        package internal(set) var codeRunning = 0
        /// The delegate callback running on the app's queue (between `callbackStarted` and
        /// `callbackReturned`), if any: an exit meanwhile is recorded as `killedMidCallback`.
        var runningCallback: AppCallback?
        /// The scene delegate callback running on the app's queue (between `sceneCallbackStarted` and
        /// `sceneCallbackReturned`), if any: an exit meanwhile is recorded as `killedMidSceneCallback`.
        var runningSceneCallback: DeviceCore.CallbackKey?
        /// Set while `applicationWillTerminate` runs: the exit follows when it returns.
        var pendingExit: TerminationReason?
        /// While the app launches: when the launch watchdog kills it (``BudgetPolicy/launchWatchdog``
        /// after `willFinishLaunching` started); `nil` once its first activation or background entry
        /// returned.
        var launchDeadline: BudgetInstant?
        /// While the app resumes: when the resume watchdog kills it (``BudgetPolicy/resumeWatchdog``
        /// after `willEnterForeground` started); `nil` once `didBecomeActive` returned.
        var resumeDeadline: BudgetInstant?
        /// The file locks the process holds (paths): suspended while it holds one, it is killed
        /// (`0xdead10cc`) [S22].
        package internal(set) var heldFileLocks: Set<String> = []
        /// Entries of delivered steps the app's queue has not reached yet, in queue order: the queue is
        /// the process's, so they go with it (steps it never reached never appear in the trace).
        package internal(set) var heldSteps: HeldStepQueue = []
        /// The finite background tasks open and the timers they call for.
        package internal(set) var finiteTasks = FiniteTaskState.Running()
        /// Background modes at work: activities, the event window, the VoIP keep-alive and pushes.
        package internal(set) var modes = ModeState.Running()
        /// The `BGTaskScheduler` launch handlers registered, the tasks running and their allotment.
        package internal(set) var taskRequests = TaskRequestState.Running()
        /// The legacy background fetch running, if one is.
        package internal(set) var fetch: RunningFetch?
        /// Notifications coalesced while suspended, and a silent push awaiting completion.
        package internal(set) var notifications = NotificationState.Running()
        /// Whether a memory warning is being handled.
        package internal(set) var memory = MemoryState.Running()

        /// A process just launched into `state`: nothing in flight, no callback, no deadline, no lock,
        /// no held step.
        init(state: ApplicationState) {
            precondition(state != .notRunning, "a running process is in a running state")
            self.state = state
        }

        /// Whether a launch or resume watchdog deadline is set.
        var hasDeadline: Bool { launchDeadline != nil || resumeDeadline != nil }

        /// Takes the pending exit, if one waits for `applicationWillTerminate` to return.
        mutating func takePendingExit() -> TerminationReason? {
            defer { pendingExit = nil }
            return pendingExit
        }

        /// The launch or resume ended: neither watchdog deadline applies any more. Returns whether one
        /// was set.
        @discardableResult
        mutating func clearDeadlines() -> Bool {
            defer { (launchDeadline, resumeDeadline) = (nil, nil) }
            return hasDeadline
        }

        /// The launch ended without an activation: its deadline no longer applies. Returns whether it
        /// was set.
        mutating func endLaunch() -> Bool {
            defer { launchDeadline = nil }
            return launchDeadline != nil
        }
    }
}

extension DeviceCore.AppRecord {
    /// The app's state, read from its process: ``ApplicationState/notRunning`` without one.
    package var state: ApplicationState { process.running?.state ?? .notRunning }

    /// The running process; `nil` when the app is not running.
    package var running: DeviceCore.RunningProcess? { process.running }

    /// Whether the app's process runs.
    package var isRunning: Bool { if case .running = process { true } else { false } }

    /// Whether the process is terminating (`applicationWillTerminate` runs; the exit follows).
    var isTerminating: Bool { process.running?.pendingExit != nil }

    /// Deliveries and handler batches not yet settled (none without a process).
    package var inFlight: Int { process.running?.inFlight ?? 0 }

    /// Entries the process's queue has not reached yet (none without a process).
    package var heldSteps: HeldStepQueue { process.running?.heldSteps ?? [] }

    /// The file locks the process holds (none without a process).
    package var heldFileLocks: Set<String> { process.running?.heldFileLocks ?? [] }
}
