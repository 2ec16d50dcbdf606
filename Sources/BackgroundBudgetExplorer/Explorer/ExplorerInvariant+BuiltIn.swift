import BackgroundBudgetCore
import BudgetTime
import BackgroundBudgetRuntime

/// The built-in invariants. Each reads the trace event by event (``ExplorerInvariant/init(_:watching:)``).
extension ExplorerInvariant {
    /// No app is killed by a watchdog (`0x8badf00d`): a launch, a resume or a callback took too long.
    ///
    /// Flags a `kill` or `terminate` for `watchdog`. Does not flag any other exit.
    public static let noWatchdogKill = ExplorerInvariant("noWatchdogKill", state: { EachEvent { event in
        switch event.kind {
        case .stateChange(.notRunning, .kill(.watchdog)), .stateChange(.notRunning, .terminate(.watchdog)):
            "\(event.app) killed by the watchdog (0x8badf00d)"
        default: nil
        }
    } })

    /// No process ends while one of its finite background tasks is still open, for a reason the app
    /// could have prevented.
    ///
    /// Flags the kill when a task's allowance runs out (`0x2182bad2`), a watchdog kill or any other exit
    /// of the app's doing with a task open. Does not flag an exit the app cannot prevent
    /// (``isBeyondTheAppsControl(_:)``): a swipe from the app switcher or a reboot while an upload's
    /// task is rightly open is not a leak. ``noKillWithOpenTask(countingExitsTheAppCannotPrevent:)``
    /// with `true` counts those too.
    public static let noKillWithOpenTask = noKillWithOpenTask(countingExitsTheAppCannotPrevent: false)

    /// ``noKillWithOpenTask``, counting exits the app cannot prevent or not.
    /// - Parameter all: Whether a swipe from the app switcher, a reboot or a termination by the system
    ///   with a task open breaks the rule too.
    /// - Returns: The invariant, named `noKillWithOpenTask`.
    public static func noKillWithOpenTask(countingExitsTheAppCannotPrevent all: Bool) -> ExplorerInvariant {
        ExplorerInvariant("noKillWithOpenTask", state: { TaskWatch(counting: all, endedTwice: false) })
    }

    /// Every finite background task begun is ended exactly once: never twice, never left open when
    /// its process ends for a reason the app could have prevented.
    ///
    /// Flags `endBackgroundTask` called a second time for one task, and an exit of the app's doing with
    /// a task open. Does not flag an exit the app cannot prevent (``isBeyondTheAppsControl(_:)``);
    /// ``everyTaskEndsOnce(countingExitsTheAppCannotPrevent:)`` with `true` counts those too.
    public static let everyTaskEndsOnce = everyTaskEndsOnce(countingExitsTheAppCannotPrevent: false)

    /// ``everyTaskEndsOnce``, counting exits the app cannot prevent or not.
    /// - Parameter all: Whether an exit the app cannot prevent with a task open breaks the rule too.
    /// - Returns: The invariant, named `everyTaskEndsOnce`.
    public static func everyTaskEndsOnce(countingExitsTheAppCannotPrevent all: Bool) -> ExplorerInvariant {
        ExplorerInvariant("everyTaskEndsOnce", state: { TaskWatch(counting: all, endedTwice: true) })
    }

    /// Every `BGTaskScheduler` task that starts is completed by the app: before it expires, or from its
    /// expiration handler, and before its process ends for a reason the app could have prevented.
    ///
    /// Flags a task the system had to mark completed (`expiredUnfinished`: the app did not call
    /// `setTaskCompleted` in time after the expiration handler ran), and an exit of the app's doing while
    /// a task runs. Does not flag a task that expired and that the app then completed from its
    /// expiration handler (as Apple's sample does, cancelling its operation), nor an exit the app cannot
    /// prevent; ``scheduledTaskCompletes(countingExitsTheAppCannotPrevent:)`` with `true` counts those.
    public static let scheduledTaskCompletes = scheduledTaskCompletes(countingExitsTheAppCannotPrevent: false)

    /// ``scheduledTaskCompletes``, counting exits the app cannot prevent or not.
    /// - Parameter all: Whether an exit the app cannot prevent while a task runs breaks the rule too.
    /// - Returns: The invariant, named `scheduledTaskCompletes`.
    public static func scheduledTaskCompletes(countingExitsTheAppCannotPrevent all: Bool) -> ExplorerInvariant {
        ExplorerInvariant("scheduledTaskCompletes", state: { Following([AppID: Set<String>]()) { running, event in
                switch event.kind {
                case .taskStarted(let id): running[event.app, default: []].insert(id)
                case .taskCompleted(let id, let completion):
                    if completion == .expiredUnfinished {
                        return "\(event.app)'s task \(id) expired and was not completed from its expiration handler"
                    }
                    running[event.app]?.remove(id)
                case .stateChange(.notRunning, let cause):
                    defer { running[event.app] = nil }
                    if all || !isBeyondTheAppsControl(cause), let id = running[event.app]?.sorted().first {
                        return "\(event.app)'s process ended (\(cause)) while its task \(id) ran"
                    }
                default: break
                }
                return nil
        } })
    }

