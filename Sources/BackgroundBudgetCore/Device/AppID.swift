import BudgetTime

/// An app's identity on the device: its bundle identifier (`CFBundleIdentifier`).
///
/// ```swift
/// let id: AppID = "com.example.news"
/// ```
///
/// A bundle identifier may contain only ASCII letters, digits, hyphens and periods
/// (Information Property List reference, `CFBundleIdentifier`). The literal initialiser accepts
/// anything so that tests stay short; `BackgroundSystem.install(_:delegate:)` checks the identifier
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
    package var validationProblem: String? {
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
