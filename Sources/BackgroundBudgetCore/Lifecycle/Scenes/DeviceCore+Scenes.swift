import BudgetTime

/// The scene-based life cycle: a scene-based app's transitions are the app delegate's launch,
/// termination and exit steps with scene callbacks in place of the app delegate's foreground and
/// background ones, and the app's state derived from its scenes [S1][S4][S10][S11][S100].
extension DeviceCore {
    /// The transition an event makes for a scene-based app; `scenes` (the app's, moved out of its
    /// record so that the change copies nothing) become the scenes it leaves. Refuses what
    /// ``Lifecycle/transition(from:on:exitsOnSuspend:)`` refuses, with the same problems, and scene
    /// events that cannot happen; nothing changes when it throws (every refusal comes before a change).
    ///
    /// Cost, with n connected scenes: O(1) amortized for opening, closing or reclaiming one scene, and
    /// O(n) for an event that moves every scene (launch, Home, return, interruption, kill).
    func sceneTransition(for event: LifecycleEvent, slot s: Int, scenes: inout SceneSet) throws(LifecycleError) -> Lifecycle.Transition {
        let state = records[s].state
        let app = records[s].manifest.id
        func refuse(_ problem: LifecycleError.Problem) -> LifecycleError {
            LifecycleError(event: event, state: state, problem: problem, app: app)
        }
        var builder = SceneStepBuilder(taking: &scenes, appState: state)
        defer { builder.handBack(to: &scenes) }
        func transition() -> Lifecycle.Transition {
            var final = state
            for step in builder.steps { if case .enter(let next) = step { final = next } }
            return Lifecycle.Transition(from: state, to: final, steps: builder.steps)
        }
        switch event {
        case .openScene:
            guard records[s].manifest.sceneManifest?.supportsMultipleScenes == true else { throw refuse(.multipleScenesNotSupported) }
            guard state == .active else { throw refuse(.notActive) }
            builder.bringToForeground([builder.connect(reconnecting: false)])
            return transition()
        case .closeScene(let id), .reclaimScene(let id):
            if pendingExitBlocks(s) { throw refuse(.terminating) }
            guard let scene = builder.scenes.scene(id) else { throw refuse(state == .notRunning ? .notRunning : .noSuchScene) }
            let closing = event == .closeScene(id)
            if !closing, scene.state.isForeground { throw refuse(.sceneNotInBackground) }
            // A suspended app is resumed into the background to hear that its scene disconnects.
            if state == .suspended { builder.enter(.background) }
            if scene.state.isForeground { builder.sendToBackground([id]) }
            builder.disconnect(id, discardingSession: closing)
            return transition()
        default:
            break
        }
        var appLevel: Lifecycle.Transition
        do {
            appLevel = try Lifecycle.transition(from: state, on: event, exitsOnSuspend: exitsOnSuspend(slot: s))
        } catch {
            var error = error
            error.app = app
            throw error
        }
        // What follows the scenes' part: applicationWillTerminate and the exit.
        let tail = appLevel.steps.firstIndex { step in
            if case .exit = step { return true }
            return step == .callback(.willTerminate)
        }.map { Array(appLevel.steps[$0...]) } ?? []
        let foreground = builder.scenes.ids(in: .foregroundActive) + builder.scenes.ids(in: .foregroundInactive)
        switch event {
        case .launch:
            // A scene-based app launches in the background state; its scene then connects and comes
            // to the foreground [S2][S4][S100].
            builder.enter(.background)
            builder.steps += [.callback(.willFinishLaunching), .callback(.didFinishLaunching)]
            builder.bringToForeground([builder.connect(reconnecting: true)])
        case .enterForeground:
            if state == .suspended { builder.enter(.background) }
            var ids = builder.scenes.ids(in: .background)
            if ids.isEmpty { ids = [builder.connect(reconnecting: true)] }
            builder.bringToForeground(ids)
        case .interruptionBegan:
            builder.resign(builder.scenes.ids(in: .foregroundActive))
        case .interruptionDismissed:
            builder.activate(builder.scenes.ids(in: .foregroundInactive))
        case .interruptionAnswered:
            builder.activate(builder.scenes.ids(in: .foregroundInactive))
            builder.sendToBackground(builder.scenes.ids(in: .foregroundActive))
            builder.steps += tail
        case .pressHome, .switchAway:
            builder.sendToBackground(foreground)
            builder.steps += tail
        case .killFromAppSwitcher where state == .background:
            // Running in the background: each scene disconnects, then applicationWillTerminate [S11][S86].
            for scene in builder.scenes.connected { builder.disconnect(scene.id, discardingSession: true) }
            builder.steps += tail
        default:
            // Launches into the background, wakes, suspensions and exits: the app delegate's steps,
            // without the foreground and background callbacks the scenes replace [S10].
            builder.steps = appLevel.steps.filter { step in
                guard case .callback(let callback) = step else { return true }
                return !SceneCallback.allCases.contains { $0.replacedAppCallback == callback }
            }
        }
        return transition()
    }