    /// No app callback runs for an app whose process has ended (before it is launched again).
    ///
    /// Flags a callback traced for an app between its exit and its next launch. Does not flag anything
    /// the app does; a model that keeps its rules never breaks it.
    public static let noCallbackAfterExit = ExplorerInvariant("noCallbackAfterExit", state: { Following(Set<AppID>()) { ended, event in
            switch event.kind {
            case .stateChange(.notRunning, _): ended.insert(event.app)
            case .stateChange: ended.remove(event.app)
            case .callback(let callback) where ended.contains(event.app):
                return "\(event.app) got \(callback.eventName) after its process ended"
            default: break
            }
            return nil
    } })

    /// Data the user changes is saved before the app's process ends.
    ///
    /// The app says what "saved" means: the callbacks in which it saves. The user changes data while
    /// the app is active: each `editedIn` callback makes the data unsaved, each `callbacks` one saves
    /// it, and a process that ends with unsaved data breaks the rule. An app that saves only in
    /// `applicationWillTerminate` breaks it the first time it is purged while suspended.
    ///
    /// Flags every exit from the background or suspension with unsaved data, whatever its cause: the
    /// app had its chance when it left the foreground. Does not flag an exit the app cannot prevent
    /// while it is in the foreground (a reboot while the user types), where no callback gives the app a
    /// chance, unless `all` is `true`.
    /// - Parameters:
    ///   - callbacks: The callbacks that save.
    ///   - edit: The callback after which the user has changed data; `applicationDidBecomeActive` by default.
    ///   - all: Whether an exit the app cannot prevent from the foreground counts too; `false` by default.
    /// - Returns: The invariant, named `dataSaved`.
    public static func dataSaved(by callbacks: Set<AppCallback>, editedIn edit: AppCallback = .didBecomeActive,
                                 countingExitsTheAppCannotPrevent all: Bool = false) -> ExplorerInvariant {
        ExplorerInvariant("dataSaved", state: { Following(DataState()) { data, event in
                switch event.kind {
                case .callback(let callback):
                    if callbacks.contains(callback) { data.unsaved[event.app] = nil } else if callback == edit { data.unsaved[event.app] = event.time }
                case .stateChange(.notRunning, let cause):
                    let before = data.state[event.app]
                    data.state[event.app] = .notRunning
                    guard let since = data.unsaved.removeValue(forKey: event.app) else { return nil }
                    if !all, before == .active || before == .inactive, isBeyondTheAppsControl(cause) { return nil }
                    return "\(event.app) lost unsaved data: its process ended (\(cause)) at \(formatSeconds(event.time.nanoseconds)) s, "
                        + "with changes since \(formatSeconds(since.nanoseconds)) s not saved by "
                        + callbacks.map(\.eventName).sorted().joined(separator: ", ")
                case .stateChange(let new, _): data.state[event.app] = new
                default: break
                }
                return nil
        } })
    }
}

/// What ``ExplorerInvariant/dataSaved(by:editedIn:countingExitsTheAppCannotPrevent:)`` follows: each
/// app's unsaved changes and its last state.
private struct DataState: Sendable {
    var unsaved: [AppID: BudgetInstant] = [:]
    var state: [AppID: ApplicationState] = [:]
}

/// A watch without state.
struct EachEvent: ExplorerWatchState {
    let body: @Sendable (TraceEvent) -> String?

    func read(_ event: TraceEvent) -> String? {
        body(event)
    }
}

/// A watch whose state is a value, changed by a function of it and each event.
private struct Following<State: Sendable>: ExplorerWatchState {
    var state: State
    let body: @Sendable (inout State, TraceEvent) -> String?

    init(_ state: State, _ body: @escaping @Sendable (inout State, TraceEvent) -> String?) {
        self.state = state
        self.body = body
    }

    mutating func read(_ event: TraceEvent) -> String? {
        body(&state, event)
    }
}

/// The watch of ``ExplorerInvariant/noKillWithOpenTask`` and, with `endedTwice`, of
/// ``ExplorerInvariant/everyTaskEndsOnce``: the finite background tasks each app has open.
private struct TaskWatch: ExplorerWatchState {
    var open: [AppID: [BackgroundTaskIdentifier]] = [:]
    /// Whether exits the app cannot prevent count too.
    let all: Bool
    /// Whether an end of a task already ended breaks the rule (`everyTaskEndsOnce`).
    let endedTwice: Bool

    init(counting all: Bool, endedTwice: Bool) {
        self.all = all
        self.endedTwice = endedTwice
    }

    mutating func read(_ event: TraceEvent) -> String? {
        switch event.kind {
        case .backgroundTaskEndIgnored(let task, .alreadyEnded) where endedTwice:
            return "\(event.app) ended background task \(task) a second time"
        case .backgroundTaskBegan(let task, _): open[event.app, default: []].append(task)
        case .backgroundTaskEnded(let task): open[event.app]?.removeAll { $0 == task }
        case .stateChange(.notRunning, let cause):
            let tasks = open.removeValue(forKey: event.app) ?? []
            guard !tasks.isEmpty, all || !ExplorerInvariant.isBeyondTheAppsControl(cause) else { return nil }
            return endedTwice ? "\(event.app) background task \(tasks[0]) was never ended (process ended: \(cause))"
                : "\(event.app) its process ended (\(cause)) with background task \(tasks[0]) still open"
        default: break
        }
        return nil
    }
}
