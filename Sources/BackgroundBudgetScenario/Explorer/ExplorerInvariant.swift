import BackgroundBudget

/// A rule every explored sequence must keep, as a plain Swift predicate over what happened.
///
/// The check returns `nil` while the rule holds, or a sentence saying how it broke. The explorer
/// checks every invariant after each event; the first that breaks names the sequence's failure.
///
/// ```swift
/// let draftSurvives = ExplorerInvariant("draftSurvives") { seen in
///     guard let editor = seen.delegate(of: "com.example.notes") as? NotesDelegate else { return nil }
///     return editor.lostDraft.map { "the draft \"\($0)\" was lost" }
/// }
/// ```
///
/// The built-in invariants (``builtIn``, and ``dataSaved(by:editedIn:)``) read the trace alone, so they
/// check a replayed scenario file just as they checked the exploration.
public struct ExplorerInvariant: Sendable {
    /// The invariant's name, as failures and `--invariant` spell it.
    public let name: String
    /// Says how the rule broke, or `nil`.
    let check: @Sendable (ExplorerObservation) -> String?

    /// Creates an invariant.
    /// - Parameters:
    ///   - name: Its name in reports.
    ///   - check: Returns `nil` while the rule holds, or what broke.
    public init(_ name: String, _ check: @escaping @Sendable (ExplorerObservation) -> String?) {
        self.name = name
        self.check = check
    }

    /// Checks the rule against what happened.
    /// - Parameter observation: The trace so far, and the running system if there is one.
    /// - Returns: What broke, or `nil`.
    public func violation(in observation: ExplorerObservation) -> String? {
        check(observation)
    }

    /// Every built-in invariant that needs no parameter: ``noWatchdogKill``, ``noKillWithOpenTask``,
    /// ``everyTaskEndsOnce``, ``scheduledTaskCompletes``, ``noCallbackAfterExit``.
    public static var builtIn: [ExplorerInvariant] {
        [.noWatchdogKill, .noKillWithOpenTask, .everyTaskEndsOnce, .scheduledTaskCompletes, .noCallbackAfterExit]
    }

    /// No app is killed by a watchdog (`0x8badf00d`): a launch or a callback took too long.
    public static let noWatchdogKill = ExplorerInvariant("noWatchdogKill") { seen in
        seen.firstExit { _, cause, _ in
            if case .kill(.watchdog) = cause { return "killed by the watchdog (0x8badf00d)" }
            if case .terminate(.watchdog) = cause { return "killed by the watchdog (0x8badf00d)" }
            return nil
        }
    }

    /// No process ends while one of its finite background tasks is still open.
    public static let noKillWithOpenTask = ExplorerInvariant("noKillWithOpenTask") { seen in
        seen.firstExit { _, cause, open in
            open.first.map { "its process ended (\(cause)) with background task \($0) still open" }
        }
    }

    /// Every finite background task begun is ended exactly once: never twice, never left open when
    /// its process ends.
    public static let everyTaskEndsOnce = ExplorerInvariant("everyTaskEndsOnce") { seen in
        for event in seen.trace.events {
            if case .backgroundTaskEndIgnored(let task, .alreadyEnded) = event.kind {
                return "\(event.app) ended background task \(task) a second time"
            }
        }
        return seen.firstExit { _, cause, open in open.first.map { "background task \($0) was never ended (process ended: \(cause))" } }
    }

    /// Every `BGTaskScheduler` task that starts completes: it does not expire, and its process does
    /// not end while it runs.
    public static let scheduledTaskCompletes = ExplorerInvariant("scheduledTaskCompletes") { seen in
        var running: [AppID: Set<String>] = [:]
        for event in seen.trace.events {
            switch event.kind {
            case .taskStarted(let id): running[event.app, default: []].insert(id)
            case .taskCompleted(let id, let completion):
                if completion == .expiredUnfinished { return "\(event.app)'s task \(id) ended unfinished" }
                running[event.app]?.remove(id)
            case .taskExpired(let id, let reason): return "\(event.app)'s task \(id) expired (\(reason))"
            case .stateChange(.notRunning, let cause):
                if let id = running[event.app]?.sorted().first {
                    return "\(event.app)'s process ended (\(cause)) while its task \(id) ran"
                }
            default: break
            }
        }
        return nil
    }