    /// Whether the app is terminating (`applicationWillTerminate` runs), which refuses scene events.
    private func pendingExitBlocks(_ s: Int) -> Bool { records[s].isTerminating }

    /// The transition of an app-delegate-only app launched under a policy that requires the scene
    /// life cycle (TN3187 [S99]): UIKit asserts before any callback, and the app does not launch.
    func refusedLaunch(_ event: LifecycleEvent, slot s: Int) -> Lifecycle.Transition? {
        guard policy.requiresSceneLifecycle, !records[s].manifest.usesScenes, !records[s].isRunning else { return nil }
        switch event {
        case .launch, .launchInBackground:
            // The process ends before it reaches any state an app can see: only the exit is traced.
            return Lifecycle.Transition(from: .notRunning, to: .notRunning, steps: [.exit(.sceneLifecycleRequired)])
        default:
            return nil
        }
    }

    /// The identifiers of an app's connected scenes, in the order they connected.
    package func connectedScenes(of app: AppID) -> [SceneID] {
        records[slot(app)].scenes.connected.map(\.id)
    }

    /// The identifier of an app's most recently connected scene still connected, in O(1) amortized.
    package func lastConnectedScene(of app: AppID) -> SceneID? {
        records[slot(app)].scenes.lastConnected?.id
    }

    /// A connected scene's activation state as the system decided it, or `nil` when not connected.
    package func sceneState(_ scene: SceneID, of app: AppID) -> SceneActivationState? {
        records[slot(app)].scenes.scene(scene)?.state
    }

    /// Notes a scene callback as started on the app's queue: records the entries its delivery held up to
    /// it, and arms the watchdog as for the app-delegate callback it replaces
    /// (``SceneCallback/replacedAppCallback``): `sceneWillEnterForeground` starts a resume
    /// (``BudgetPolicy/resumeWatchdog``, unless the app is still launching), `sceneDidEnterBackground`
    /// has ``BudgetPolicy/didEnterBackgroundLimit`` [S6][S23][S92].
    package mutating func sceneCallbackStarted(_ callback: SceneCallback, scene: SceneID, app: AppID, incarnation: UInt64, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        guard records[s].incarnation == incarnation, let process = records[s].process.running else { return [] }
        records[s].process.modify { $0.runningSceneCallback = .scene(callback, scene) }
        recordHeldSteps(app, starting: .scene(callback, scene), at: now)
        switch callback {
        case .willEnterForeground where !process.hasDeadline:
            let resumeBy = now + policy.resumeWatchdog
            records[s].process.modify { $0.resumeDeadline = resumeBy }
            return [arm(.watchdog, for: app, at: resumeBy)]
        case .didEnterBackground:
            let limit = now + policy.didEnterBackgroundLimit
            return [arm(.watchdog, for: app, at: min(limit, process.launchDeadline ?? limit))]
        default:
            return []
        }
    }

    /// Notes a scene callback as returned: records the entries after a delivery's last callback, and
    /// ends the launch or resume (`sceneDidBecomeActive`) or the background entry's limit
    /// (`sceneDidEnterBackground`), disarming the watchdog.
    package mutating func sceneCallbackReturned(_ callback: SceneCallback, scene: SceneID, app: AppID, at now: BudgetInstant) -> Decision<Void> {
        let s = slot(app)
        records[s].process.modify { if $0.runningSceneCallback == .scene(callback, scene) { $0.runningSceneCallback = nil } }
        recordHeldSteps(app, starting: nil, at: now)
        switch callback {
        case .didBecomeActive where records[s].process.running?.hasDeadline == true,
             .didEnterBackground:
            records[s].process.modify { $0.clearDeadlines() }
            return [disarm(.watchdog, for: app)]
        default:
            return []
        }
    }
}
