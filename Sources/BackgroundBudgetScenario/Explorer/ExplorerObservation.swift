import BackgroundBudget

/// What an invariant looks at: the trace so far and, while exploring, the running system and apps.
public struct ExplorerObservation: Sendable {
    /// Everything that happened so far, in order.
    public let trace: Trace
    /// The instant of the observation.
    public let now: BudgetInstant
    /// The running system, or `nil` when a finished run's trace is checked (a replayed scenario).
    public let system: BackgroundSystem?

    /// Creates an observation.
    /// - Parameters:
    ///   - trace: The trace so far.
    ///   - now: The instant.
    ///   - system: The running system, if any.
    public init(trace: Trace, now: BudgetInstant, system: BackgroundSystem? = nil) {
        self.trace = trace
        self.now = now
        self.system = system
    }

    /// The installed app with an identifier, while exploring.
    public func application(_ id: AppID) -> Application? {
        system?.application(id)
    }

    /// The delegate of an installed app, while exploring: a test's own delegate, to ask what it kept.
    public func delegate(of id: AppID) -> (any ApplicationDelegate)? {
        application(id)?.delegate
    }

    /// Walks the trace's process ends, with the tasks each process left open, and returns the first
    /// message `body` gives, prefixed with the app.
    func firstExit(_ body: (AppID, LifecycleEvent, [BackgroundTaskIdentifier]) -> String?) -> String? {
        var open: [AppID: [BackgroundTaskIdentifier]] = [:]
        for event in trace.events {
            switch event.kind {
            case .backgroundTaskBegan(let task, _): open[event.app, default: []].append(task)
            case .backgroundTaskEnded(let task): open[event.app]?.removeAll { $0 == task }
            case .stateChange(.notRunning, let cause):
                if let message = body(event.app, cause, open[event.app] ?? []) { return "\(event.app) \(message)" }
                open[event.app] = nil
            default: break
            }
        }
        return nil
    }
}