    /// No app callback runs for an app whose process has ended (before it is launched again).
    public static let noCallbackAfterExit = ExplorerInvariant("noCallbackAfterExit") { seen in
        var ended: Set<AppID> = []
        for event in seen.trace.events {
            switch event.kind {
            case .stateChange(.notRunning, _): ended.insert(event.app)
            case .stateChange: ended.remove(event.app)
            case .callback(let callback) where ended.contains(event.app):
                return "\(event.app) got \(callback.eventName) after its process ended"
            default: break
            }
        }
        return nil
    }

    /// Data the user changes is saved before the app's process ends, for any reason.
    ///
    /// The app says what "saved" means: the callbacks in which it saves. The user changes data while
    /// the app is active: each `editedIn` callback makes the data unsaved, each `callbacks` one saves
    /// it, and a process that ends with unsaved data breaks the rule. An app that saves only in
    /// `applicationWillTerminate` breaks it the first time it is purged while suspended.
    /// - Parameters:
    ///   - callbacks: The callbacks that save.
    ///   - edit: The callback after which the user has changed data; `applicationDidBecomeActive` by default.
    /// - Returns: The invariant, named `dataSaved`.
    public static func dataSaved(by callbacks: Set<AppCallback>, editedIn edit: AppCallback = .didBecomeActive) -> ExplorerInvariant {
        ExplorerInvariant("dataSaved") { seen in
            var unsaved: [AppID: BudgetInstant] = [:]
            for event in seen.trace.events {
                switch event.kind {
                case .callback(let callback):
                    if callbacks.contains(callback) { unsaved[event.app] = nil } else if callback == edit { unsaved[event.app] = event.time }
                case .stateChange(.notRunning, let cause):
                    if let since = unsaved[event.app] {
                        return "\(event.app) lost unsaved data: its process ended (\(cause)) at \(formatSeconds(event.time.nanoseconds)) s, "
                            + "with changes since \(formatSeconds(since.nanoseconds)) s not saved by "
                            + callbacks.map(\.eventName).sorted().joined(separator: ", ")
                    }
                default: break
                }
            }
            return nil
        }
    }
}

extension ExplorerInvariant {
    /// The names ``named(_:)`` reads.
    public static let names = ["noWatchdogKill", "noKillWithOpenTask", "everyTaskEndsOnce", "scheduledTaskCompletes",
                               "noCallbackAfterExit", "dataSaved:CALLBACK[,CALLBACK…]", "all"]

    /// The built-in invariants a command-line name gives: one of ``builtIn`` by name, `all` for every
    /// one of them, or `dataSaved:` with the callbacks that save, by trace name and comma-separated
    /// (`dataSaved:applicationDidEnterBackground,applicationWillTerminate`).
    /// - Parameter name: The name.
    /// - Returns: The invariants.
    /// - Throws: ``ExplorerError/unknownInvariant(_:known:)`` for another name or callback.
    public static func named(_ name: String) throws(ExplorerError) -> [ExplorerInvariant] {
        if name == "all" { return builtIn }
        if let invariant = builtIn.first(where: { $0.name == name }) { return [invariant] }
        let prefix = "dataSaved:"
        guard name.hasPrefix(prefix) else { throw .unknownInvariant(name, known: names) }
        let callbacks = name.dropFirst(prefix.count).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var saving: Set<AppCallback> = []
        for callback in callbacks {
            guard let parsed = AppCallback(eventName: callback) else {
                throw .unknownInvariant(name, known: AppCallback.allCases.map { prefix + $0.eventName })
            }
            saving.insert(parsed)
        }
        return [dataSaved(by: saving)]
    }
}
