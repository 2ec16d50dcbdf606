/// An app's identity on the device: its bundle identifier (`CFBundleIdentifier`).
///
/// ```swift
/// let id: AppID = "com.example.news"
/// ```
///
/// A bundle identifier may contain only ASCII letters, digits, hyphens and periods
/// (Information Property List reference, `CFBundleIdentifier`). The literal initialiser accepts
/// anything so that tests stay short; ``BackgroundSystem/install(_:delegate:)`` checks the identifier
/// and refuses an invalid one with ``InstallError``.
public struct AppID: RawRepresentable, Sendable, Hashable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The bundle identifier.
    public var rawValue: String

    /// Creates an identifier from a bundle identifier string.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates an identifier from a string literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The bundle identifier.
    public var description: String { rawValue }

    /// Orders identifiers by their strings.
    public static func < (lhs: AppID, rhs: AppID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Why this is not a valid bundle identifier, or `nil` when it is.
    var validationProblem: String? {
        if rawValue.isEmpty { return "is empty" }
        if rawValue.utf8.count > 255 { return "is longer than 255 bytes" }
        if let bad = rawValue.unicodeScalars.first(where: { !Self.allowed($0) }) {
            return "contains \"\(bad.escaped(asASCII: true))\"; only letters, digits, '-' and '.' are allowed"
        }
        return nil
    }

    private static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", ".": true
        default: false
        }
    }
}

/// What the system knows about an installed app: the Info.plist keys that shape its lifecycle.
///
/// ```swift
/// let manifest = AppManifest(id: "com.example.statelab", displayName: "State Lab")
/// ```
public struct AppManifest: Sendable, Hashable {
    /// The bundle identifier (`CFBundleIdentifier`).
    public var id: AppID
    /// The name shown under the icon and in log lines (`CFBundleDisplayName`); defaults to the identifier.
    public var displayName: String
    /// `UIApplicationExitsOnSuspend`: the app terminates instead of running in the background or being
    /// suspended (IOS-FACTS §7; unsupported by Apple from iOS 13, honoured here under every policy).
    public var exitsOnSuspend: Bool

    /// Creates a manifest.
    /// - Parameters:
    ///   - id: The bundle identifier.
    ///   - displayName: The display name; `nil` uses the identifier.
    ///   - exitsOnSuspend: The `UIApplicationExitsOnSuspend` flag.
    public init(id: AppID, displayName: String? = nil, exitsOnSuspend: Bool = false) {
        self.id = id
        self.displayName = displayName ?? id.rawValue
        self.exitsOnSuspend = exitsOnSuspend
    }
}

/// A manifest the system refused to install. Nothing was installed.
public struct InstallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Problem: Sendable, Hashable {
        /// The bundle identifier is not valid; the string says why.
        case invalidBundleIdentifier(String)
        /// An app with this identifier is already installed.
        case alreadyInstalled
    }

    /// The identifier of the manifest that was refused.
    public var app: AppID
    /// What was wrong.
    public var problem: Problem

    /// Creates an error.
    public init(app: AppID, problem: Problem) {
        self.app = app
        self.problem = problem
    }

    /// A sentence naming the key and what was wrong with it.
    public var description: String {
        switch problem {
        case .invalidBundleIdentifier(let why):
            "CFBundleIdentifier \"\(app.rawValue)\" \(why)"
        case .alreadyInstalled:
            "an app with CFBundleIdentifier \"\(app.rawValue)\" is already installed"
        }
    }
}
