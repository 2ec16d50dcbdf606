import BackgroundBudgetCore
import BackgroundBudgetRuntime

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
/// An invariant made with ``init(_:watching:)`` reads the trace one event at a time, so the explorer
/// feeds it only the events each step adds and a walk costs time in proportion to its length. One made
/// with ``init(_:_:)`` sees the whole observation after each event; reading its ``ExplorerObservation/trace``
/// copies the trace so far.
///
/// The built-in invariants (``builtIn``, and ``dataSaved(by:editedIn:countingExitsTheAppCannotPrevent:)``)
/// read the trace alone, so they check a replayed scenario file just as they checked the exploration.
/// Those about the app's own conduct do not count what the app cannot prevent: a swipe from the app
/// switcher, a reboot, a termination by the system or for memory (``isBeyondTheAppsControl(_:)``).
public struct ExplorerInvariant: Sendable {
    /// Reads a trace event by event: returns what broke at an event, or `nil`. Each watch keeps its own
    /// state; a fresh one is made for each run.
    public typealias Watch = (TraceEvent) -> String?

    /// The invariant's name, as failures and `--invariant` spell it.
    public let name: String
    /// Says how the rule broke, or `nil`.
    let check: @Sendable (ExplorerObservation) -> String?
    /// Makes a fresh watch, for invariants that read the trace event by event.
    let makeWatch: (@Sendable () -> Watch)?
    /// Makes a fresh watch whose state is a value, for the built-in invariants: a session's saved
    /// state copies it, where a closure's captured state could not be copied.
    let makeState: (@Sendable () -> any ExplorerWatchState)?

    /// Creates an invariant over the whole observation.
    /// - Parameters:
    ///   - name: Its name in reports.
    ///   - check: Returns `nil` while the rule holds, or what broke.
    public init(_ name: String, _ check: @escaping @Sendable (ExplorerObservation) -> String?) {
        self.name = name
        self.check = check
        makeWatch = nil
        makeState = nil
    }

    /// Creates an invariant that reads the trace event by event with a watch whose state is a value.
    /// - Parameters:
    ///   - name: Its name in reports.
    ///   - state: Makes a fresh watch for each run.
    init<State: ExplorerWatchState>(_ name: String, state: @escaping @Sendable () -> State) {
        self.name = name
        makeWatch = { @Sendable () -> Watch in
            var watch = state()
            return { event in watch.read(event) }
        }
        makeState = { @Sendable in state() }
        check = { @Sendable seen in
            var watch = state()
            for event in seen.trace.events {
                if let message = watch.read(event) { return message }
            }
            return nil
        }
    }

    /// Creates an invariant that reads the trace event by event.
    ///
    /// ```swift
    /// let noPurge = ExplorerInvariant("noPurge") {
    ///     { event in event.kind == .stateChange(.notRunning, cause: .purge) ? "\(event.app) was purged" : nil }
    /// }
    /// ```
    /// - Parameters:
    ///   - name: Its name in reports.
    ///   - watching: Makes a fresh watch for each run; the watch sees each trace event once, in order,
    ///     and returns what broke at it, or `nil`.
    public init(_ name: String, watching: @escaping @Sendable () -> Watch) {
        self.name = name
        makeWatch = { watching() }
        makeState = nil
        check = { seen in
            let watch = watching()
            for event in seen.trace.events {
                if let message = watch(event) { return message }
            }
            return nil
        }
    }

    /// Checks the rule against what happened.
    /// - Parameter observation: The trace so far, and the running system if there is one.
    /// - Returns: What broke, or `nil`.
    public func violation(in observation: ExplorerObservation) -> String? {
        check(observation)
    }

    /// Every built-in invariant that needs no parameter: ``noWatchdogKill``, ``noKillWithOpenTask``,
    /// ``everyTaskEndsOnce``, ``scheduledTaskCompletes``, ``noCallbackAfterExit``, ``noSelfInflictedExit``.
    public static var builtIn: [ExplorerInvariant] {
        [.noWatchdogKill, .noKillWithOpenTask, .everyTaskEndsOnce, .scheduledTaskCompletes, .noCallbackAfterExit, .noSelfInflictedExit]
    }

    /// Whether an exit is one the app cannot prevent: the user swiping it away in the app switcher, a
    /// reboot, a purge or termination for memory, or a termination by the system.
    ///
    /// A watchdog kill, an expired background task, an unreported VoIP push, a file lock held at
    /// suspension, an uncaught exception or `UIApplicationExitsOnSuspend` are the app's own doing.
    /// - Parameter cause: The lifecycle event of a `stateChange` to `notRunning`.
    /// - Returns: Whether the app could not have prevented it.
    public static func isBeyondTheAppsControl(_ cause: LifecycleEvent) -> Bool {
        switch cause {
        case .killFromAppSwitcher, .purge: true
        case .terminate(let reason), .kill(let reason): [.memoryPressure, .userKill, .reboot, .system].contains(reason)
        default: false
        }
    }
}

/// A watch over the trace whose state is a value: copying it copies the state (see
/// ``ExplorerInvariant/init(_:state:)``).
protocol ExplorerWatchState: Sendable {
    /// Follows one trace event; returns what broke at it, or `nil`.
    mutating func read(_ event: TraceEvent) -> String?
}
