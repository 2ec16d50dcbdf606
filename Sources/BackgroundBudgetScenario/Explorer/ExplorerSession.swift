import BackgroundBudget

/// A delegate whose own state matters to what happens next: the explorer's seen-set includes it, so
/// two runs are taken for the same state only if their delegates describe themselves alike.
public protocol ExplorerStateDescribing {
    /// The delegate's state, in any stable spelling (`"draft: 3 typed, 2 saved"`).
    var explorerStateDescription: String { get }
}

/// One run of the target on a fresh virtual clock, driven event by event.
///
/// It does what ``Scenario/run(limits:)`` does for the same events: the setup's events at their
/// instants, then each explored action at the instant the waits before it add up to.
struct ExplorerSession {
    let target: ExplorerTarget
    let clock: VirtualClock
    let system: BackgroundSystem
    let stage: ScenarioStage
    /// The instant the next action happens at.
    private(set) var now: BudgetInstant

    /// A new run with the setup done.
    /// - Throws: ``ScenarioError`` when the policy is invalid or a setup event is refused.
    init(_ target: ExplorerTarget) throws(ScenarioError) {
        self.target = target
        clock = VirtualClock()
        do {
            system = try BackgroundSystem(policy: target.scenario.policy, clock: clock)
        } catch {
            throw ScenarioError(.invalidPolicy(error), path: "$.policy")
        }
        var installed: [AppID: Application] = [:]
        for (index, app) in target.scenario.apps.enumerated() {
            let delegate = target.delegates[app.manifest.id]?() ?? ScenarioDelegate(app.behaviour)
            do {
                installed[app.manifest.id] = try system.install(app.manifest, delegate: delegate)
            } catch {
                throw ScenarioError(.invalidBundleIdentifier(error.description), path: "$.apps[\(index)].id")
            }
        }
        stage = ScenarioStage(system: system, apps: installed)
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
    /// - Returns: `false` when the lifecycle refused the action: nothing happened.
    mutating func perform(_ event: ExplorerEvent) -> Bool {
        switch event {
        case .wait(let duration):
            now = now + duration
            clock.advance(to: now)
            return true
        case .act(let action):
            do {
                try action.perform(in: stage)
                return true
            } catch {
                return false
            }
        }
    }

    /// The first invariant that is broken now, with what broke.
    func violation(of invariants: [ExplorerInvariant]) -> (name: String, message: String)? {
        let observation = ExplorerObservation(trace: system.trace, now: clock.now, system: system)
        for invariant in invariants {
            if let message = invariant.violation(in: observation) { return (invariant.name, message) }
        }
        return nil
    }

    /// The state's fingerprint: the core's state with instants relative to now, and each delegate
    /// that describes its state.
    func fingerprint() -> UInt64 {
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
