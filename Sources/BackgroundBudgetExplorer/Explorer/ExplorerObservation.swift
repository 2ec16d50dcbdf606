import BackgroundBudgetCore
import BudgetTime
import BackgroundBudgetRuntime

/// What an invariant looks at: the trace so far and, while exploring, the running system and apps.
public struct ExplorerObservation: Sendable {
    /// Everything that happened so far, in order. While exploring it is read from the running system
    /// when asked for, a copy of the whole trace: an invariant that needs only the events as they come
    /// reads them with ``ExplorerInvariant/init(_:watching:)`` instead.
    public var trace: Trace {
        fixedTrace ?? system?.trace ?? Trace()
    }
    /// The instant of the observation.
    public let now: BudgetInstant
    /// The running system, or `nil` when a finished run's trace is checked (a replayed scenario).
    public let system: BackgroundSystem?
    /// The trace given at creation, or `nil` to read the running system's.
    private let fixedTrace: Trace?

    /// Creates an observation.
    /// - Parameters:
    ///   - trace: The trace so far.
    ///   - now: The instant.
    ///   - system: The running system, if any.
    public init(trace: Trace, now: BudgetInstant, system: BackgroundSystem? = nil) {
        fixedTrace = trace
        self.now = now
        self.system = system
    }

    /// An observation of a running system, whose trace is read only if an invariant asks for it.
    init(system: BackgroundSystem, now: BudgetInstant) {
        fixedTrace = nil
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
}
