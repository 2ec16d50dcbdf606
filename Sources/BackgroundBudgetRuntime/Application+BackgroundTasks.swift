/// Finite background tasks, named as in `UIApplication`.
///
/// ```swift
/// func applicationDidEnterBackground(_ application: Application) {
///     var task = BackgroundTaskIdentifier.invalid
///     task = application.beginBackgroundTask(withName: "upload") {
///         // 5 s before the allowance runs out: stop and end the task, or the app is killed.
///         application.endBackgroundTask(task)
///     }
///     application.async {
///         upload()
///         application.endBackgroundTask(task)
///     }
/// }
/// ```
///
/// The allowance (``BudgetPolicy/backgroundTaskAllowance``, 30 s under ``BudgetPolicy/iOS13``) is shared
/// by all of the app's tasks and runs only while the app is in the background; tasks begun in the
/// foreground stay dormant until then. Every begin must be balanced by an end.
import BackgroundBudgetCore
import BudgetTime

extension Application {
    /// Begins a finite background task (`beginBackgroundTask(withName:expirationHandler:)`).
    ///
    /// - Parameters:
    ///   - name: A name for the trace and for debugging.
    ///   - expirationHandler: Called once, on the app's queue, ``BudgetPolicy/expirationWarningLead``
    ///     before the allowance runs out (at once if that moment has passed); end the task in it. When
    ///     the system cannot grant the task because the allowance is spent, it is called too, on the
    ///     app's queue after the code that asked returns (the grant is asynchronous [S14][S6]).
    /// - Returns: The task's identifier, or ``BackgroundTaskIdentifier/invalid`` when no task can be
    ///   granted; the trace says why (``requestBackgroundTask(withName:expirationHandler:)`` returns it).
    @discardableResult
    public func beginBackgroundTask(
        withName name: String? = nil,
        expirationHandler: (@Sendable () -> Void)? = nil
    ) -> BackgroundTaskIdentifier {
        (try? requestBackgroundTask(withName: name, expirationHandler: expirationHandler).get()) ?? .invalid
    }

    /// Begins a finite background task and says why when it cannot.
    ///
    /// - Parameters:
    ///   - name: A name for the trace and for debugging.
    ///   - expirationHandler: As for ``beginBackgroundTask(withName:expirationHandler:)``.
    /// - Returns: The identifier, or the ``BackgroundTaskDenial``. Asking for one task more than
    ///   ``BudgetPolicy/maxOpenBackgroundTasks`` terminates the app (`0xbada5e47`) and returns
    ///   ``BackgroundTaskDenial/tooManyTasks``.
    public func requestBackgroundTask(
        withName name: String? = nil,
        expirationHandler: (@Sendable () -> Void)? = nil
    ) -> Result<BackgroundTaskIdentifier, BackgroundTaskDenial> {
        guard let system else { return .failure(.notRunning) }
        return system.beginBackgroundTask(for: self, name: name, expirationHandler: expirationHandler)
    }

    /// Ends a finite background task (`endBackgroundTask(_:)`). Once the last task ends and nothing else
    /// keeps a background app running, it is suspended. It may be called from any of the app's queues
    /// (its main queue, ``runInBackground(after:_:)``, a queue it made), as UIKit allows it from any
    /// thread [S14].
    ///
    /// Ending a task twice, ending ``BackgroundTaskIdentifier/invalid`` or an identifier this app never
    /// received does nothing but record `endBackgroundTaskIgnored` in the trace.
    /// - Parameter identifier: The identifier ``beginBackgroundTask(withName:expirationHandler:)`` returned.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        system?.endBackgroundTask(identifier, for: self)
    }

    /// The time left before the app must have ended its tasks, in seconds (`backgroundTimeRemaining`):
    /// `.greatestFiniteMagnitude` in the foreground, as UIKit reports it [S16][S93]; zero when the
    /// allowance is spent or the app is suspended or not running.
    public var backgroundTimeRemaining: Double {
        guard let system else { return 0 }
        return system.backgroundTimeRemaining(for: self)
    }

    /// Reads ``backgroundTimeRemaining`` and records what it read in the trace
    /// (`backgroundTimeRemaining`, with `remaining` in seconds, or `null` in the foreground), as an
    /// app that logs its remaining time would show it.
    /// - Returns: The value ``backgroundTimeRemaining`` would return at the same instant.
    @discardableResult
    public func recordBackgroundTimeRemaining() -> Double {
        guard let system else { return 0 }
        // Code of an ended process reads nothing and leaves no entry: its time is up.
        let remaining = system.decide(caller: self, ended: Duration?.some(.zero)) { [id] (state: inout BackgroundSystem.State, now: BudgetInstant) in
            state.core.readBackgroundTimeRemaining(id, at: now)
        }
        return remaining.map(\.secondsDouble) ?? .greatestFiniteMagnitude
    }

    /// Submits work to the app's own serial queue, like `DispatchQueue.main.async`: it runs after the
    /// callbacks and work submitted before it, waits while the app is suspended, and is dropped (and
    /// counted in the trace) if the app terminates first. Code of an ended process queues nothing,
    /// and nor does code outside the app while it is not running: there is no process to run it.
    /// - Parameter work: The work.
    public func async(_ work: @escaping @Sendable () -> Void) {
        let process = callerProcess
        guard !process.isEnded else { return }
        queue.enqueue(work, for: process.epoch)
        queue.drain()
    }
}

extension BackgroundSystem {
    func beginBackgroundTask(
        for app: Application, name: String?, expirationHandler: (@Sendable () -> Void)?
    ) -> Result<BackgroundTaskIdentifier, BackgroundTaskDenial> {
        let outcome = decide(caller: app, ended: .denied(.notRunning)) { (state: inout State, now: BudgetInstant) in
            let decision = state.core.beginBackgroundTask(
                app.id, name: name, hasExpirationHandler: expirationHandler != nil, at: now)
            // The shell keeps the handler under the granted identifier, or until its call when the
            // core refused the begin and asked for it; any other denied one is never kept and is
            // dropped when the caller's frame ends, outside the lock.
            if case .granted(let id) = decision.value, let expirationHandler {
                state.closures[app.id, default: AppClosures()].expirationHandlers[id] = expirationHandler
            } else if let expirationHandler, decision.effects.contains(where: { if case .refusedTaskHandler = $0 { true } else { false } }) {
                state.closures[app.id, default: AppClosures()].refusedTaskHandlers.append(expirationHandler)
            }
            return decision
        }
        switch outcome {
        case .granted(let id): return .success(id)
        case .denied(let denial): return .failure(denial)
        }
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier, for app: Application) {
        decide(caller: app) { core, now in core.endBackgroundTask(app.id, identifier, at: now) }
    }

    func backgroundTimeRemaining(for app: Application) -> Double {
        let now = clock.now
        guard let remaining = state.withLock({ $0.core.allowanceRemaining(app.id, at: now) }) else {
            return .greatestFiniteMagnitude
        }
        return remaining.secondsDouble
    }
}
