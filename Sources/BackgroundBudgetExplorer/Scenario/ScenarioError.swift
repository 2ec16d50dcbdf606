import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// Why a scenario file was refused, or why its run failed, and where.
///
/// Every error names the JSONPath of the value concerned (``path``, e.g. `$.events[3].do`) and, for a
/// scenario read from text, its line and column (``position``). ``description`` prints all of it the
/// way compilers do, so editors can jump to the place:
///
/// ```text
/// lunch.json:14:27: error: $.events[3].do: unknown value "hme"; accepted: "launch", "open", … (did you mean "home"?)
/// ```
///
/// Nothing is run for a scenario that fails to decode; a run that fails at an event returns this
/// error instead of a trace, never a partial trace.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What exactly was wrong.
    ///
    /// The problems grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or
    /// in the `switch`:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .missingKey("app"): print("no app")
    /// case .unknownKey(let key, accepted: _): print("unknown key: \(key)")
    /// default: print(error)   // `@unknown default` outside this package
    /// }
    /// ```
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Problem: Sendable, Hashable {
        /// The text is not well-formed JSON; the string says what was found and what was expected.
        case malformedJSON(String)
        /// The value has the wrong JSON type.
        case wrongType(expected: String, found: String)
        /// A required key is missing from the object at ``ScenarioError/path``.
        case missingKey(String)
        /// The object at ``ScenarioError/path`` needs one of these keys and has none (an app needs
        /// `id` or `infoPlist`).
        case missingOneOfKeys([String])
        /// The object has a key the format does not know; `accepted` lists the keys it does.
        case unknownKey(String, accepted: [String])
        /// The string is not one of the accepted values (an event name, a preset, a reason).
        case unknownValue(String, accepted: [String])
        /// The number is outside the accepted range; the string says which range.
        case outOfRange(Double, accepted: String)
        /// The app identifier is not a valid bundle identifier; the string says why.
        case invalidBundleIdentifier(String)
        /// The app's Info.plist cannot be read or is wrong; the error names the file and the plist key.
        case infoPlist(InfoPlistError)
        /// The app's `id` is not the `CFBundleIdentifier` of its `infoPlist`.
        case idDiffersFromInfoPlist(AppID, bundleIdentifier: AppID)
        /// The app sets a key that its `infoPlist` already sets (`plistKey`); the plist is the one source.
        case conflictsWithInfoPlist(String, plistKey: String)
        /// Two apps share an identifier; `firstPath` is the first one's path.
        case duplicateApp(AppID, firstPath: String)
        /// An event names an app the scenario does not declare.
        case unknownApp(AppID, declared: [AppID])
        /// An event's time is earlier than the event before it.
        case timeGoesBackwards(seconds: Double, previous: Double)
        /// An event's time is later than the scenario's `end`.
        case afterEnd(seconds: Double, end: Double)
        /// A policy value cannot be used.
        case invalidPolicy(PolicyError)
        /// The lifecycle refused the event when the scenario ran; the run stopped there.
        case eventRefused(LifecycleError)
        /// The run stopped: a `cancelContinuedTask` event named no queued or running task of the app.
        case taskNotFound(TaskLookupError)
        /// The run stopped at `seconds`: it passed its ``ScenarioRunLimits`` (more than `limit` trace
        /// events or clock steps), most likely work that repeats without end.
        case runLimitExceeded(ScenarioRunLimits.Kind, limit: Int, seconds: Double)
        /// A step that reads the scene whose callback runs it (`readRestorationActivity`) is where no
        /// scene callback runs it: in an app without `scenes`, in an app-delegate-only callback, for a
        /// system event, in a notification observer, or in a `task` or `queue`'s `then`.
        case outsideSceneCallback(String)
    }

    /// What was wrong.
    public var problem: Problem
    /// The JSONPath of the value concerned, e.g. `$.events[3].do`; `$` is the whole document.
    public var path: String
    /// The value's line and column in the scenario text, or `nil` for a scenario built in code.
    public var position: SourcePosition?
    /// The file name printed before the position, if known (the command-line tool sets it).
    public var file: String?

    /// Creates an error.
    /// - Parameters:
    ///   - problem: What was wrong.
    ///   - path: The JSONPath of the value concerned.
    ///   - position: Its line and column, if known.
    ///   - file: The file name, if known.
    public init(_ problem: Problem, path: String, position: SourcePosition? = nil, file: String? = nil) {
        self.problem = problem
        self.path = path
        self.position = position
        self.file = file
    }

    /// What was wrong, without the place: `unknown value "hme"; accepted: …`.
    public var message: String {
        switch problem {
        case .malformedJSON(let what):
            return "malformed JSON: \(what)"
        case .wrongType(let expected, let found):
            return "expected \(expected), found \(found)"
        case .missingKey(let key):
            return "missing required key \"\(key)\""
        case .missingOneOfKeys(let keys):
            return "missing required key: one of \(quoted(keys))"
        case .unknownKey(let key, let accepted):
            let list = accepted.isEmpty ? "this object takes no keys yet" : "accepted: \(quoted(accepted))"
            return "unknown key \"\(clip(key))\"; \(list)\(suggestion(for: key, among: accepted))"
        case .unknownValue(let value, let accepted):
            return "unknown value \"\(clip(value))\"; accepted: \(quoted(accepted))\(suggestion(for: value, among: accepted))"
        case .outOfRange(let value, let accepted):
            return "\(plainNumber(value)) is out of range; accepted: \(accepted)"
        case .invalidBundleIdentifier(let why):
            return "not a valid bundle identifier: it \(why)"
        case .infoPlist(var error):
            // The path comes from the scenario: whole, unless it is longer than any real path.
            error.file = error.file.map { BoundedText.clipped($0, limit: 1024) }
            return error.description
        case .idDiffersFromInfoPlist(let id, let bundleIdentifier):
            return "id \"\(clip(id.rawValue))\" differs from the Info.plist's CFBundleIdentifier \"\(clip(bundleIdentifier.rawValue))\"; "
                + "leave \"id\" out or make them equal"
        case .conflictsWithInfoPlist(let key, let plistKey):
            return "\"\(key)\" cannot be combined with \"infoPlist\": the Info.plist's \(plistKey) applies; "
                + "change it there, or describe the app without \"infoPlist\""
        case .duplicateApp(let id, let firstPath):
            return "an app with id \"\(clip(id.rawValue))\" is already declared at \(firstPath)"
        case .unknownApp(let id, let declared):
            return "no app with id \"\(clip(id.rawValue))\" is declared; declared: \(quoted(declared.map(\.rawValue)))"
                + suggestion(for: id.rawValue, among: declared.map(\.rawValue))
        case .timeGoesBackwards(let seconds, let previous):
            return "time goes backwards: \(plainNumber(seconds)) s is before the previous event's \(plainNumber(previous)) s"
        case .afterEnd(let seconds, let end):
            return "the event at \(plainNumber(seconds)) s is after the scenario's end at \(plainNumber(end)) s ($.end)"
        case .invalidPolicy(let error):
            return "invalid policy: \(error)"
        case .eventRefused(let error):
            return "the run stopped: \(error)"
        case .taskNotFound(let error):
            return "the run stopped: \(error)"
        case .runLimitExceeded(let kind, let limit, let seconds):
            let what = kind == .traceEvents ? "trace events" : "clock steps"
            return "the run stopped at \(plainNumber(seconds)) s: more than \(limit) \(what) (the run's limit; "
                + "look for work that repeats without end, or raise ScenarioRunLimits)"
        case .outsideSceneCallback(let step):
            return "\"\(step)\" reads the scene whose callback runs it: it is accepted only directly in a scene callback "
                + "(scene:willConnectToSession:options, sceneDidDisconnect, or the foreground and background callbacks "
                + "of an app with \"scenes\")"
        }
    }

    /// `file:line:column: error: path: message`, leaving out the parts that are not known.
    public var description: String {
        var place = ""
        if let file { place += file + ":" }
        if let position { place += "\(position):" }
        return (place.isEmpty ? "" : place + " ") + "error: \(path): \(message)"
    }

    /// At most ``BoundedText/listLimit`` names, then `… and N more`.
    private func quoted(_ values: [String]) -> String {
        BoundedText.quotedList(values)
    }

    /// A string from the input, clipped to ``BoundedText/quoteLimit`` characters.
    private func clip(_ text: String) -> String {
        BoundedText.clipped(text)
    }
}
