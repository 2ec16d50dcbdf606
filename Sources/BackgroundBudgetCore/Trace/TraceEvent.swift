import BudgetTime

/// One entry of a ``Trace``: a callback, a state change or a decision, with its time and app.
///
/// Every entry has a JSON Lines form (``jsonLine``) documented in the *Trace format* article:
///
/// ```json
/// {"t":12.000,"app":"com.example.statelab","event":"applicationDidEnterBackground"}
/// {"t":12.000,"app":"com.example.statelab","event":"stateChange","state":"suspended","reason":"noBackgroundWork"}
/// ```
public struct TraceEvent: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// The system called a delegate method.
        case callback(AppCallback)
        /// The system called a scene delegate method for one scene (scene-based apps); JSON: the
        /// selector without its colon as `event`, the scene's session as `name`.
        case sceneCallback(SceneCallback, scene: SceneID)
        /// The app's state changed because of an event; the event is the reason.
        case stateChange(ApplicationState, cause: LifecycleEvent)
        /// The app's process exited (a decision with a reason and, for kills, a termination code).
        case exit(TerminationReason, code: UInt32?)
        /// The process ended while a delegate callback was running (recorded once, right after the
        /// `exit`): the rest of the callback, and everything the process's code does afterwards, has no
        /// effect and no trace entry.
        case killedMidCallback(AppCallback)
        /// Pending work on the app's queue was dropped because the app stopped running.
        case workDropped(count: Int)
        /// `beginBackgroundTask` granted a task.
        case backgroundTaskBegan(BackgroundTaskIdentifier, name: String?)
        /// `beginBackgroundTask` returned `.invalid`, for a reason.
        case backgroundTaskDenied(name: String?, BackgroundTaskDenial)
        /// `endBackgroundTask` ended an open task.
        case backgroundTaskEnded(BackgroundTaskIdentifier)
        /// `endBackgroundTask` did nothing, for a reason.
        case backgroundTaskEndIgnored(BackgroundTaskIdentifier, BackgroundTaskEndProblem)
        /// The background allowance started running; it runs out at the instant given.
        case allowanceStarted(expiresAt: BudgetInstant)
        /// The app read its remaining background time (`backgroundTimeRemaining`): the time left in
        /// its allowance, or `nil` in the foreground, where it is unbounded.
        case backgroundTimeRemainingRead(Duration?)
        /// A task's expiration handler was called (once per task).
        case expirationHandlerCalled(BackgroundTaskIdentifier)
        /// A task begun in the foreground has been open longer than the allowance: it would be
        /// killed if the app went to the background now.
        case backgroundTaskOpenTooLong(BackgroundTaskIdentifier)
        /// A continuous activity started; with its mode declared it keeps a background app running.
        case activityStarted(BackgroundActivity)
        /// A continuous activity stopped.
        case activityStopped(BackgroundActivity)
        /// A continuous activity was refused, for a reason.
        case activityDenied(BackgroundActivity, ActivityDenial)
        /// A system event was delivered to the app (launching or waking it if needed).
        case eventDelivered(BackgroundEvent)
        /// A system event is held until the app next runs.
        case eventQueued(BackgroundEvent)
        /// A system event was not delivered, for a reason.
        case eventDropped(BackgroundEvent, EventDropReason)
        /// The app may run in the background until the instant given, to handle an event.
        case eventWindowStarted(until: BudgetInstant)
        /// The app called a silent push's completion handler with a result; its event window, if one
        /// was open, ended then.
        case remoteNotificationCompleted(BackgroundFetchResult)
        /// The app reported an incoming call for a VoIP push.
        case voipCallReported
        /// The legacy VoIP keep-alive handler was called.
        case keepAliveHandlerCalled
        /// A system notification was delivered to the app.
        case notificationDelivered(SystemNotification)
        /// A system notification was queued (coalesced by kind) for a suspended app.
        case notificationQueued(SystemNotification)
        /// A background fetch started (`performFetchWithCompletionHandler` is called).
        case fetchStarted
        /// The app called its fetch completion handler with a result.
        case fetchCompleted(BackgroundFetchResult)
        /// A fetch completion handler was called again, or after its fetch ended; ignored.
        case fetchCompletionIgnored(BackgroundFetchResult)
        /// A fetch opportunity passed without a fetch, for a reason.
        case fetchSkipped(FetchSkipReason)
        /// A `BGTaskScheduler` launch handler was registered for the identifier.
        case taskRegistered(String)
        /// Registering a launch handler returned `false` (or terminated the app), for a reason.
        case taskRegistrationRejected(String, TaskRegistrationRejection)
        /// A task request was submitted (replacing a pending one with the same identifier).
        case taskSubmitted(String)
        /// `submit` threw, with the error code.
        case taskSubmitRejected(String, TaskSchedulerError.Code)
        /// A pending task request was cancelled.
        case taskRequestCancelled(String)
        /// A continued-processing request could not start at once and waits in the system's queue.
        case taskQueued(String)
        /// A running task reported its progress (units completed of a total; 0 total while unknown).
        case taskProgress(String, completed: Int64, total: Int64)
        /// A task request started running: its launch handler is called on the app's queue.
        case taskStarted(String)
        /// A task started with no launch handler registered: it was dropped.
        case taskDropped(String)
        /// The system expired a running task: its expiration handler is called.
        case taskExpired(String, TaskExpiryReason)
        /// A running task ended, as the app or the system completed it.
        case taskCompleted(String, TaskCompletion)
        /// `setTaskCompleted` was called again, or after the task ended; ignored.
        case taskCompletionIgnored(String)
        /// The app took a file lock (an `flock`, an SQLite database lock) on the path; suspended while
        /// it holds one, it is killed (`0xdead10cc`).
        case fileLockAcquired(String)
        /// The app released its file lock on the path.
        case fileLockReleased(String)
        /// Monitoring the region failed: the app already monitors ``BudgetPolicy/maxMonitoredRegions``
        /// regions (Core Location's `monitoringDidFailFor` with `regionMonitoringFailure`).
        case regionMonitoringFailed(String)
        /// A device setting or condition changed: recorded on ``AppID/device``, or on the app for the
        /// app's own Background App Refresh switch.
        case deviceChanged(DeviceChange)
    }

    /// When it happened.
    public var time: BudgetInstant
    /// The app it happened to.
    public var app: AppID
    /// What happened.
    public var kind: Kind

    /// Creates an entry.
    public init(time: BudgetInstant, app: AppID, kind: Kind) {
        self.time = time
        self.app = app
        self.kind = kind
    }

    /// The JSON `event` name: the callback's selector without its final colon
    /// (`"applicationWillResignActive"`), or the decision's name (`"stateChange"`, `"exit"`,
    /// `"beginBackgroundTask"`, …; the *Trace format* article lists them all).
    public var eventName: String {
        switch kind {
        case .callback(let callback): callback.eventName
        case .sceneCallback(let callback, _): callback.eventName
        case .stateChange: "stateChange"
        case .exit: "exit"
        case .killedMidCallback: "killedMidCallback"
        case .workDropped: "workDropped"
        case .backgroundTaskBegan: "beginBackgroundTask"
        case .backgroundTaskDenied: "beginBackgroundTaskDenied"
        case .backgroundTaskEnded: "endBackgroundTask"
        case .backgroundTaskEndIgnored: "endBackgroundTaskIgnored"
        case .allowanceStarted: "allowanceStarted"
        case .backgroundTimeRemainingRead: "backgroundTimeRemaining"
        case .expirationHandlerCalled: "expirationHandler"
        case .backgroundTaskOpenTooLong: "backgroundTaskOpenTooLong"
        case .activityStarted: "activityStarted"
        case .activityStopped: "activityStopped"
        case .activityDenied: "activityDenied"
        case .eventDelivered: "eventDelivered"
        case .eventQueued: "eventQueued"
        case .eventDropped: "eventDropped"
        case .eventWindowStarted: "eventWindowStarted"
        case .remoteNotificationCompleted: "remoteNotificationCompleted"
        case .voipCallReported: "voipCallReported"
        case .keepAliveHandlerCalled: "keepAliveHandler"
        case .notificationDelivered: "notificationDelivered"
        case .notificationQueued: "notificationQueued"
        case .fetchStarted: "performFetch"
        case .fetchCompleted: "fetchCompleted"
        case .fetchCompletionIgnored: "fetchCompletionIgnored"
        case .fetchSkipped: "fetchSkipped"
        case .taskRegistered: "taskRegistered"
        case .taskRegistrationRejected: "taskRegistrationRejected"
        case .taskSubmitted: "taskSubmitted"
        case .taskSubmitRejected: "taskSubmitRejected"
        case .taskRequestCancelled: "taskRequestCancelled"
        case .taskQueued: "taskQueued"
        case .taskProgress: "taskProgress"
        case .taskStarted: "taskStarted"
        case .taskDropped: "taskDropped"
        case .taskExpired: "taskExpired"
        case .taskCompleted: "taskCompleted"
        case .taskCompletionIgnored: "taskCompletionIgnored"
        case .deviceChanged: "deviceChanged"
        case .fileLockAcquired: "fileLockAcquired"
        case .fileLockReleased: "fileLockReleased"
        case .regionMonitoringFailed: "regionMonitoringFailed"
        }
    }

    /// The new state, for state changes.
    public var state: ApplicationState? {
        if case .stateChange(let state, _) = kind { return state }
        return nil
    }

    /// The reason, for state changes and decisions (e.g. `"pressHome"`, `"noBackgroundWork"`, `"watchdog"`).
    public var reason: String? {
        switch kind {
        case .stateChange(_, let cause): cause.reason
        case .exit(let reason, _): reason.rawValue
        case .backgroundTaskDenied(_, let denial): denial.rawValue
        case .backgroundTaskEndIgnored(_, let problem): problem.rawValue
        case .activityDenied(_, let denial): denial.rawValue
        case .eventDropped(_, let reason): reason.rawValue
        case .fetchSkipped(let reason): reason.rawValue
        case .taskRegistrationRejected(_, let why): why.rawValue
        case .taskSubmitRejected(_, let code): code.description
        case .taskDropped: "noLaunchHandler"
        case .taskExpired(_, let why): why.rawValue
        case .taskCompleted(_, let completion): completion.rawValue
        case .regionMonitoringFailed: "tooManyRegions"
        case .taskRegistered, .taskSubmitted, .taskRequestCancelled, .taskQueued, .taskProgress, .taskStarted,
             .taskCompletionIgnored: nil
        case .callback, .sceneCallback, .workDropped, .backgroundTaskBegan, .backgroundTaskEnded, .allowanceStarted, .backgroundTimeRemainingRead,
             .expirationHandlerCalled, .backgroundTaskOpenTooLong, .activityStarted, .activityStopped,
             .eventDelivered, .eventQueued, .eventWindowStarted, .remoteNotificationCompleted, .voipCallReported, .keepAliveHandlerCalled,
             .notificationDelivered, .notificationQueued, .fetchStarted, .fetchCompleted, .fetchCompletionIgnored,
             .deviceChanged, .killedMidCallback, .fileLockAcquired, .fileLockReleased: nil
        }
    }

    /// The termination code as crash reports print it (`"0x8badf00d"`), for exits that have one.
    public var code: String? {
        guard case .exit(_, let code?) = kind else { return nil }
        return formatCode(code)
    }

    /// The background task concerned, for task events.
    public var task: BackgroundTaskIdentifier? {
        switch kind {
        case .backgroundTaskBegan(let task, _), .backgroundTaskEnded(let task), .backgroundTaskEndIgnored(let task, _),
             .expirationHandlerCalled(let task), .backgroundTaskOpenTooLong(let task): task
        default: nil
        }
    }

    /// The name a task, activity or system event carries: the task's name, `"audioPlayback"`,
    /// `"silentPush"`, `"bluetooth(central)"`.
    public var name: String? {
        switch kind {
        case .backgroundTaskBegan(_, let name), .backgroundTaskDenied(let name, _): name
        case .activityStarted(let activity), .activityStopped(let activity), .activityDenied(let activity, _):
            activity.rawValue
        case .eventDelivered(let event), .eventQueued(let event), .eventDropped(let event, _): event.description
        case .notificationDelivered(let notification), .notificationQueued(let notification): notification.description
        case .fetchCompleted(let result), .fetchCompletionIgnored(let result), .remoteNotificationCompleted(let result): result.rawValue
        case .taskRegistered(let id), .taskRegistrationRejected(let id, _), .taskSubmitted(let id),
             .taskSubmitRejected(let id, _), .taskRequestCancelled(let id), .taskQueued(let id), .taskProgress(let id, _, _),
             .taskStarted(let id), .taskDropped(let id),
             .taskExpired(let id, _), .taskCompleted(let id, _), .taskCompletionIgnored(let id): id
        case .deviceChanged(let change): change.name
        case .fileLockAcquired(let path), .fileLockReleased(let path), .regionMonitoringFailed(let path): path
        case .killedMidCallback(let callback): callback.eventName
        case .sceneCallback(_, let scene): scene.rawValue
        default: nil
        }
    }

    /// The event's fields after `t`, `app` and `event`, in their fixed order, with JSON-encoded values.
    var fields: [(key: String, json: String)] {
        var fields: [(key: String, json: String)] = []
        if let state { fields.append(("state", jsonString(state.rawValue))) }
        if let task { fields.append(("task", String(task.rawValue))) }
        if let name { fields.append(("name", jsonString(name))) }
        if let reason { fields.append(("reason", jsonString(reason))) }
        if let code { fields.append(("code", jsonString(code))) }
        switch kind {
        case .allowanceStarted(let expiry), .eventWindowStarted(let expiry):
            fields.append(("until", formatSeconds(expiry.nanoseconds)))
        case .workDropped(let count): fields.append(("count", String(count)))
        case .backgroundTimeRemainingRead(let remaining):
            fields.append(("remaining", remaining.map { formatSeconds($0.nanosecondsSaturating) } ?? "null"))
        case .taskProgress(_, let completed, let total):
            fields.append(("completed", String(completed)))
            fields.append(("total", String(total)))
        case .deviceChanged(let change): fields.append(("value", jsonString(change.value)))
        case .taskRegistrationRejected(_, let why):
            if let message = why.exceptionMessage { fields.append(("message", jsonString(message))) }
        default: break
        }
        return fields
    }

    /// The entry as one line of JSON, keys in a fixed order: `t`, `app`, `event`, then whichever of
    /// `state`, `task`, `name`, `reason`, `code`, `until`, `count`, `remaining`, `completed`, `total`, `value`
    /// and `message` apply.
    public var jsonLine: String {
        var line = "{\"t\":\(formatSeconds(time.nanoseconds)),\"app\":\(jsonString(app.rawValue))"
        line += ",\"event\":\(jsonString(eventName))"
        for field in fields { line += ",\"\(field.key)\":\(field.json)" }
        return line + "}"
    }

    /// A readable one-line form, e.g. `t=12.000s news applicationDidEnterBackground`.
    public var description: String {
        var text = "\(time) \(app) \(eventName)"
        for field in fields { text += " \(field.key)=\(field.json)" }
        return text
    }
}

/// `0x8badf00d`-style lower-case hex with at least eight digits.
func formatCode(_ code: UInt32) -> String {
    let hex = String(code, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex
}

/// A JSON string literal for `text`, escaping what RFC 8259 requires.
package func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
