import BudgetTime

/// Something that happens to one app and may change its ``ApplicationState``.
///
/// Events come from the user (launch, Home, the app switcher), from the phone (an incoming call or
/// message), and from the system itself (suspending, waking, purging, terminating).
/// ``Lifecycle/transition(from:on:exitsOnSuspend:)`` says what each event does in each state.
///
/// The events grow as the model does, so this is a struct with a static member (a static function for one with
/// values) per event rather than an enum: a new one is not a breaking change. Compare with `==`, or match in a
/// `switch` that has a `default`; read an event's values through the property of its name.
public struct LifecycleEvent: Sendable, Hashable, CustomStringConvertible {
    /// The events the model knows, with their values, for the package's own exhaustive switches.
    package enum Base: Sendable, Hashable {
        case launch
        case launchInBackground(LaunchReason)
        case interruptionBegan
        case interruptionDismissed
        case interruptionAnswered
        case pressHome
        case switchAway
        case enterForeground
        case suspend(SuspensionReason)
        case wake(LaunchReason)
        case killFromAppSwitcher
        case purge
        case terminate(TerminationReason)
        case kill(TerminationReason)
        case openScene
        case closeScene(SceneID)
        case reclaimScene(SceneID)
    }

    /// The event, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// The user taps the app's icon while it is not running: a cold launch into the foreground.
    public static let launch = LifecycleEvent(.launch)

    /// The system launches the app straight into the background, for the given reason.
    public static func launchInBackground(_ launchReason: LaunchReason) -> LifecycleEvent {
        LifecycleEvent(.launchInBackground(launchReason))
    }
    /// What a ``launchInBackground(_:)`` event carries; `nil` for any other event.
    public var launchInBackground: LaunchReason? {
        if case .launchInBackground(let v0) = base { v0 } else { nil }
    }

    /// An alert covers the app (an incoming call or message): the app resigns active.
    public static let interruptionBegan = LifecycleEvent(.interruptionBegan)
    /// The user dismisses the alert: the app becomes active again.
    public static let interruptionDismissed = LifecycleEvent(.interruptionDismissed)
    /// The user answers the alert (takes the call, replies to the message): another app comes to the
    /// foreground and this one goes to the background.
    public static let interruptionAnswered = LifecycleEvent(.interruptionAnswered)
    /// The user presses Home (or swipes up) while the app is in the foreground.
    public static let pressHome = LifecycleEvent(.pressHome)
    /// The user switches to another app while this one is in the foreground.
    public static let switchAway = LifecycleEvent(.switchAway)
    /// The user returns to the app while it runs in the background or is suspended.
    public static let enterForeground = LifecycleEvent(.enterForeground)

    /// The system suspends a background app that nothing keeps running.
    public static func suspend(_ suspensionReason: SuspensionReason) -> LifecycleEvent {
        LifecycleEvent(.suspend(suspensionReason))
    }
    /// What a ``suspend(_:)`` event carries; `nil` for any other event.
    public var suspend: SuspensionReason? {
        if case .suspend(let v0) = base { v0 } else { nil }
    }

    /// The system resumes a suspended app into the background to handle an event.
    public static func wake(_ launchReason: LaunchReason) -> LifecycleEvent { LifecycleEvent(.wake(launchReason)) }
    /// What a ``wake(_:)`` event carries; `nil` for any other event.
    public var wake: LaunchReason? {
        if case .wake(let v0) = base { v0 } else { nil }
    }

    /// The user swipes the app away in the app switcher.
    public static let killFromAppSwitcher = LifecycleEvent(.killFromAppSwitcher)
    /// The system reclaims a suspended app's memory, silently.
    public static let purge = LifecycleEvent(.purge)

    /// The system terminates the app in an orderly way: `applicationWillTerminate` if it is executing.
    public static func terminate(_ terminationReason: TerminationReason) -> LifecycleEvent {
        LifecycleEvent(.terminate(terminationReason))
    }
    /// What a ``terminate(_:)`` event carries; `nil` for any other event.
    public var terminate: TerminationReason? {
        if case .terminate(let v0) = base { v0 } else { nil }
    }

    /// The system kills the app at once, with no callback (a watchdog or RunningBoard kill).
    public static func kill(_ terminationReason: TerminationReason) -> LifecycleEvent {
        LifecycleEvent(.kill(terminationReason))
    }
    /// What a ``kill(_:)`` event carries; `nil` for any other event.
    public var kill: TerminationReason? {
        if case .kill(let v0) = base { v0 } else { nil }
    }

    /// The user opens another window of an active scene-based app that supports multiple scenes (an
    /// iPad window): a new scene session connects and comes to the foreground [S1].
    public static let openScene = LifecycleEvent(.openScene)

    /// The user closes one of the app's scenes (swipes the window away in the app switcher): it goes
    /// to the background if it was on screen, then disconnects, and its session is discarded [S11].
    public static func closeScene(_ sceneID: SceneID) -> LifecycleEvent { LifecycleEvent(.closeScene(sceneID)) }
    /// What a ``closeScene(_:)`` event carries; `nil` for any other event.
    public var closeScene: SceneID? {
        if case .closeScene(let v0) = base { v0 } else { nil }
    }

    /// The system disconnects a background scene to reclaim its memory: `sceneDidDisconnect`; the
    /// session stays, so the scene reconnects (with its state restoration activity) when the user
    /// returns [S1][S11][S76].
    public static func reclaimScene(_ sceneID: SceneID) -> LifecycleEvent { LifecycleEvent(.reclaimScene(sceneID)) }
    /// What a ``reclaimScene(_:)`` event carries; `nil` for any other event.
    public var reclaimScene: SceneID? {
        if case .reclaimScene(let v0) = base { v0 } else { nil }
    }

    /// The name written as a trace `reason` for state changes this event causes, e.g. `"pressHome"`,
    /// or the more specific reason an event carries (`"noBackgroundWork"`, `"watchdog"`).
    public var reason: String {
        switch base {
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
        switch base {
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
        switch base {
        case .closeScene(let scene), .reclaimScene(let scene): scene
        default: nil
        }
    }
}
