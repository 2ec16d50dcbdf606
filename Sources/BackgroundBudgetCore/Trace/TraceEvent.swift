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
        case .backgroundTaskBegan: "beginBackgroundTask"
        case .backgroundTaskDenied: "beginBackgroundTaskDenied"
        case .backgroundTaskEnded: "endBackgroundTask"
        case .backgroundTaskEndIgnored: "endBackgroundTaskIgnored"
        case .backgroundTimeRemainingRead: "backgroundTimeRemaining"
        case .expirationHandlerCalled: "expirationHandler"
        case .keepAliveHandlerCalled: "keepAliveHandler"
        case .fetchStarted: "performFetch"
        default: kind.tag.rawValue   // every other kind is written with its case's name
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
             .taskCompletionIgnored, .launchHandlerMissing: nil
        case .callback, .sceneCallback, .workDropped, .backgroundTaskBegan, .backgroundTaskEnded, .allowanceStarted, .backgroundTimeRemainingRead,
             .expirationHandlerCalled, .backgroundTaskOpenTooLong, .activityStarted, .activityStopped,
             .eventDelivered, .eventQueued, .eventWindowStarted, .remoteNotificationCompleted, .voipCallReported, .keepAliveHandlerCalled,
             .notificationDelivered, .notificationQueued, .fetchStarted, .fetchCompleted, .fetchCompletionIgnored,
             .deviceChanged, .killedMidCallback, .killedMidSceneCallback, .fileLockAcquired, .fileLockReleased, .notificationObserved,
             .restorationActivityRead: nil
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
             .taskStarted(let id), .taskDropped(let id), .launchHandlerMissing(let id),
             .taskExpired(let id, _), .taskCompleted(let id, _), .taskCompletionIgnored(let id): id
        case .deviceChanged(let change): change.name
        case .fileLockAcquired(let path), .fileLockReleased(let path), .regionMonitoringFailed(let path): path
        case .killedMidCallback(let callback): callback.eventName
        case .killedMidSceneCallback(let callback, _): callback.eventName
        case .sceneCallback(_, let scene), .restorationActivityRead(_, let scene): scene.rawValue
        case .notificationObserved(let notification, _): notification
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
        case .workDropped(let count), .notificationObserved(_, let count): fields.append(("count", String(count)))
        case .backgroundTimeRemainingRead(let remaining):
            fields.append(("remaining", remaining.map { formatSeconds($0.nanosecondsSaturating) } ?? "null"))
        case .taskProgress(_, let completed, let total):
            fields.append(("completed", String(completed)))
            fields.append(("total", String(total)))
        case .deviceChanged(let change): fields.append(("value", jsonString(change.value)))
        case .restorationActivityRead(let activityType, _): fields.append(("activityType", activityType.map(jsonString) ?? "null"))
        case .taskRegistrationRejected(_, let why):
            if let message = why.exceptionMessage { fields.append(("message", jsonString(message))) }
        case .launchHandlerMissing(let id):
            fields.append(("message", jsonString(TraceEvent.Kind.launchHandlerMissingMessage(id))))
        default: break
        }
        return fields
    }

    /// The entry as one line of JSON, keys in a fixed order: `t`, `app`, `event`, then whichever of
    /// `state`, `task`, `name`, `reason`, `code`, `until`, `count`, `remaining`, `completed`, `total`, `value`,
    /// `activityType` and `message` apply.
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
