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
    /// The problems grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
    /// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or
    /// in the `switch`:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .missingKey: print("the key is missing")
    /// case .wrongType(let expected, let found): print("wrong type: \(found), expected \(expected)")
    /// default: print(error)   // `@unknown default` outside this package
    /// }
    /// ```
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Problem: Sendable, Hashable {
        /// The file cannot be read; the string says why (no such file, a directory, no permission).
        case unreadable(String)
        /// The bytes are not an XML or binary property list; the string is the parser's own message, or
        /// says what our checks found and where (a binary object that contains itself, markup that
        /// parsers read in different ways, an encoding other than UTF-8 or UTF-16, a NUL byte).
        case malformed(String)
        /// The root of the property list is not a dictionary; `found` says what it is (`"an array"`).
        case rootNotDictionary(found: String)
        /// A required key is missing; ``InfoPlistError/key`` names it.
        case missingKey
        /// The value at ``InfoPlistError/key`` has the wrong type.
        case wrongType(expected: String, found: String)
        /// A `UIBackgroundModes` string names no mode; the error has the string and its index.
        case unknownBackgroundMode(UnknownBackgroundModeError)
        /// `CFBundleIdentifier` is not a valid bundle identifier; `why` says what is wrong with `value`.
        case invalidBundleIdentifier(String, why: String)
        /// The values nest more than `limit` deep (``InfoPlistLimits/maximumDepth``), which could
        /// exhaust the stack of Foundation's recursive parser. `location` says where the limit is
        /// passed: `line 135, byte 1,267` in XML, `object 9875, byte 29,673` in a binary plist;
        /// ``InfoPlistError/key`` names the root key the deep value belongs to, when there is one.
        case nestedTooDeep(limit: Int, location: String)
        /// The file has `bytes` bytes, more than `limit` (``InfoPlistLimits/maximumBytes``).
        case tooLarge(bytes: Int, limit: Int)
        /// The property list holds more than `limit` objects (``InfoPlistLimits/maximumObjects``):
        /// every value, dictionary key and array element counts, and in a binary plist a value counts
        /// again each time it is referenced.
        case tooManyObjects(limit: Int)
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
        switch problem {
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
