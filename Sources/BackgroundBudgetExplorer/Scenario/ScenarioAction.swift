import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// What happens at one instant of a scenario: something the user or the system does.
///
/// In a scenario file each event names its action with `"do"` and gives the action's own keys:
///
/// ```json
/// {"at": 12.5, "do": "launchInBackground", "app": "com.example.news", "reason": "location"}
/// ```
///
/// The vocabulary lives in one table, `vocabulary`: each entry is the name, the keys, a one-line
/// summary and how to read it. To add an action, add a case here, an entry to
/// the table, and a line to `perform(in:)` (the compiler points at the switch).
///
/// The actions grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum ScenarioAction: Sendable, Hashable {
    /// `launch`: a cold launch by the user; the app must not be running.
    case launch(AppID)
    /// `open`: the user taps the app's icon: a cold launch, a return to the foreground, or nothing if
    /// it is already there. The foreground app, if another, switches away.
    case open(AppID)
    /// `switchTo`: the user switches from the foreground app to another app (app switcher or link).
    case switchTo(AppID)
    /// `home`: the user presses Home; the foreground app goes to the background.
    case home
    /// `beginInterruption`: a call or message alert covers the foreground app.
    case beginInterruption
    /// `dismissInterruption`: the user dismisses the alert.
    case dismissInterruption
    /// `answerInterruption`: the user answers the call or replies to the message.
    case answerInterruption
    /// `killFromAppSwitcher`: the user swipes the app away in the app switcher.
    case killFromAppSwitcher(AppID)
    /// `launchInBackground`: the system launches the app into the background for a reason.
    case launchInBackground(AppID, reason: LaunchReason)
    /// `reboot`: the device restarts; every process ends, and VoIP apps are relaunched.
    case reboot
    /// `purge`: the system reclaims a suspended app's memory.
    case purge(AppID)
    /// `terminate`: the system terminates a background or suspended app for a reason.
    case terminate(AppID, reason: TerminationReason)
    /// `beginTask`: the app begins a finite background task now (for example an upload the user
    /// started in the foreground); see ``ScenarioTask``.
    indirect case beginTask(AppID, ScenarioTask)
    /// `startActivity`: the app starts a continuous activity now (the user presses play).
    case startActivity(AppID, BackgroundActivity)
    /// `stopActivity`: the app stops a continuous activity now (the user pauses).
    case stopActivity(AppID, BackgroundActivity)
    /// `deliver`: a system event for the app (a location event, a push, a Bluetooth or accessory
    /// event, a finished download); the system launches, wakes, queues or drops as the rules say.
    indirect case deliver(AppID, BackgroundEvent)
    /// `setMemoryCapacity`: the device's memory for apps becomes this many bytes (`mb`).
    case setMemoryCapacity(bytes: Int)
    /// `setFootprint`: an app's memory footprint becomes this many bytes (`mb`).
    case setFootprint(AppID, bytes: Int)
    /// `post`: a system notification for every app in memory.
    indirect case post(SystemNotification)
    /// `setBackgroundAppRefresh`: the device's switch, or one app's when `app` is given.
    case setBackgroundAppRefresh(enabled: Bool, app: AppID?)
    /// `setBackgroundAppRefreshRestricted`: the device forbids Background App Refresh (for example by
    /// parental controls), or no longer does: every app's status is `restricted` while it does.
    case setBackgroundAppRefreshRestricted(Bool)
    /// `setLowPowerMode`: Low Power Mode on or off.
    case setLowPowerMode(Bool)
    /// `setCriticallyLowBattery`: the battery critically low or not (no fetch, refresh, processing or
    /// silent-push wake while it is).
    case setCriticallyLowBattery(Bool)
    /// `setNetwork`: the device's network connection on or off.
    case setNetwork(Bool)
    /// `setExternalPower`: the device connected to power or not.
    case setExternalPower(Bool)
    /// `setDeviceIdle`: the device idle or not (processing tasks run only while it is idle).
    case setDeviceIdle(Bool)
    /// `submitTask`: the app submits a task request now (the user tapped Export, say); keys as for
    /// the `submitTask` step. A refusal is recorded in the trace.
    indirect case submitTask(AppID, identifier: String, kind: TaskRequest.Kind, earliest: Duration?)
    /// `cancelContinuedTask`: the user cancels a continued-processing task in the system's interface.
    indirect case cancelContinuedTask(AppID, identifier: String)
    /// `reclaimResources`: the system expires the running continued-processing task with the least progress.
    case reclaimResources
    /// `setSystemUnderLoad`: while on, no continued-processing task starts.
    case setSystemUnderLoad(Bool)
    /// `setBackgroundGPU`: whether the device supports background GPU use for continued processing.
    case setBackgroundGPU(Bool)
    /// `openScene`: the user opens another window of an active scene-based app (`"scenes": "multiple"`).
    case openScene(AppID)
    /// `closeScene`: the user closes one window (scene session `scene`, e.g. `"scene-1"`) of the app.
    case closeScene(AppID, scene: SceneID)
    /// `reclaimScene`: the system disconnects a background scene of the app to reclaim memory.
    case reclaimScene(AppID, scene: SceneID)

    /// The app the action names, if it names one.
    public var app: AppID? {
        switch self {
        case .launch(let app), .open(let app), .switchTo(let app), .killFromAppSwitcher(let app),
             .launchInBackground(let app, _), .purge(let app), .terminate(let app, _), .beginTask(let app, _),
             .startActivity(let app, _), .stopActivity(let app, _), .deliver(let app, _), .setFootprint(let app, _),
             .submitTask(let app, _, _, _), .cancelContinuedTask(let app, _),
             .openScene(let app), .closeScene(let app, _), .reclaimScene(let app, _):
            app
        case .setBackgroundAppRefresh(_, let app):
            app
        case .home, .reboot, .beginInterruption, .dismissInterruption, .answerInterruption, .setMemoryCapacity, .post, .setLowPowerMode,
             .setBackgroundAppRefreshRestricted, .setCriticallyLowBattery,
             .setNetwork, .setExternalPower, .setDeviceIdle, .reclaimResources, .setSystemUnderLoad, .setBackgroundGPU:
            nil
        }
    }

    /// The action's name in scenario files, e.g. `"home"`.
    public var name: String {
        switch self {
        case .launch: "launch"
        case .open: "open"
        case .switchTo: "switchTo"
        case .home: "home"
        case .beginInterruption: "beginInterruption"
        case .dismissInterruption: "dismissInterruption"
        case .answerInterruption: "answerInterruption"
        case .killFromAppSwitcher: "killFromAppSwitcher"
        case .launchInBackground: "launchInBackground"
        case .reboot: "reboot"
        case .purge: "purge"
        case .terminate: "terminate"
        case .beginTask: "beginTask"
        case .startActivity: "startActivity"
        case .stopActivity: "stopActivity"
        case .deliver: "deliver"
        case .setMemoryCapacity: "setMemoryCapacity"
        case .setFootprint: "setFootprint"
        case .post: "post"
        case .setBackgroundAppRefresh: "setBackgroundAppRefresh"
        case .setBackgroundAppRefreshRestricted: "setBackgroundAppRefreshRestricted"
        case .setLowPowerMode: "setLowPowerMode"
        case .setCriticallyLowBattery: "setCriticallyLowBattery"
        case .setNetwork: "setNetwork"
        case .setExternalPower: "setExternalPower"
        case .setDeviceIdle: "setDeviceIdle"
        case .submitTask: "submitTask"
        case .cancelContinuedTask: "cancelContinuedTask"
        case .reclaimResources: "reclaimResources"
        case .setSystemUnderLoad: "setSystemUnderLoad"
        case .setBackgroundGPU: "setBackgroundGPU"
        case .openScene: "openScene"
        case .closeScene: "closeScene"
        case .reclaimScene: "reclaimScene"
        }
    }

    /// One word of the event vocabulary: how a scenario file spells it and how to read it.
    package struct Verb: Sendable {
        /// The `"do"` value, e.g. `"launchInBackground"`.
        package let name: String
        /// The event's keys besides `at` and `do`, required ones first.
        package let keys: [String]
        /// One line for documentation and `bgbudget --help`.
        package let summary: String
        /// Reads the event's own keys.
        let decode: @Sendable (ObjectReader) throws(ScenarioError) -> ScenarioAction

        init(_ name: String, keys: [String] = [], _ summary: String,
             decode: @escaping @Sendable (ObjectReader) throws(ScenarioError) -> ScenarioAction) {
            self.name = name
            self.keys = keys
            self.summary = summary
            self.decode = decode
        }
    }

    /// Every action a scenario file can name, in the order errors and help list them.
    package static let vocabulary: [Verb] = [
        Verb("launch", keys: ["app"], "cold launch into the foreground (the app must not be running)") { event throws(ScenarioError) in
            .launch(try event.app())
        },
        Verb("open", keys: ["app"], "tap the icon: launch, return to the foreground, or nothing if already there") { event throws(ScenarioError) in
            .open(try event.app())
        },
        Verb("switchTo", keys: ["app"], "switch from the foreground app to another app") { event throws(ScenarioError) in
            .switchTo(try event.app())
        },
        Verb("home", "press Home: the foreground app goes to the background") { _ in .home },
        Verb("beginInterruption", "a call or message alert covers the active app") { _ in .beginInterruption },
        Verb("dismissInterruption", "the user dismisses the alert: the app becomes active again") { _ in .dismissInterruption },
        Verb("answerInterruption", "the user answers: the interrupted app goes to the background") { _ in .answerInterruption },
        Verb("killFromAppSwitcher", keys: ["app"], "swipe the app away in the app switcher") { event throws(ScenarioError) in
            .killFromAppSwitcher(try event.app())
        },
        Verb("openScene", keys: ["app"], "open another window of an active app with \"scenes\": \"multiple\"") { event throws(ScenarioError) in
            .openScene(try event.app())
        },
        Verb("closeScene", keys: ["app", "scene"], "close one window (scene: a session such as \"scene-1\")") { event throws(ScenarioError) in
            .closeScene(try event.app(), scene: SceneID(rawValue: try event.required("scene").string()))
        },
        Verb("reclaimScene", keys: ["app", "scene"], "the system disconnects a background scene to reclaim memory") { event throws(ScenarioError) in
            .reclaimScene(try event.app(), scene: SceneID(rawValue: try event.required("scene").string()))
        },
        Verb("launchInBackground", keys: ["app", "reason"],
             "the system launches the app into the background (reason: a launch reason, default \"system\")") { event throws(ScenarioError) in
            .launchInBackground(try event.app(), reason: try event.optional("reason")?.oneOf(LaunchReason.self) ?? .system)
        },
        Verb("reboot", "the device restarts: every process ends silently, a user kill's mark stays, VoIP apps are relaunched") { _ in .reboot },
        Verb("purge", keys: ["app"], "the system reclaims a suspended app's memory, silently") { event throws(ScenarioError) in
            .purge(try event.app())
        },
        Verb("terminate", keys: ["app", "reason"],
             "the system terminates a background or suspended app (reason: a termination reason, default \"system\")") { event throws(ScenarioError) in
            .terminate(try event.app(), reason: try event.optional("reason")?.oneOf(TerminationReason.self) ?? .system)
        },
        Verb("beginTask", keys: ["app"] + ScenarioTask.keys,
             "the app begins a background task now (work: seconds until it ends it; onExpiration: end | ignore)") { event throws(ScenarioError) in
            .beginTask(try event.app(), try ScenarioTask.decode(event))
        },
        Verb("startActivity", keys: ["app", "activity"],
             "the app starts a continuous activity: audioPlayback | locationUpdates | nearbyInteraction | pushToTalk") { event throws(ScenarioError) in
            .startActivity(try event.app(), try event.required("activity").oneOf(BackgroundActivity.self))
        },
        Verb("stopActivity", keys: ["app", "activity"], "the app stops a continuous activity") { event throws(ScenarioError) in
            .stopActivity(try event.app(), try event.required("activity").oneOf(BackgroundActivity.self))
        },
        Verb("deliver", keys: ["app", "event", "region"],
             "a system event for the app (event: " + BackgroundEventKind.allCases.map(\.rawValue).joined(separator: " | ")
                + "; region: for regionBoundary)") { event throws(ScenarioError) in
            let kind = try event.required("event").oneOf(BackgroundEventKind.self)
            let region = try event.optional("region")?.string()
            return .deliver(try event.app(), try kind.event(region: region, path: event))
        },
        Verb("setMemoryCapacity", keys: ["mb"], "the device's memory for apps becomes \"mb\" megabytes (pressure if they no longer fit)") { event throws(ScenarioError) in
            .setMemoryCapacity(bytes: try event.required("mb").megabytes())
        },
        Verb("setFootprint", keys: ["app", "mb"], "the app's memory footprint becomes \"mb\" megabytes") { event throws(ScenarioError) in
            .setFootprint(try event.app(), bytes: try event.required("mb").megabytes())
        },
        Verb("post", keys: ["notification", "value"],
             "a system notification for every app in memory (notification: a kind; value: its new value, if it has one)") { event throws(ScenarioError) in
            .post(try SystemNotificationKind.decode(event))
        },
        Verb("setBackgroundAppRefresh", keys: ["enabled", "app"],
             "Background App Refresh on or off, for the device or (with app) for one app") { event throws(ScenarioError) in
            .setBackgroundAppRefresh(enabled: try event.required("enabled").bool(),
                                     app: try event.optional("app").map { _ throws(ScenarioError) in try event.app() })
        },
        Verb("setBackgroundAppRefreshRestricted", keys: ["restricted"],
             "Background App Refresh restricted for the whole device (status restricted for every app) or not") { event throws(ScenarioError) in
            .setBackgroundAppRefreshRestricted(try event.required("restricted").bool())
        },
        Verb("setLowPowerMode", keys: ["enabled"], "Low Power Mode on or off (on turns Background App Refresh off)") { event throws(ScenarioError) in
            .setLowPowerMode(try event.required("enabled").bool())
        },
        Verb("setCriticallyLowBattery", keys: ["enabled"],
             "the battery critically low or not (no fetch, refresh, processing or silent-push wake while it is)") { event throws(ScenarioError) in
            .setCriticallyLowBattery(try event.required("enabled").bool())
        },
        Verb("setNetwork", keys: ["enabled"], "the network connection on or off (off expires processing tasks that need it)") { event throws(ScenarioError) in
            .setNetwork(try event.required("enabled").bool())
        },
        Verb("setExternalPower", keys: ["enabled"], "external power connected or not (lost, it expires processing tasks that need it)") { event throws(ScenarioError) in
            .setExternalPower(try event.required("enabled").bool())
        },
        Verb("setDeviceIdle", keys: ["enabled"], "the device idle or not (processing tasks run only while idle; opening an app ends it)") { event throws(ScenarioError) in
            .setDeviceIdle(try event.required("enabled").bool())
        },
        Verb("submitTask", keys: ["app"] + ScenarioStep.submissionKeys,
             "the app submits a task request now, e.g. a continuedProcessing export the user started (keys as for the submitTask step)") { event throws(ScenarioError) in
            let (identifier, kind, earliest) = try ScenarioStep.decodeSubmission(event)
            return .submitTask(try event.app(), identifier: identifier, kind: kind, earliest: earliest)
        },
        Verb("cancelContinuedTask", keys: ["app", "identifier"],
             "the user cancels a queued or running continued-processing task (the run stops if there is none)") { event throws(ScenarioError) in
            .cancelContinuedTask(try event.app(), identifier: try event.required("identifier").string())
        },
        Verb("reclaimResources", "the system expires the running continued-processing task with the least progress") { _ in
            .reclaimResources
        },
        Verb("setSystemUnderLoad", keys: ["enabled"], "the system under load or not (no continued-processing task starts while it is)") { event throws(ScenarioError) in
            .setSystemUnderLoad(try event.required("enabled").bool())
        },
        Verb("setBackgroundGPU", keys: ["enabled"], "whether the device supports background GPU use (continued processing with \"gpu\")") { event throws(ScenarioError) in
            .setBackgroundGPU(try event.required("enabled").bool())
        },
    ]
}
