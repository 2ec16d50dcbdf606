import BackgroundBudgetCore
import BudgetClock
import BudgetTime
import BackgroundBudgetRuntime

/// A delegate whose own state matters to what happens next: the explorer's seen-set includes it, so
/// two runs are taken for the same state only if their delegates describe themselves alike.
public protocol ExplorerStateDescribing {
    /// The delegate's state, in any stable spelling (`"draft: 3 typed, 2 saved"`).
    var explorerStateDescription: String { get }
}

/// One run of the target on a fresh virtual clock, driven event by event.
///
/// It does what ``Scenario/run(limits:)`` does for the same events: the setup's events at their
/// instants, then each explored action at the instant the waits before it add up to. The invariants
/// that read the trace event by event are fed only what each step adds.
package struct ExplorerSession {
    let target: ExplorerTarget
    let clock: VirtualClock
    let system: BackgroundSystem
    let stage: ScenarioStage
    /// The instant the next action happens at.
    private(set) var now: BudgetInstant
    /// The invariants, in order, each with its watch when it reads the trace event by event by a closure.
    private let checks: [(invariant: ExplorerInvariant, watch: ExplorerInvariant.Watch?)]
    /// The watches whose state is a value (the built-in invariants'), by the index of their invariant.
    private var states: [(any ExplorerWatchState)?]
    /// How many trace events the watches have read.
    private var read = 0

    /// A new run with the setup done.
    /// - Parameters:
    ///   - target: The target.
    ///   - invariants: The invariants ``violation()`` checks.
    /// - Throws: ``ScenarioError`` when the policy is invalid or a setup event is refused.
    init(_ target: ExplorerTarget, invariants: [ExplorerInvariant] = []) throws(ScenarioError) {
        self.target = target
        clock = VirtualClock()
        do {
            system = try BackgroundSystem(policy: target.scenario.policy, clock: clock)
        } catch {
            throw ScenarioError(.invalidPolicy(error), path: "$.policy")
        }
        // Scenario behaviours keep no state but the system's and the cells it saves: a session of them
        // can be saved and restored (``save()``).
        if target.delegates.isEmpty { system.keepRestorableCells() }
        var installed: [AppID: Application] = [:]
        for (index, app) in target.scenario.apps.enumerated() {
            let factory = target.delegates[app.manifest.id]
            do {
                let application = try system.install(app.manifest, delegate: factory == nil ? ScenarioDelegate(app.behaviour) : nil)
                if let factory { application.delegate = factory(ExplorerAppContext(application: application, system: system, clock: clock)) }
                installed[app.manifest.id] = application
            } catch {
                throw ScenarioError(.invalidBundleIdentifier(error.description), path: "$.apps[\(index)].id")
            }
        }
        stage = ScenarioStage(system: system, apps: installed)
        states = invariants.map { $0.makeState?() }
        checks = invariants.map { $0.makeState == nil ? ($0, $0.makeWatch?()) : ($0, nil) }
        for (index, event) in target.scenario.events.enumerated() {
            clock.advance(to: event.at)
            do {
                try event.action.perform(in: stage)
            } catch {
                throw ScenarioError(error.problem, path: "$.events[\(index)]", position: event.position)
            }
        }
        now = target.start
        clock.advance(to: now)
    }

    /// Does one event.
    /// - Returns: The event as done (``ExplorerEvent/advance`` as the wait it took), or `nil` when
    ///   the lifecycle refused the action or nothing is due: nothing happened.
    package mutating func perform(_ event: ExplorerEvent) -> ExplorerEvent? {
        switch event {
        case .wait(let duration):
            now = now + duration
            clock.advance(to: now)
            return event
        case .advance:
            guard let next = clock.nextDeadline, next > now else { return nil }
            let wait = next - now
            now = next
            clock.advance(to: now)
            return .wait(wait)
        case .act(let action):
            do {
                try action.perform(in: stage)
                return event
            } catch {
                return nil
            }
        }
    }

    /// The first invariant that is broken now, with what broke: the watches read the trace events
    /// recorded since the last call, the others see the whole observation.
    package mutating func violation() -> (name: String, message: String)? {
        let fresh = system.recordedEvents(after: read)
        read += fresh.count
        var observation: ExplorerObservation?
        for (index, (invariant, watch)) in checks.enumerated() {
            if states[index] != nil {
                for event in fresh {
                    if let message = states[index]!.read(event) { return (invariant.name, message) }
                }
            } else if let watch {
                for event in fresh {
                    if let message = watch(event) { return (invariant.name, message) }
                }
            } else {
                let seen = observation ?? ExplorerObservation(system: system, now: clock.now)
                observation = seen
                if let message = invariant.violation(in: seen) { return (invariant.name, message) }
            }
        }
        return nil
    }

    /// The session's whole state, to ``restore(_:)`` later instead of replaying the events that led
    /// here; `nil` when it cannot be saved whole: an app runs a delegate of a test's own (whose state
    /// is its own), an invariant watches the trace with a closure (whose captured state cannot be
    /// copied), or the system cannot be saved now (``BackgroundSystem/saveState()``). When every
    /// invariant's watch is a value and has read the whole trace, the trace is let go of: nothing reads it again.
    package func save() -> Saved? {
        guard target.delegates.isEmpty, !checks.contains(where: { $0.watch != nil }),
              let system = system.saveState(discardingTrace: checks.allSatisfy { $0.invariant.makeState != nil } && read == system.recordedEventCount)
        else { return nil }
        return Saved(system: system, now: now, states: states, read: read)
    }

    /// Puts back a state ``save()`` returned on this session: it then does what it did from there.
    package mutating func restore(_ saved: Saved) {
        system.restore(saved.system)
        now = saved.now
        states = saved.states
        read = saved.read
    }

    /// A session's state as ``ExplorerSession/save()`` saved it.
    package struct Saved {
        let system: SystemSnapshot
        let now: BudgetInstant
        let states: [(any ExplorerWatchState)?]
        let read: Int
    }

    /// The state's fingerprint: the core's state with instants relative to now, and each delegate
    /// that describes its state.
    package func fingerprint() -> UInt64 {
        var fingerprint = StateFingerprint(now: clock.now)
        fingerprint.mix(system.coreFingerprint)
        for id in target.appIDs {
            if let described = stage.app(id).delegate as? any ExplorerStateDescribing {
                fingerprint.mix(described.explorerStateDescription)
            }
        }
        return fingerprint.value
    }

    /// The state's fingerprint by reflection over the core's state: the reference the hand-written
    /// ``fingerprint()`` is checked against.
    package func reflectedFingerprint() -> UInt64 {
        var fingerprint = StateFingerprint(now: clock.now)
        fingerprint.mix(any: system.coreSnapshot)
        for id in target.appIDs {
            if let described = stage.app(id).delegate as? any ExplorerStateDescribing {
                fingerprint.mix(described.explorerStateDescription)
            }
        }
        return fingerprint.value
    }
}
