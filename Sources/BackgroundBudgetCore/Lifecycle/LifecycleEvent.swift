import BudgetClock

/// Something that happens to one app and may change its ``ApplicationState``.
///
/// Events come from the user (launch, Home, the app switcher), from the phone (an incoming call or
/// message), and from the system itself (suspending, waking, purging, terminating).
/// ``Lifecycle/transition(from:on:exitsOnSuspend:)`` says what each event does in each state.
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
        default: reason
        }
    }
}

/// Why the system launched or woke an app into the background.
///
/// Source: IOS-FACTS §1 (background launch and wake sequences) and §4–5.
public enum LaunchReason: String, Sendable, Hashable, CaseIterable {
    /// A legacy background fetch (`performFetchWithCompletionHandler`).
    case backgroundFetch
    /// A silent remote notification (`content-available`).
    case remoteNotification
    /// A location event: significant change, region monitoring or a visit.
    case location
    /// A `BGTaskScheduler` refresh or processing task.
    case backgroundTask
    /// A VoIP push or the legacy VoIP keep-alive handler.
    case voip
    /// A Core Bluetooth event for a central or peripheral role.
    case bluetooth
    /// An External Accessory event.
    case externalAccessory
    /// A finished Newsstand download.
    case newsstandContent
    /// Some other system reason.
    case system
}

/// Why the system suspended a background app.
public enum SuspensionReason: String, Sendable, Hashable, CaseIterable {
    /// The app returned from its background callbacks with nothing keeping it running.
    case noBackgroundWork
    /// The app's last finite background task ended.
    case backgroundTasksEnded
    /// The app stopped the last continuous activity (audio, location updates, …) that kept it running.
    case activityStopped
    /// The short run time granted for a background event ran out.
    case eventWindowEnded
    /// The app completed its background fetch.
    case fetchCompleted
    /// The app's last `BGTaskScheduler` task completed (or was marked completed by the system).
    case scheduledTaskCompleted
}

/// Why an app stopped running.
///
/// ``defaultCode`` is the termination code a crash report shows for kills that produce one.
/// Source: IOS-FACTS §2 ([S22][S23]) and Part 1.
public enum TerminationReason: String, Sendable, Hashable, CaseIterable {
    /// A callback or launch took longer than its watchdog limit (`0x8badf00d`).
    case watchdog
    /// Finite background tasks were still open when the allowance ran out (`0x2182bad2`).
    case backgroundTaskExpired
    /// A background fetch did not call its completion handler in time (`0x2182bad4`).
    case backgroundFetchNotCompleted
    /// More background-task assertions were requested than the cap allows (`0xbada5e47`).
    case tooManyBackgroundTasks
    /// A VoIP push was not reported to CallKit (`0xbaadca11`).
    case voipPushNotReported
    /// The system needed the memory (jetsam); suspended apps are purged silently.
    case memoryPressure
    /// The user swiped the app away in the app switcher.
    case userKill
    /// The app opts out of background execution with `UIApplicationExitsOnSuspend`.
    case exitsOnSuspend
    /// The app registered a launch handler for the same task identifier twice in one process, which
    /// `BGTaskScheduler` answers with an exception [S46][S51].
    case taskRegisteredTwice
    /// Any other orderly termination by the system.
    case system

    /// The crash-report termination code for this reason, or `nil` when the exit leaves none.
    ///
    /// Source: IOS-FACTS §2 ([S22][S23]). Policies for older iOS versions may report a different code
    /// for the same reason (for example `0x8badf00d` for unfinished tasks before iOS 13).
    public var defaultCode: UInt32? {
        switch self {
        case .watchdog: 0x8bad_f00d
        case .backgroundTaskExpired: 0x2182_bad2
        case .backgroundFetchNotCompleted: 0x2182_bad4
        case .tooManyBackgroundTasks: 0xbada_5e47
        case .voipPushNotReported: 0xbaad_ca11
        case .memoryPressure, .userKill, .exitsOnSuspend, .taskRegisteredTwice, .system: nil
        }
    }
}
