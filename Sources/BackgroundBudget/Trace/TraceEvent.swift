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
        /// The app's state changed because of an event; the event is the reason.
        case stateChange(ApplicationState, cause: LifecycleEvent)
        /// The app's process exited (a decision with a reason and, for kills, a termination code).
        case exit(TerminationReason, code: UInt32?)
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
    /// (`"applicationWillResignActive"`), `"stateChange"`, or `"exit"`.
    public var eventName: String {
        switch kind {
        case .callback(let callback): callback.eventName
        case .stateChange: "stateChange"
        case .exit: "exit"
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
        case .callback: nil
        case .stateChange(_, let cause): cause.reason
        case .exit(let reason, _): reason.rawValue
        }
    }

    /// The termination code as crash reports print it (`"0x8badf00d"`), for exits that have one.
    public var code: String? {
        guard case .exit(_, let code?) = kind else { return nil }
        return formatCode(code)
    }

    /// The entry as one line of JSON, keys in a fixed order: `t`, `app`, `event`, then `state`,
    /// `reason` and `code` when present.
    public var jsonLine: String {
        var line = "{\"t\":\(formatSeconds(time.nanoseconds)),\"app\":\(jsonString(app.rawValue))"
        line += ",\"event\":\(jsonString(eventName))"
        if let state { line += ",\"state\":\(jsonString(state.rawValue))" }
        if let reason { line += ",\"reason\":\(jsonString(reason))" }
        if let code { line += ",\"code\":\(jsonString(code))" }
        return line + "}"
    }

    /// A readable one-line form, e.g. `t=12.000s news applicationDidEnterBackground`.
    public var description: String {
        var text = "\(time) \(app) \(eventName)"
        if let state { text += " \(state)" }
        if let reason { text += " (\(reason)\(code.map { " \($0)" } ?? ""))" }
        return text
    }
}

/// `0x8badf00d`-style lower-case hex with at least eight digits.
func formatCode(_ code: UInt32) -> String {
    let hex = String(code, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex
}

/// A JSON string literal for `text`, escaping what RFC 8259 requires.
func jsonString(_ text: String) -> String {
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
