/// Why an Info.plist could not be read into an ``AppManifest``, and where.
///
/// Every error names the file (``file``, when the plist came from one) and the key concerned
/// (``key``, with an index for an array element), and ``description`` prints them before the
/// message:
///
/// ```text
/// App/Info.plist: UIBackgroundModes[2]: unknown mode "remote-notifications"; accepted: "audio", … (did you mean "remote-notification"?)
/// App/Info.plist: UIBackgroundModes: expected an array of strings, found a string
/// App/Info.plist: not a valid binary property list (truncated or corrupt): Corrupt top-level info
/// App/Info.plist: Deep: values nest more than 128 deep (at line 135, byte 1,267); an Info.plist nests a few levels
/// ```
///
/// Nothing is half-applied: a plist either gives a whole manifest or this error.
import BackgroundBudgetCore

public struct InfoPlistError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What exactly was wrong.
    ///
    /// The problems grow as the model does, so this is a struct with a static member (or, for a problem
    /// with values, a static function) per problem rather than an enum: a new one is not a breaking
    /// change. Compare with `==`, match in a `switch` that has a `default`, and read a problem's values
    /// through the property of its name:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .missingKey: print("the key is missing")
    /// default:
    ///     if let value = error.problem.wrongType { print("wrong type: \(value)") }
    /// }
    /// ```
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The problems the model knows, with their values, for the package's own exhaustive switches.
        package enum Base: Sendable, Hashable {
            case unreadable(String)
            case malformed(String)
            case rootNotDictionary(found: String)
            case missingKey
            case wrongType(expected: String, found: String)
            case unknownBackgroundMode(UnknownBackgroundModeError)
            case invalidBundleIdentifier(String, why: String)
            case nestedTooDeep(limit: Int, location: String)
            case tooLarge(bytes: Int, limit: Int)
            case tooManyObjects(limit: Int)
        }

        /// The problem, for the package's own exhaustive switches.
        package let base: Base

        package init(_ base: Base) { self.base = base }

        /// The problem's name and values, as Swift prints an enum case (the error's own description is a sentence).
        public var description: String { "\(base)" }

        /// The file cannot be read; the string says why (no such file, a directory, no permission).
        public static func unreadable(_ value: String) -> Problem { Problem(.unreadable(value)) }
        /// What a ``unreadable(_:)`` problem carries; `nil` for any other problem.
        public var unreadable: String? {
            if case .unreadable(let v0) = base { v0 } else { nil }
        }

        /// The bytes are not an XML or binary property list; the string is the parser's own message, or
        /// says what our checks found and where (a binary object that contains itself, markup that
        /// parsers read in different ways, an encoding other than UTF-8 or UTF-16, a NUL byte).
        public static func malformed(_ value: String) -> Problem { Problem(.malformed(value)) }
        /// What a ``malformed(_:)`` problem carries; `nil` for any other problem.
        public var malformed: String? {
            if case .malformed(let v0) = base { v0 } else { nil }
        }

        /// The root of the property list is not a dictionary; `found` says what it is (`"an array"`).
        public static func rootNotDictionary(found: String) -> Problem { Problem(.rootNotDictionary(found: found)) }
        /// What a ``rootNotDictionary(found:)`` problem carries; `nil` for any other problem.
        public var rootNotDictionary: String? {
            if case .rootNotDictionary(let v0) = base { v0 } else { nil }
        }

        /// A required key is missing; ``InfoPlistError/key`` names it.
        public static let missingKey = Problem(.missingKey)

        /// The value at ``InfoPlistError/key`` has the wrong type.
        public static func wrongType(expected: String, found: String) -> Problem {
            Problem(.wrongType(expected: expected, found: found))
        }
        /// What a ``wrongType(expected:found:)`` problem carries; `nil` for any other problem.
        public var wrongType: (expected: String, found: String)? {
            if case .wrongType(let v0, let v1) = base { (expected: v0, found: v1) } else { nil }
        }

        /// A `UIBackgroundModes` string names no mode; the error has the string and its index.
        public static func unknownBackgroundMode(_ value: UnknownBackgroundModeError) -> Problem {
            Problem(.unknownBackgroundMode(value))
        }
        /// What a ``unknownBackgroundMode(_:)`` problem carries; `nil` for any other problem.
        public var unknownBackgroundMode: UnknownBackgroundModeError? {
            if case .unknownBackgroundMode(let v0) = base { v0 } else { nil }
        }

        /// `CFBundleIdentifier` is not a valid bundle identifier; `why` says what is wrong with `value`.
        public static func invalidBundleIdentifier(_ value: String, why: String) -> Problem {
            Problem(.invalidBundleIdentifier(value, why: why))
        }
        /// What a ``invalidBundleIdentifier(_:why:)`` problem carries; `nil` for any other problem.
        public var invalidBundleIdentifier: (String, why: String)? {
            if case .invalidBundleIdentifier(let v0, let v1) = base { (v0, why: v1) } else { nil }
        }

        /// The values nest more than `limit` deep (``InfoPlistLimits/maximumDepth``), which could
        /// exhaust the stack of Foundation's recursive parser. `location` says where the limit is
        /// passed: `line 135, byte 1,267` in XML, `object 9875, byte 29,673` in a binary plist;
        /// ``InfoPlistError/key`` names the root key the deep value belongs to, when there is one.
        public static func nestedTooDeep(limit: Int, location: String) -> Problem {
            Problem(.nestedTooDeep(limit: limit, location: location))
        }
        /// What a ``nestedTooDeep(limit:location:)`` problem carries; `nil` for any other problem.
        public var nestedTooDeep: (limit: Int, location: String)? {
            if case .nestedTooDeep(let v0, let v1) = base { (limit: v0, location: v1) } else { nil }
        }

        /// The file has `bytes` bytes, more than `limit` (``InfoPlistLimits/maximumBytes``).
        public static func tooLarge(bytes: Int, limit: Int) -> Problem {
            Problem(.tooLarge(bytes: bytes, limit: limit))
        }
        /// What a ``tooLarge(bytes:limit:)`` problem carries; `nil` for any other problem.
        public var tooLarge: (bytes: Int, limit: Int)? {
            if case .tooLarge(let v0, let v1) = base { (bytes: v0, limit: v1) } else { nil }
        }

        /// The property list holds more than `limit` objects (``InfoPlistLimits/maximumObjects``):
        /// every value, dictionary key and array element counts, and in a binary plist a value counts
        /// again each time it is referenced.
        public static func tooManyObjects(limit: Int) -> Problem { Problem(.tooManyObjects(limit: limit)) }
        /// What a ``tooManyObjects(limit:)`` problem carries; `nil` for any other problem.
        public var tooManyObjects: Int? {
            if case .tooManyObjects(let v0) = base { v0 } else { nil }
        }
    }

    /// What was wrong.
    public var problem: Problem
    /// The key concerned, with the index of an array element: `UIBackgroundModes[2]`. `nil` when the
    /// problem is the whole file.
    public var key: String?
    /// The path of the file, when the plist was read from one.
    public var file: String?

    /// Creates an error.
    /// - Parameters:
    ///   - problem: What was wrong.
    ///   - key: The key concerned, if any: `UIBackgroundModes[2]`.
    ///   - file: The file's path, if known.
    public init(_ problem: Problem, key: String? = nil, file: String? = nil) {
        self.problem = problem
        self.key = key
        self.file = file
    }

    /// What was wrong, without the file and key: `expected an array of strings, found a string`.
    public var message: String {
        switch problem.base {
        case .unreadable(let why):
            return "cannot read the file: \(why)"
        case .malformed(let what):
            return what
        case .rootNotDictionary(let found):
            return "expected a dictionary at the root, found \(found)"
        case .missingKey:
            return "missing required key"
        case .wrongType(let expected, let found):
            return "expected \(expected), found \(found)"
        case .unknownBackgroundMode(let error):
            let accepted = BackgroundModes.all.map(\.plistValue)
            return "unknown mode \"\(error.value)\"; accepted: " + accepted.map { "\"\($0)\"" }.joined(separator: ", ")
                + suggestion(for: error.value, among: accepted)
        case .invalidBundleIdentifier(let value, let why):
            // An Info.plist from an Xcode project, before the build expanded its settings.
            let hint = value.contains("$(") || value.contains("${")
                ? "; it looks like a build setting that Xcode expands when it builds the app: use the built app's Info.plist"
                : ""
            return "\"\(value)\" is not a valid bundle identifier: it \(why)\(hint)"
        case .nestedTooDeep(let limit, let location):
            return "values nest more than \(limit) deep (at \(location)); an Info.plist nests a few levels"
        case .tooLarge(let bytes, let limit):
            return "the file is \(InfoPlistLimits.grouped(bytes)) bytes, more than the "
                + "\(InfoPlistLimits.grouped(limit)) an Info.plist may have"
        case .tooManyObjects(let limit):
            return "more than \(InfoPlistLimits.grouped(limit)) values, keys and elements; "
                + "an Info.plist has a few hundred"
        }
    }

    /// `file: key: message`, leaving out the parts that are not known.
    public var description: String {
        var text = ""
        if let file { text += file + ": " }
        if let key { text += key + ": " }
        return text + message
    }
}
