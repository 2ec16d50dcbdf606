import BudgetTime

/// The app lifecycle as a pure transition function: (state, event) → (new state, ordered steps).
///
/// No clocks, no queues, no locks: the same function drives the virtual-time and real-time runtimes,
/// and you can call it directly to see what UIKit does.
///
/// ```swift
/// let home = try Lifecycle.transition(from: .active, on: .pressHome)
/// // home.steps == [.callback(.willResignActive), .enter(.inactive),
/// //                .enter(.background), .callback(.didEnterBackground)]
/// // home.to == .background  (the runtime then suspends the app if nothing keeps it running)
/// ```
///
/// "Will" callbacks run before the state changes and "did" callbacks after it, so a delegate that
/// reads `applicationState` sees what UIKit would show: `.active` in `applicationWillResignActive`,
/// `.background` in `applicationDidEnterBackground`.
///
/// Sources: [S1]–[S9], [S68], [S69], [S86]–[S90].
///
/// A namespace with no cases: it is never a value, so it has nothing to grow.
public enum Lifecycle {
    /// The result of applying one event to one app.
    public struct Transition: Sendable, Hashable {
        /// The state before the event.
        public var from: ApplicationState
        /// The state after every step.
        public var to: ApplicationState
        /// The steps in delivery order. Empty when the event changes nothing (for example killing an
        /// app that is not running).
        public var steps: [LifecycleStep]

        /// Creates a transition.
        public init(from: ApplicationState, to: ApplicationState, steps: [LifecycleStep]) {
            self.from = from
            self.to = to
            self.steps = steps
        }
    }

    /// What an event does to an app in a given state.
    ///
    /// - Parameters:
    ///   - state: The app's current state.
    ///   - event: What happens.
    ///   - exitsOnSuspend: Whether the app sets `UIApplicationExitsOnSuspend`: instead of staying in
    ///     the background it terminates (`applicationWillTerminate`) after `applicationDidEnterBackground`,
    ///     and it is never launched into the background. Apple stopped honouring the key in iOS 13; we
    ///     honour it under every policy so that the old behaviour can be studied.
    /// - Returns: The new state and the steps that lead there.
    /// - Throws: ``LifecycleError`` when the event cannot happen in `state` (nothing is changed).
    public static func transition(
        from state: ApplicationState,
        on event: LifecycleEvent,
        exitsOnSuspend: Bool = false
    ) throws(LifecycleError) -> Transition {
        let steps = try steps(from: state, on: event, exitsOnSuspend: exitsOnSuspend)
        var final = state
        for step in steps { if case .enter(let next) = step { final = next } }
        return Transition(from: state, to: final, steps: steps)
    }

    private static func steps(
        from state: ApplicationState,
        on event: LifecycleEvent,
        exitsOnSuspend: Bool
    ) throws(LifecycleError) -> [LifecycleStep] {
        func refuse(_ problem: LifecycleError.Problem) -> LifecycleError {
            LifecycleError(event: event, state: state, problem: problem)
        }
        // Leaving the foreground ends in the background, or, for exits-on-suspend apps, in termination
        // (didEnterBackground then willTerminate [S69]).
        let enterBackground: [LifecycleStep] = exitsOnSuspend
            ? [.enter(.background), .callback(.didEnterBackground), .callback(.willTerminate),
               .exit(.exitsOnSuspend), .enter(.notRunning)]
            : [.enter(.background), .callback(.didEnterBackground)]
        let becomeActive: [LifecycleStep] = [.enter(.active), .callback(.didBecomeActive)]
        let resignActive: [LifecycleStep] = [.callback(.willResignActive), .enter(.inactive)]

        switch (event, state) {
        case (.launch, .notRunning):
            return [.enter(.inactive), .callback(.willFinishLaunching), .callback(.didFinishLaunching)]
                + becomeActive
        case (.launch, _):
            throw refuse(.alreadyRunning)

        case (.launchInBackground, .notRunning):
            if exitsOnSuspend { throw refuse(.exitsOnSuspend) }
            return [.enter(.background), .callback(.willFinishLaunching), .callback(.didFinishLaunching),
                    .callback(.didEnterBackground)]
        case (.launchInBackground, _):
            throw refuse(.alreadyRunning)

        case (.interruptionBegan, .active):
            return resignActive
        case (.interruptionBegan, _):
            throw refuse(.notActive)

        case (.interruptionDismissed, .inactive):
            return becomeActive
        case (.interruptionAnswered, .inactive):
            // The alert goes away first, then the answering app takes over (the "flurry" [S88]).
            return becomeActive + resignActive + enterBackground
        case (.interruptionDismissed, _), (.interruptionAnswered, _):
            throw refuse(.notInterrupted)

        case (.pressHome, .active), (.switchAway, .active):
            return resignActive + enterBackground
        case (.pressHome, .inactive), (.switchAway, .inactive):
            return enterBackground
        case (.pressHome, _), (.switchAway, _):
            throw refuse(.notInForeground)

        case (.enterForeground, .background):
            return [.callback(.willEnterForeground), .enter(.inactive)] + becomeActive
        case (.enterForeground, .suspended):
            // Resumed first; queued notifications would be delivered here.
            return [.enter(.background), .callback(.willEnterForeground), .enter(.inactive)] + becomeActive
        case (.enterForeground, .notRunning):
            throw refuse(.notRunning)
        case (.enterForeground, _):
            throw refuse(.alreadyInForeground)

        case (.suspend, .background):
            if exitsOnSuspend { throw refuse(.exitsOnSuspend) }
            return [.enter(.suspended)]
        case (.suspend, _):
            throw refuse(.notInBackground)

        case (.wake, .suspended):
            if exitsOnSuspend { throw refuse(.exitsOnSuspend) }
            // resume → applicationDidEnterBackground → the event [S3].
            return [.enter(.background), .callback(.didEnterBackground)]
        case (.wake, _):
            throw refuse(.notSuspended)

        case (.killFromAppSwitcher, .background):
            return [.callback(.willTerminate), .exit(.userKill), .enter(.notRunning)]
        case (.killFromAppSwitcher, .suspended):
            return [.exit(.userKill), .enter(.notRunning)]
        case (.killFromAppSwitcher, .notRunning):
            return []
        case (.killFromAppSwitcher, _):
            throw refuse(.inForeground)

        case (.purge, .suspended):
            return [.exit(.memoryPressure), .enter(.notRunning)]
        case (.purge, _):
            throw refuse(.notSuspended)

        case (.terminate(let reason), .background):
            return [.callback(.willTerminate), .exit(reason), .enter(.notRunning)]
        case (.terminate(let reason), .suspended):
            return [.exit(reason), .enter(.notRunning)]
        case (.terminate, .notRunning):
            throw refuse(.notRunning)
        case (.terminate, _):
            throw refuse(.inForeground)

        case (.openScene, _), (.closeScene, _), (.reclaimScene, _):
            // Scene events need the app's scenes: the device applies them to scene-based apps.
            throw refuse(.noScenes)

        case (.kill, .notRunning):
            throw refuse(.notRunning)
        case (.kill(let reason), _):
            return [.exit(reason), .enter(.notRunning)]
        }
    }
}
