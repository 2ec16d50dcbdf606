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
/// summary and how to read it. To add an action, add a case to `Base` and a static member here, an entry to
/// the table, and a line to `perform(in:)` (the compiler points at the switch).
///
/// The actions grow as the model does, so this is a struct with a static member (a static function for one with
/// values) per action rather than an enum: a new one is not a breaking change. Compare with `==`, or match in a
/// `switch` that has a `default`; read an action's values through the property of its name.
public struct ScenarioAction: Sendable, Hashable, CustomStringConvertible {
    /// The actions the model knows, with their values, for the package's own exhaustive switches.
    package enum Base: Sendable, Hashable {
        case launch(AppID)
        case open(AppID)
        case switchTo(AppID)
        case home
        case beginInterruption
        case dismissInterruption
        case answerInterruption
        case killFromAppSwitcher(AppID)
        case launchInBackground(AppID, reason: LaunchReason)
        case reboot
        case purge(AppID)
        case terminate(AppID, reason: TerminationReason)
        indirect case beginTask(AppID, ScenarioTask)
        case startActivity(AppID, BackgroundActivity)
        case stopActivity(AppID, BackgroundActivity)
        indirect case deliver(AppID, BackgroundEvent)
        case setMemoryCapacity(bytes: Int)
        case setFootprint(AppID, bytes: Int)
        indirect case post(SystemNotification)
        case setBackgroundAppRefresh(enabled: Bool, app: AppID?)
        case setBackgroundAppRefreshRestricted(Bool)
        case setLowPowerMode(Bool)
        case setCriticallyLowBattery(Bool)
        case setNetwork(Bool)
        case setExternalPower(Bool)
        case setDeviceIdle(Bool)
        indirect case submitTask(AppID, identifier: String, kind: TaskRequest.Kind, earliest: Duration?)
        indirect case cancelContinuedTask(AppID, identifier: String)
        case reclaimResources
        case setSystemUnderLoad(Bool)
        case setBackgroundGPU(Bool)
        case openScene(AppID)
        case closeScene(AppID, scene: SceneID)
        case reclaimScene(AppID, scene: SceneID)
    }

    /// The action, for the package's own exhaustive switches.
    package let base: Base

    package init(_ base: Base) { self.base = base }

    /// `launch`: a cold launch by the user; the app must not be running.
    public static func launch(_ appID: AppID) -> ScenarioAction { ScenarioAction(.launch(appID)) }

    /// `open`: the user taps the app's icon: a cold launch, a return to the foreground, or nothing if
    /// it is already there. The foreground app, if another, switches away.
    public static func open(_ appID: AppID) -> ScenarioAction { ScenarioAction(.open(appID)) }

    /// `switchTo`: the user switches from the foreground app to another app (app switcher or link).
    public static func switchTo(_ appID: AppID) -> ScenarioAction { ScenarioAction(.switchTo(appID)) }

    /// `home`: the user presses Home; the foreground app goes to the background.
    public static let home = ScenarioAction(.home)
    /// `beginInterruption`: a call or message alert covers the foreground app.
    public static let beginInterruption = ScenarioAction(.beginInterruption)
    /// `dismissInterruption`: the user dismisses the alert.
    public static let dismissInterruption = ScenarioAction(.dismissInterruption)
    /// `answerInterruption`: the user answers the call or replies to the message.
    public static let answerInterruption = ScenarioAction(.answerInterruption)

    /// `killFromAppSwitcher`: the user swipes the app away in the app switcher.
    public static func killFromAppSwitcher(_ appID: AppID) -> ScenarioAction {
        ScenarioAction(.killFromAppSwitcher(appID))
    }

    /// `launchInBackground`: the system launches the app into the background for a reason.
    public static func launchInBackground(_ appID: AppID, reason: LaunchReason) -> ScenarioAction {
        ScenarioAction(.launchInBackground(appID, reason: reason))
    }

    /// `reboot`: the device restarts; every process ends, and VoIP apps are relaunched.
    public static let reboot = ScenarioAction(.reboot)

    /// `purge`: the system reclaims a suspended app's memory.
    public static func purge(_ appID: AppID) -> ScenarioAction { ScenarioAction(.purge(appID)) }

    /// `terminate`: the system terminates a background or suspended app for a reason.
    public static func terminate(_ appID: AppID, reason: TerminationReason) -> ScenarioAction {
        ScenarioAction(.terminate(appID, reason: reason))
    }

    /// `beginTask`: the app begins a finite background task now (for example an upload the user
    /// started in the foreground); see ``ScenarioTask``.
    public static func beginTask(_ appID: AppID, _ scenarioTask: ScenarioTask) -> ScenarioAction {
        ScenarioAction(.beginTask(appID, scenarioTask))
    }

    /// `startActivity`: the app starts a continuous activity now (the user presses play).
    public static func startActivity(_ appID: AppID, _ backgroundActivity: BackgroundActivity) -> ScenarioAction {
        ScenarioAction(.startActivity(appID, backgroundActivity))
    }

