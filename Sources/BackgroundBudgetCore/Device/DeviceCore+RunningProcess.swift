import BudgetTime

extension DeviceCore {
    /// What only means something while the app's process runs: the record holds it as one value
    /// (``AppRecord/process``), made when the process launches and dropped, whole, when it ends, so a
    /// process that is not running cannot carry a pending exit, a running callback, a deadline or a lock.
    package struct RunningProcess: Sendable {
        /// Deliveries and handler batches handed to the app's queue and not yet settled.
        package internal(set) var inFlight = 0
        /// The delegate callback running on the app's queue (between `callbackStarted` and
        /// `callbackReturned`), if any: an exit meanwhile is recorded as `killedMidCallback`.
        var runningCallback: AppCallback?
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

        /// A process just launched: nothing in flight, no callback, no deadline, no lock, no held step.
        init() {}

        /// Whether a launch or resume watchdog deadline is set.
        var hasDeadline: Bool { launchDeadline != nil || resumeDeadline != nil }

        /// The launch or resume ended: neither watchdog deadline applies any more.
        mutating func clearDeadlines() { (launchDeadline, resumeDeadline) = (nil, nil) }
    }
}

extension DeviceCore.AppRecord {
    /// The running process, for a change that only happens while one runs. Traps, naming the
    /// invariant, when the app is not running: process data without a process is a bug of the core.
    var running: DeviceCore.RunningProcess {
        get {
            guard let process else { Self.processRequired() }
            return process
        }
        set {
            guard process != nil else { Self.processRequired() }
            process = newValue
        }
    }

    /// Whether the process is terminating (`applicationWillTerminate` runs; the exit follows).
    var isTerminating: Bool { process?.pendingExit != nil }

    /// Deliveries and handler batches not yet settled (none without a process).
    package var inFlight: Int { process?.inFlight ?? 0 }

    /// Entries the process's queue has not reached yet (none without a process).
    package var heldSteps: HeldStepQueue { process?.heldSteps ?? [] }

    /// The file locks the process holds (none without a process).
    package var heldFileLocks: Set<String> { process?.heldFileLocks ?? [] }

    private static func processRequired() -> Never {
        preconditionFailure("invariant processDataNeedsProcess: process data changed while the app is not running")
    }
}
