import BudgetTime

/// Something that happens to one app and may change its ``ApplicationState``.
///
/// Events come from the user (launch, Home, the app switcher), from the phone (an incoming call or
/// message), and from the system itself (suspending, waking, purging, terminating).
/// ``Lifecycle/transition(from:on:exitsOnSuspend:)`` says what each event does in each state.
///
/// The events grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum LifecycleEvent: Sendable, Hashable, CustomStringConvertible {
    /// The user taps the app's icon while it is not running: a cold launch into the foreground.
    case launch
    /// The system launches the app straight into the background, for the given reason.
    case launchInBackground(LaunchReason)
    /// An alert covers the app (an incoming call or message): the app resigns active.
    case interruptionBegan
    /// The user dismisses the alert: the app becomes active again.
    case interruptionDismissed
    /// The user answers the alert (takes the call, replies to the message): another app comes to the
    /// foreground and this one goes to the background.
    case interruptionAnswered
    /// The user presses Home (or swipes up) while the app is in the foreground.
    case pressHome
    /// The user switches to another app while this one is in the foreground.
    case switchAway
    /// The user returns to the app while it runs in the background or is suspended.
    case enterForeground
    /// The system suspends a background app that nothing keeps running.
    case suspend(SuspensionReason)
    /// The system resumes a suspended app into the background to handle an event.
    case wake(LaunchReason)
    /// The user swipes the app away in the app switcher.
    case killFromAppSwitcher
    /// The system reclaims a suspended app's memory, silently.
    case purge
    /// The system terminates the app in an orderly way: `applicationWillTerminate` if it is executing.
    case terminate(TerminationReason)
    /// The system kills the app at once, with no callback (a watchdog or RunningBoard kill).
    case kill(TerminationReason)
    /// The user opens another window of an active scene-based app that supports multiple scenes (an
    /// iPad window): a new scene session connects and comes to the foreground [S1].
    case openScene
    /// The user closes one of the app's scenes (swipes the window away in the app switcher): it goes
    /// to the background if it was on screen, then disconnects, and its session is discarded [S11].
    case closeScene(SceneID)
    /// The system disconnects a background scene to reclaim its memory: `sceneDidDisconnect`; the
    /// session stays, so the scene reconnects (with its state restoration activity) when the user
    /// returns [S1][S11][S76].
    case reclaimScene(SceneID)

    /// The name written as a trace `reason` for state changes this event causes, e.g. `"pressHome"`,
    /// or the more specific reason an event carries (`"noBackgroundWork"`, `"watchdog"`).
    public var reason: String {
        switch self {
        case .launch: "launch"
        case .launchInBackground(let why): why.rawValue
        case .interruptionBegan: "interruptionBegan"
        case .interruptionDismissed: "interruptionDismissed"
        case .interruptionAnswered: "interruptionAnswered"
        case .pressHome: "pressHome"
        case .switchAway: "switchAway"
        case .enterForeground: "enterForeground"
        case .suspend(let why): why.rawValue
        case .wake(let why): why.rawValue
        case .killFromAppSwitcher: TerminationReason.userKill.rawValue
        case .purge: TerminationReason.memoryPressure.rawValue
        case .terminate(let why), .kill(let why): why.rawValue
        case .openScene: "openScene"
        case .closeScene: "closeScene"
        case .reclaimScene: "reclaimScene"
        }
    }

    /// A short name for the event, e.g. `"pressHome"` or `"kill(watchdog)"`.
    public var description: String {
        switch self {
        case .launchInBackground(let why): "launchInBackground(\(why.rawValue))"
        case .suspend(let why): "suspend(\(why.rawValue))"
        case .wake(let why): "wake(\(why.rawValue))"
        case .terminate(let why): "terminate(\(why.rawValue))"
        case .kill(let why): "kill(\(why.rawValue))"
        case .killFromAppSwitcher: "killFromAppSwitcher"
        case .purge: "purge"
        case .closeScene(let scene): "closeScene(\(scene))"
        case .reclaimScene(let scene): "reclaimScene(\(scene))"
        default: reason
        }
    }

    /// The scene the event concerns, for ``closeScene(_:)`` and ``reclaimScene(_:)``.
    public var scene: SceneID? {
        switch self {
        case .closeScene(let scene), .reclaimScene(let scene): scene
        default: nil
        }
    }
}
