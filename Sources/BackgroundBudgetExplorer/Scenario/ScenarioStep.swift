import BudgetTime
import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// One thing a scenario app does inside a lifecycle callback.
///
/// In a scenario file each step names itself with `"do"`, like events:
///
/// ```json
/// "behaviour": {"applicationDidEnterBackground": [{"do": "work", "for": 2.5}]}
/// ```
///
/// The vocabulary lives in `vocabulary`; to add a step, add a case, a table entry and a line to
/// `perform(in:)`.
///
/// The steps grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum ScenarioStep: Sendable, Hashable {
    /// `work`: the callback spends this long before it returns (``/BackgroundBudget/Application/simulateWork(for:)``).
    case work(Duration)
    /// `beginTask`: the app begins a finite background task (see ``ScenarioTask``).
    case beginTask(ScenarioTask)
    /// `startActivity`: the app starts a continuous activity (audio, location updates, …).
    case startActivity(BackgroundActivity)
    /// `stopActivity`: the app stops a continuous activity.
    case stopActivity(BackgroundActivity)
    /// `monitorSignificantChanges`: the app starts significant-change location monitoring.
    case monitorSignificantChanges
    /// `monitorRegion`: the app starts monitoring a region.
    case monitorRegion(String)
    /// `stopMonitoringSignificantChanges`: the app stops significant-change location monitoring.
    case stopMonitoringSignificantChanges
    /// `stopMonitoringRegion`: the app stops monitoring a region.
    case stopMonitoringRegion(String)
    /// `reportCall`: the app reports an incoming call for the VoIP push it is handling.
    case reportCall
    /// `setKeepAlive`: the app installs the legacy VoIP keep-alive handler, whose run takes `work`.
    case setKeepAlive(interval: Duration, work: Duration)
    /// `clearKeepAlive`: the app removes the legacy VoIP keep-alive handler.
    case clearKeepAlive
    /// `setFootprint`: the app's memory footprint becomes this many bytes (`mb` in scenario files).
    case setFootprint(bytes: Int)
    /// `setFetchInterval`: the app's minimum background fetch interval.
    case setFetchInterval(BackgroundFetchInterval)
    /// `registerTask`: the app registers a `BGTaskScheduler` launch handler (see ``ScenarioTaskHandler``).
    case registerTask(ScenarioTaskHandler)
    /// `submitTask`: the app submits a task request; `earliest` counts from the moment it submits.
    /// A refused submission is recorded in the trace (`taskSubmitRejected`).
    case submitTask(identifier: String, kind: TaskRequest.Kind, earliest: Duration?)
    /// `cancelTaskRequest`: the app cancels its pending task request with this identifier
    /// (``/BackgroundBudget/Application/cancel(taskRequestWithIdentifier:)``); a running task is not affected.
    case cancelTaskRequest(identifier: String)
    /// `cancelAllTaskRequests`: the app cancels every pending task request
    /// (``/BackgroundBudget/Application/cancelAllTaskRequests()``).
    case cancelAllTaskRequests
    /// `readBackgroundTimeRemaining`: the app reads its remaining background time, recorded in the trace
    /// (``/BackgroundBudget/Application/recordBackgroundTimeRemaining()``).
    case readBackgroundTimeRemaining
    /// `readRestorationActivity`: the scene whose callback runs the step reads what its session carries
    /// for state restoration, recorded in the trace (``/BackgroundBudget/Scene/recordStateRestorationActivity()``).
    /// Accepted only at the top of a scene callback's steps (``ScenarioBehaviour/sceneSteps``, or a
    /// foreground or background callback of an app with scenes): ``Scenario/validate()`` refuses it
    /// anywhere else (``ScenarioError/Problem/outsideSceneCallback(_:)``), where there is no scene to read.
    case readRestorationActivity
    /// `completeRemoteNotification`: the app calls the completion handler of the silent push it is
    /// handling (``/BackgroundBudget/Application/completeRemoteNotification(_:)``), which ends its window;
    /// without it, a push delivered in the background terminates the app when its window ends.
    case completeRemoteNotification(BackgroundFetchResult)
    /// `acquireFileLock`: take a lock on the file at `path` (``/BackgroundBudget/Application/acquireFileLock(_:)``):
    /// suspended while it holds one, the app is killed (`0xdead10cc`).
    case acquireFileLock(String)
    /// `releaseFileLock`: release the lock on the file at `path`.
    case releaseFileLock(String)
    /// `task`: the app starts a Swift task (`Application.task`) that sleeps
    /// this long on the app's clock (``/BackgroundBudget/Application/clock``), then takes the steps: frozen
    /// while the app is suspended, never resumed once its process has ended.
    case appTask(sleep: Duration, then: [ScenarioStep])
    /// `queue`: the app makes a serial queue (``/BackgroundBudget/Application/makeQueue(label:)``) and
    /// submits the steps to it, after the delay if there is one: they wait while the app is suspended
    /// and are dropped with its process.
    case queueWork(label: String, after: Duration?, then: [ScenarioStep])

    /// One word of the behaviour vocabulary.
    package struct Verb: Sendable {
        /// The `"do"` value, e.g. `"work"`.
        package let name: String
        /// The step's keys besides `do`.
        package let keys: [String]
        /// One line for documentation and `bgbudget --help`.
        package let summary: String
        /// Reads the step's own keys.
        let decode: @Sendable (ObjectReader) throws(ScenarioError) -> ScenarioStep
    }

    /// Every step a scenario app can take in a callback.
    package static let vocabulary: [Verb] = [
        Verb(name: "work", keys: ["for"], summary: "spend \"for\" seconds before the callback returns") { step throws(ScenarioError) in
            .work(try step.required("for").seconds())
        },
        Verb(name: "beginTask", keys: ScenarioTask.keys,
             summary: "begin a background task whose \"work\" takes seconds; \"onExpiration\": end | ignore") { step throws(ScenarioError) in
            .beginTask(try ScenarioTask.decode(step))
        },
        Verb(name: "startActivity", keys: ["activity"],
             summary: "start a continuous activity: audioPlayback | locationUpdates | nearbyInteraction | pushToTalk") { step throws(ScenarioError) in
            .startActivity(try step.required("activity").oneOf(BackgroundActivity.self))
        },
        Verb(name: "stopActivity", keys: ["activity"], summary: "stop a continuous activity") { step throws(ScenarioError) in
            .stopActivity(try step.required("activity").oneOf(BackgroundActivity.self))
        },
        Verb(name: "monitorSignificantChanges", keys: [], summary: "start significant-change location monitoring") { _ in
            .monitorSignificantChanges
        },
        Verb(name: "monitorRegion", keys: ["region"], summary: "start monitoring the region named \"region\"") { step throws(ScenarioError) in
            .monitorRegion(try step.required("region").string())
        },
        Verb(name: "stopMonitoringSignificantChanges", keys: [], summary: "stop significant-change location monitoring") { _ in
            .stopMonitoringSignificantChanges
        },
        Verb(name: "stopMonitoringRegion", keys: ["region"], summary: "stop monitoring the region named \"region\"") { step throws(ScenarioError) in
            .stopMonitoringRegion(try step.required("region").string())
        },
        Verb(name: "reportCall", keys: [], summary: "report an incoming call for the VoIP push being handled") { _ in .reportCall },
        Verb(name: "setKeepAlive", keys: ["interval", "work"],
             summary: "install the VoIP keep-alive handler every \"interval\" seconds; each run takes \"work\" seconds") { step throws(ScenarioError) in
            .setKeepAlive(interval: try step.required("interval").seconds(), work: try step.optional("work")?.seconds() ?? .zero)
        },
        Verb(name: "clearKeepAlive", keys: [], summary: "remove the VoIP keep-alive handler") { _ in .clearKeepAlive },
        Verb(name: "setFootprint", keys: ["mb"], summary: "the app's memory footprint becomes \"mb\" megabytes") { step throws(ScenarioError) in
            .setFootprint(bytes: try step.required("mb").megabytes())
        },
        Verb(name: "setFetchInterval", keys: ["interval"],
             summary: "the minimum background fetch interval: \"minimum\", \"never\" or seconds") { step throws(ScenarioError) in
            let interval = try step.required("interval")
            if case .number = interval.node.value { return .setFetchInterval(.atLeast(try interval.seconds())) }
            return .setFetchInterval(try interval.oneOf(["minimum": BackgroundFetchInterval.minimum, "never": .never]))
        },
        Verb(name: "registerTask", keys: ["identifier", "result", "work", "progress", "onExpiration"],
             summary: "register a task launch handler that works \"work\" seconds (in \"progress\" reported steps, off the queue), then completes: \"success\" | \"failure\" | \"never\"; its expiration handler (\"onExpiration\"): complete | ignore | none") { step throws(ScenarioError) in
            let result: Bool? = switch try step.optional("result")?.oneOf(["success": 1, "failure": 0, "never": -1]) ?? 1 {
            case 1: true
            case 0: false
            default: nil
            }
            var progressSteps: Int?
            if let reader = step.optional("progress") {
                let value = try reader.number()
                guard value.rounded() == value, value >= 1, value <= 1_000 else {
                    throw reader.error(.outOfRange(value, accepted: "a whole number of steps from 1 to 1000"))
                }
                progressSteps = Int(value)
            }
            return .registerTask(ScenarioTaskHandler(
                identifier: try step.required("identifier").string(),
                result: result,
                work: try step.optional("work")?.seconds() ?? .zero,
                progressSteps: progressSteps,
                onExpiration: try step.optional("onExpiration")?.oneOf(ScenarioTaskHandler.ExpirationResponse.self)))
        },
        Verb(name: "submitTask", keys: ScenarioStep.submissionKeys,
             summary: "submit a task request: kind \"refresh\" or \"appRefresh\" | \"processing\" | \"continuedProcessing\" (see the Scenario format article)") { step throws(ScenarioError) in
            let (identifier, kind, earliest) = try ScenarioStep.decodeSubmission(step)
            return .submitTask(identifier: identifier, kind: kind, earliest: earliest)
        },
        Verb(name: "cancelTaskRequest", keys: ["identifier"],
             summary: "cancel the pending task request \"identifier\" (a running task is not affected)") { step throws(ScenarioError) in
            .cancelTaskRequest(identifier: try step.required("identifier").string())
        },
        Verb(name: "cancelAllTaskRequests", keys: [], summary: "cancel every pending task request of the app") { _ in
            .cancelAllTaskRequests
        },
        Verb(name: "readBackgroundTimeRemaining", keys: [],
             summary: "read backgroundTimeRemaining into the trace (seconds left; null in the foreground)") { _ in
            .readBackgroundTimeRemaining
        },
        Verb(name: "readRestorationActivity", keys: [],
             summary: "in a scene callback: read the scene session's stateRestorationActivity into the trace (its activityType; null for none)") { _ in
            .readRestorationActivity
        },
        Verb(name: "completeRemoteNotification", keys: ["result"],
             summary: "call the silent push's completion handler (\"result\": newData | noData | failed): its window ends now") { step throws(ScenarioError) in
            .completeRemoteNotification(try step.optional("result")?.oneOf(BackgroundFetchResult.self) ?? .newData)
        },
        Verb(name: "acquireFileLock", keys: ["path"],
             summary: "take a lock on the file \"path\" (an SQLite database, say): suspended while holding it, the app is killed (0xdead10cc)") { step throws(ScenarioError) in
            .acquireFileLock(try step.required("path").string())
        },
        Verb(name: "releaseFileLock", keys: ["path"], summary: "release the lock on the file \"path\"") { step throws(ScenarioError) in
            .releaseFileLock(try step.required("path").string())
        },
    ] + appCodeVocabulary

    /// The keys of a task submission, as a step or an event takes them.
    static let submissionKeys = ["identifier", "kind", "earliest", "network", "power", "title", "subtitle", "strategy", "gpu"]

    /// The spellings of a submission's `kind`: the scenario's own and Swift's (`TaskRequest.Kind.appRefresh`).
    static let submissionKinds: KeyValuePairs<String, String> = [
        "refresh": "refresh", "appRefresh": "refresh", "processing": "processing", "continuedProcessing": "continuedProcessing",
    ]

    /// Reads a task submission: `identifier`, `kind` (`refresh`, or `appRefresh`, by default), and the keys of the kind —
    /// `earliest` for every kind (a continued-processing request's is ignored by the system, as iOS
    /// ignores its `earliestBeginDate`), `network` and `power` for processing, `title`, `subtitle`,
    /// `strategy` and `gpu` for continued processing. A key of another kind is refused.
    static func decodeSubmission(_ step: ObjectReader) throws(ScenarioError) -> (String, TaskRequest.Kind, Duration?) {
        let identifier = try step.required("identifier").string()
        let kindName = try step.optional("kind")?.oneOf(submissionKinds) ?? "refresh"
        let own: [String] = switch kindName {
        case "processing": ["identifier", "kind", "earliest", "network", "power"]
        case "continuedProcessing": ["identifier", "kind", "earliest", "title", "subtitle", "strategy", "gpu"]
        default: ["identifier", "kind", "earliest"]
        }
        for key in submissionKeys where !own.contains(key) {
            if let reader = step.optional(key) { throw reader.error(.unknownKey(key, accepted: own)) }
        }
        let earliest = try step.optional("earliest")?.seconds()
        switch kindName {
        case "processing":
            return (identifier, .processing(requiresNetworkConnectivity: try step.optional("network")?.bool() ?? false,
                                            requiresExternalPower: try step.optional("power")?.bool() ?? false), earliest)
        case "continuedProcessing":
            let options = ContinuedProcessingOptions(
                title: try step.optional("title")?.string() ?? identifier,
                subtitle: try step.optional("subtitle")?.string() ?? "",
                strategy: try step.optional("strategy")?.oneOf(ContinuedProcessingOptions.SubmissionStrategy.self) ?? .queue,
                requiresGPU: try step.optional("gpu")?.bool() ?? false)
            // Accepted and passed on: the system ignores it, as iOS ignores `earliestBeginDate` here [S47].
            return (identifier, .continuedProcessing(options), earliest)
        default:
            return (identifier, .appRefresh, earliest)
        }
    }

    /// Submits a request from inside the app; a refusal is recorded in the trace (`taskSubmitRejected`).
    static func submit(identifier: String, kind: TaskRequest.Kind, earliest: Duration?, in application: Application) {
        let now = application.system?.clock.now ?? .zero
        try? application.submit(TaskRequest(identifier: identifier, kind: kind, earliestBeginDate: earliest.map { now + $0 }))
    }

    /// The table entry for a `"do"` value, or `nil`.
    static func verb(named name: String) -> Verb? {
        vocabulary.first { $0.name == name }
    }

    /// Does the step inside a callback, on the app's executor; `scene` is the scene whose callback runs
    /// it, `nil` in an app-delegate callback and in the app's later code.
    func perform(in application: Application, scene: Scene? = nil) {
        switch self {
        case .work(let duration): application.simulateWork(for: duration)
        case .beginTask(let task): task.begin(in: application)
        case .startActivity(let activity): try? application.startActivity(activity)
        case .stopActivity(let activity): application.stopActivity(activity)
        case .monitorSignificantChanges: application.startMonitoringSignificantLocationChanges()
        case .monitorRegion(let region): application.startMonitoring(region: region)
        case .stopMonitoringSignificantChanges: application.stopMonitoringSignificantLocationChanges()
        case .stopMonitoringRegion(let region): application.stopMonitoring(region: region)
        case .clearKeepAlive: application.clearKeepAliveTimeout()
        case .reportCall: application.reportNewIncomingCall()
        case .setFootprint(let bytes): application.setMemoryFootprint(bytes)
        case .setFetchInterval(let interval): application.setMinimumBackgroundFetchInterval(interval)
        case .registerTask(let handler): handler.register(in: application)
        case .submitTask(let identifier, let kind, let earliest):
            Self.submit(identifier: identifier, kind: kind, earliest: earliest, in: application)
        case .cancelTaskRequest(let identifier): application.cancel(taskRequestWithIdentifier: identifier)
        case .cancelAllTaskRequests: application.cancelAllTaskRequests()
        case .readBackgroundTimeRemaining: application.recordBackgroundTimeRemaining()
        // Validation keeps the step to scene callbacks; a behaviour built in code that skips it reads nothing.
        case .readRestorationActivity: scene?.recordStateRestorationActivity()
        case .completeRemoteNotification(let result): application.completeRemoteNotification(result)
        case .acquireFileLock(let path): application.acquireFileLock(path)
        case .releaseFileLock(let path): application.releaseFileLock(path)
        case .appTask(let duration, let steps): Self.startTask(sleeping: duration, then: steps, in: application)
        case .queueWork(let label, let delay, let steps): Self.send(steps, toQueue: label, after: delay, in: application)
        case .setKeepAlive(let interval, let work):
            application.setKeepAliveTimeout(interval) { [weak application] in application?.simulateWork(for: work) }
        }
    }
}
