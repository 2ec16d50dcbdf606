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
    /// The problems grow as the model does, so this is a struct with a static member (or, for a problem
    /// with values, a static function) per problem rather than an enum: a new one is not a breaking
    /// change. Compare with `==`, match in a `switch` that has a `default`, and read a problem's values
    /// through the property of its name:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .missingKey("app"): print("no app")
    /// default:
    ///     if let value = error.problem.unknownKey { print("unknown key: \(value)") }
    /// }
    /// ```
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The problems the model knows, with their values, for the package's own exhaustive switches.
        package enum Base: Sendable, Hashable {
            case malformedJSON(String)
            case wrongType(expected: String, found: String)
            case missingKey(String)
            case missingOneOfKeys([String])
            case unknownKey(String, accepted: [String])
            case unknownValue(String, accepted: [String])
            case outOfRange(Double, accepted: String)
            case invalidBundleIdentifier(String)
            case infoPlist(InfoPlistError)
            case idDiffersFromInfoPlist(AppID, bundleIdentifier: AppID)
            case conflictsWithInfoPlist(String, plistKey: String)
            case duplicateApp(AppID, firstPath: String)
            case unknownApp(AppID, declared: [AppID])
            case timeGoesBackwards(seconds: Double, previous: Double)
            case afterEnd(seconds: Double, end: Double)
            case invalidPolicy(PolicyError)
            case eventRefused(LifecycleError)
            case taskNotFound(TaskLookupError)
            case runLimitExceeded(ScenarioRunLimits.Kind, limit: Int, seconds: Double)
        }

        /// The problem, for the package's own exhaustive switches.
        package let base: Base

        package init(_ base: Base) { self.base = base }

        /// The problem's name and values, as Swift prints an enum case (the error's own description is a sentence).
        public var description: String { "\(base)" }

        /// The text is not well-formed JSON; the string says what was found and what was expected.
        public static func malformedJSON(_ value: String) -> Problem { Problem(.malformedJSON(value)) }
        /// What a ``malformedJSON(_:)`` problem carries; `nil` for any other problem.
        public var malformedJSON: String? {
            if case .malformedJSON(let v0) = base { v0 } else { nil }
        }

        /// The value has the wrong JSON type.
        public static func wrongType(expected: String, found: String) -> Problem {
            Problem(.wrongType(expected: expected, found: found))
        }
        /// What a ``wrongType(expected:found:)`` problem carries; `nil` for any other problem.
        public var wrongType: (expected: String, found: String)? {
            if case .wrongType(let v0, let v1) = base { (expected: v0, found: v1) } else { nil }
        }

        /// A required key is missing from the object at ``ScenarioError/path``.
        public static func missingKey(_ value: String) -> Problem { Problem(.missingKey(value)) }
        /// What a ``missingKey(_:)`` problem carries; `nil` for any other problem.
        public var missingKey: String? {
            if case .missingKey(let v0) = base { v0 } else { nil }
        }

        /// The object at ``ScenarioError/path`` needs one of these keys and has none (an app needs
        /// `id` or `infoPlist`).
        public static func missingOneOfKeys(_ value: [String]) -> Problem { Problem(.missingOneOfKeys(value)) }
        /// What a ``missingOneOfKeys(_:)`` problem carries; `nil` for any other problem.
        public var missingOneOfKeys: [String]? {
            if case .missingOneOfKeys(let v0) = base { v0 } else { nil }
        }

        /// The object has a key the format does not know; `accepted` lists the keys it does.
        public static func unknownKey(_ value: String, accepted: [String]) -> Problem {
            Problem(.unknownKey(value, accepted: accepted))
        }
        /// What a ``unknownKey(_:accepted:)`` problem carries; `nil` for any other problem.
        public var unknownKey: (String, accepted: [String])? {
            if case .unknownKey(let v0, let v1) = base { (v0, accepted: v1) } else { nil }
        }

        /// The string is not one of the accepted values (an event name, a preset, a reason).
        public static func unknownValue(_ value: String, accepted: [String]) -> Problem {
            Problem(.unknownValue(value, accepted: accepted))
        }
        /// What a ``unknownValue(_:accepted:)`` problem carries; `nil` for any other problem.
        public var unknownValue: (String, accepted: [String])? {
            if case .unknownValue(let v0, let v1) = base { (v0, accepted: v1) } else { nil }
        }

        /// The number is outside the accepted range; the string says which range.
        public static func outOfRange(_ value: Double, accepted: String) -> Problem {
            Problem(.outOfRange(value, accepted: accepted))
        }
        /// What a ``outOfRange(_:accepted:)`` problem carries; `nil` for any other problem.
        public var outOfRange: (Double, accepted: String)? {
            if case .outOfRange(let v0, let v1) = base { (v0, accepted: v1) } else { nil }
        }

        /// The app identifier is not a valid bundle identifier; the string says why.
        public static func invalidBundleIdentifier(_ value: String) -> Problem {
            Problem(.invalidBundleIdentifier(value))
        }
        /// What a ``invalidBundleIdentifier(_:)`` problem carries; `nil` for any other problem.
        public var invalidBundleIdentifier: String? {
            if case .invalidBundleIdentifier(let v0) = base { v0 } else { nil }
        }

        /// The app's Info.plist cannot be read or is wrong; the error names the file and the plist key.
        public static func infoPlist(_ value: InfoPlistError) -> Problem { Problem(.infoPlist(value)) }
        /// What a ``infoPlist(_:)`` problem carries; `nil` for any other problem.
        public var infoPlist: InfoPlistError? {
            if case .infoPlist(let v0) = base { v0 } else { nil }
        }

        /// The app's `id` is not the `CFBundleIdentifier` of its `infoPlist`.
        public static func idDiffersFromInfoPlist(_ value: AppID, bundleIdentifier: AppID) -> Problem {
            Problem(.idDiffersFromInfoPlist(value, bundleIdentifier: bundleIdentifier))
        }
        /// What a ``idDiffersFromInfoPlist(_:bundleIdentifier:)`` problem carries; `nil` for any other problem.
        public var idDiffersFromInfoPlist: (AppID, bundleIdentifier: AppID)? {
            if case .idDiffersFromInfoPlist(let v0, let v1) = base { (v0, bundleIdentifier: v1) } else { nil }
        }

        /// The app sets a key that its `infoPlist` already sets (`plistKey`); the plist is the one source.
        public static func conflictsWithInfoPlist(_ value: String, plistKey: String) -> Problem {
            Problem(.conflictsWithInfoPlist(value, plistKey: plistKey))
        }
        /// What a ``conflictsWithInfoPlist(_:plistKey:)`` problem carries; `nil` for any other problem.
        public var conflictsWithInfoPlist: (String, plistKey: String)? {
            if case .conflictsWithInfoPlist(let v0, let v1) = base { (v0, plistKey: v1) } else { nil }
        }

        /// Two apps share an identifier; `firstPath` is the first one's path.
        public static func duplicateApp(_ value: AppID, firstPath: String) -> Problem {
            Problem(.duplicateApp(value, firstPath: firstPath))
        }
        /// What a ``duplicateApp(_:firstPath:)`` problem carries; `nil` for any other problem.
        public var duplicateApp: (AppID, firstPath: String)? {
            if case .duplicateApp(let v0, let v1) = base { (v0, firstPath: v1) } else { nil }
        }

        /// An event names an app the scenario does not declare.
        public static func unknownApp(_ value: AppID, declared: [AppID]) -> Problem {
            Problem(.unknownApp(value, declared: declared))
        }
        /// What a ``unknownApp(_:declared:)`` problem carries; `nil` for any other problem.
        public var unknownApp: (AppID, declared: [AppID])? {
            if case .unknownApp(let v0, let v1) = base { (v0, declared: v1) } else { nil }
        }

        /// An event's time is earlier than the event before it.
        public static func timeGoesBackwards(seconds: Double, previous: Double) -> Problem {
            Problem(.timeGoesBackwards(seconds: seconds, previous: previous))
        }
        /// What a ``timeGoesBackwards(seconds:previous:)`` problem carries; `nil` for any other problem.
        public var timeGoesBackwards: (seconds: Double, previous: Double)? {
            if case .timeGoesBackwards(let v0, let v1) = base { (seconds: v0, previous: v1) } else { nil }
        }

        /// An event's time is later than the scenario's `end`.
        public static func afterEnd(seconds: Double, end: Double) -> Problem {
            Problem(.afterEnd(seconds: seconds, end: end))
        }
        /// What a ``afterEnd(seconds:end:)`` problem carries; `nil` for any other problem.
        public var afterEnd: (seconds: Double, end: Double)? {
            if case .afterEnd(let v0, let v1) = base { (seconds: v0, end: v1) } else { nil }
        }

        /// A policy value cannot be used.
        public static func invalidPolicy(_ value: PolicyError) -> Problem { Problem(.invalidPolicy(value)) }
        /// What a ``invalidPolicy(_:)`` problem carries; `nil` for any other problem.
        public var invalidPolicy: PolicyError? {
            if case .invalidPolicy(let v0) = base { v0 } else { nil }
        }

        /// The lifecycle refused the event when the scenario ran; the run stopped there.
        public static func eventRefused(_ value: LifecycleError) -> Problem { Problem(.eventRefused(value)) }
        /// What a ``eventRefused(_:)`` problem carries; `nil` for any other problem.
        public var eventRefused: LifecycleError? {
            if case .eventRefused(let v0) = base { v0 } else { nil }
        }

        /// The run stopped: a `cancelContinuedTask` event named no queued or running task of the app.
        public static func taskNotFound(_ value: TaskLookupError) -> Problem { Problem(.taskNotFound(value)) }
        /// What a ``taskNotFound(_:)`` problem carries; `nil` for any other problem.
        public var taskNotFound: TaskLookupError? {
            if case .taskNotFound(let v0) = base { v0 } else { nil }
        }

        /// The run stopped at `seconds`: it passed its ``ScenarioRunLimits`` (more than `limit` trace
        /// events or clock steps), most likely work that repeats without end.
        public static func runLimitExceeded(_ value: ScenarioRunLimits.Kind, limit: Int, seconds: Double) -> Problem {
            Problem(.runLimitExceeded(value, limit: limit, seconds: seconds))
        }
        /// What a ``runLimitExceeded(_:limit:seconds:)`` problem carries; `nil` for any other problem.
        public var runLimitExceeded: (ScenarioRunLimits.Kind, limit: Int, seconds: Double)? {
            if case .runLimitExceeded(let v0, let v1, let v2) = base { (v0, limit: v1, seconds: v2) } else { nil }
        }
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
        switch problem.base {
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