    /// `stopActivity`: the app stops a continuous activity now (the user pauses).
    public static func stopActivity(_ appID: AppID, _ backgroundActivity: BackgroundActivity) -> ScenarioAction {
        ScenarioAction(.stopActivity(appID, backgroundActivity))
    }

    /// `deliver`: a system event for the app (a location event, a push, a Bluetooth or accessory
    /// event, a finished download); the system launches, wakes, queues or drops as the rules say.
    public static func deliver(_ appID: AppID, _ backgroundEvent: BackgroundEvent) -> ScenarioAction {
        ScenarioAction(.deliver(appID, backgroundEvent))
    }

    /// `setMemoryCapacity`: the device's memory for apps becomes this many bytes (`mb`).
    public static func setMemoryCapacity(bytes: Int) -> ScenarioAction {
        ScenarioAction(.setMemoryCapacity(bytes: bytes))
    }

    /// `setFootprint`: an app's memory footprint becomes this many bytes (`mb`).
    public static func setFootprint(_ appID: AppID, bytes: Int) -> ScenarioAction {
        ScenarioAction(.setFootprint(appID, bytes: bytes))
    }

    /// `post`: a system notification for every app in memory.
    public static func post(_ systemNotification: SystemNotification) -> ScenarioAction {
        ScenarioAction(.post(systemNotification))
    }

    /// `setBackgroundAppRefresh`: the device's switch, or one app's when `app` is given.
    public static func setBackgroundAppRefresh(enabled: Bool, app: AppID?) -> ScenarioAction {
        ScenarioAction(.setBackgroundAppRefresh(enabled: enabled, app: app))
    }

    /// `setBackgroundAppRefreshRestricted`: the device forbids Background App Refresh (for example by
    /// parental controls), or no longer does: every app's status is `restricted` while it does.
    public static func setBackgroundAppRefreshRestricted(_ value: Bool) -> ScenarioAction {
        ScenarioAction(.setBackgroundAppRefreshRestricted(value))
    }

    /// `setLowPowerMode`: Low Power Mode on or off.
    public static func setLowPowerMode(_ value: Bool) -> ScenarioAction { ScenarioAction(.setLowPowerMode(value)) }

    /// `setCriticallyLowBattery`: the battery critically low or not (no fetch, refresh, processing or
    /// silent-push wake while it is).
    public static func setCriticallyLowBattery(_ value: Bool) -> ScenarioAction {
        ScenarioAction(.setCriticallyLowBattery(value))
    }

    /// `setNetwork`: the device's network connection on or off.
    public static func setNetwork(_ value: Bool) -> ScenarioAction { ScenarioAction(.setNetwork(value)) }

    /// `setExternalPower`: the device connected to power or not.
    public static func setExternalPower(_ value: Bool) -> ScenarioAction { ScenarioAction(.setExternalPower(value)) }

    /// `setDeviceIdle`: the device idle or not (processing tasks run only while it is idle).
    public static func setDeviceIdle(_ value: Bool) -> ScenarioAction { ScenarioAction(.setDeviceIdle(value)) }

    /// `submitTask`: the app submits a task request now (the user tapped Export, say); keys as for
    /// the `submitTask` step. A refusal is recorded in the trace.
    public static func submitTask(_ appID: AppID, identifier: String, kind: TaskRequest.Kind, earliest: Duration?) -> ScenarioAction {
        ScenarioAction(.submitTask(appID, identifier: identifier, kind: kind, earliest: earliest))
    }

    /// `cancelContinuedTask`: the user cancels a continued-processing task in the system's interface.
    public static func cancelContinuedTask(_ appID: AppID, identifier: String) -> ScenarioAction {
        ScenarioAction(.cancelContinuedTask(appID, identifier: identifier))
    }

    /// `reclaimResources`: the system expires the running continued-processing task with the least progress.
    public static let reclaimResources = ScenarioAction(.reclaimResources)

    /// `setSystemUnderLoad`: while on, no continued-processing task starts.
    public static func setSystemUnderLoad(_ value: Bool) -> ScenarioAction {
        ScenarioAction(.setSystemUnderLoad(value))
    }

    /// `setBackgroundGPU`: whether the device supports background GPU use for continued processing.
    public static func setBackgroundGPU(_ value: Bool) -> ScenarioAction { ScenarioAction(.setBackgroundGPU(value)) }

    /// `openScene`: the user opens another window of an active scene-based app (`"scenes": "multiple"`).
    public static func openScene(_ appID: AppID) -> ScenarioAction { ScenarioAction(.openScene(appID)) }

    /// `closeScene`: the user closes one window (scene session `scene`, e.g. `"scene-1"`) of the app.
    public static func closeScene(_ appID: AppID, scene: SceneID) -> ScenarioAction {
        ScenarioAction(.closeScene(appID, scene: scene))
    }

    /// `reclaimScene`: the system disconnects a background scene of the app to reclaim memory.
    public static func reclaimScene(_ appID: AppID, scene: SceneID) -> ScenarioAction {
        ScenarioAction(.reclaimScene(appID, scene: scene))
    }

    /// The action's name and values, as Swift prints an enum case.
    public var description: String { "\(base)" }

    /// The app the action names, if it names one.
    public var app: AppID? {
        switch base {
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
        switch base {
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
