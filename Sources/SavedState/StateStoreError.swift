#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Why a ``StateStore`` could not save, or could not use a saved file, and which file.
///
/// ``description`` names the file first, the way compilers do, then says what was wrong:
///
/// ```text
/// /…/Application Support/draft.state: checksum mismatch: the header says 0x1C291CA3, the payload's is 0x8A9B3C1D
/// /…/Application Support/draft.state.tmp: open failed: Permission denied (errno 13)
/// /…/Application Support/draft.state: cannot decode the saved JSON at $.items[2].title: expected String, found a number
/// ```
///
/// ``StateStore/load()`` reports a damaged file through ``StateStoreIssue`` and carries on with the
/// previous good copy; it throws a ``Problem/noGoodCopy(_:)`` error only when no copy can be used.
///
/// ```swift
/// do {
///     try store.save(draft)
/// } catch {
///     logger.error("\(error)")         // the state on disk is still the one saved before
/// }
/// ```
public struct StateStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What exactly was wrong.
    ///
    /// The problems grow as the model does, so this is a struct with a static member (or, for a problem
    /// with values, a static function) per problem rather than an enum: a new one is not a breaking
    /// change. Compare with `==`, match in a `switch` that has a `default`, and read a problem's values
    /// through the property of its name:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .missing: print("nothing saved yet")
    /// default:
    ///     if let value = error.problem.io { print("failed: \(value)") }
    /// }
    /// ```
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The problems the model knows, with their values, for the package's own exhaustive switches.
        package enum Base: Sendable, Hashable {
            case badMagic(found: [UInt8])
            case unsupportedVersion(found: UInt32, supported: UInt32)
            case truncated(expectedBytes: UInt64, foundBytes: UInt64)
            case lengthMismatch(expectedBytes: UInt64, foundBytes: UInt64)
            case headerChecksumMismatch(stored: UInt32, computed: UInt32)
            case checksumMismatch(stored: UInt32, computed: UInt32)
            case decodingFailed(codingPath: String, reason: String)
            case encodingFailed(codingPath: String, reason: String)
            case io(operation: String, errno: Int32)
            case missing
            case invalidName(String)
            case noGoodCopy([StateStoreIssue])
            case notARegularFile(FileKind)
            case tooLarge(bytes: UInt64, limit: UInt64)
            case lockTimeout(waited: Duration)
            case invalidSetting(String)
        }

        /// The problem, for the package's own exhaustive switches.
        package let base: Base

        package init(_ base: Base) { self.base = base }

        /// The problem's name and values, as Swift prints an enum case (the error's own description is a sentence).
        public var description: String { "\(base)" }

        /// The file does not start with the state file signature; `found` holds its first bytes (at
        /// most eight).
        public static func badMagic(found: [UInt8]) -> Problem { Problem(.badMagic(found: found)) }
        /// What a ``badMagic(found:)`` problem carries; `nil` for any other problem.
        public var badMagic: [UInt8]? {
            if case .badMagic(let v0) = base { v0 } else { nil }
        }

        /// The file was written in a format version this library does not read.
        public static func unsupportedVersion(found: UInt32, supported: UInt32) -> Problem {
            Problem(.unsupportedVersion(found: found, supported: supported))
        }
        /// What an ``unsupportedVersion(found:supported:)`` problem carries; `nil` for any other problem.
        public var unsupportedVersion: (found: UInt32, supported: UInt32)? {
            if case .unsupportedVersion(let v0, let v1) = base { (found: v0, supported: v1) } else { nil }
        }

        /// The file ends early: a write that never finished, or a file cut short.
        public static func truncated(expectedBytes: UInt64, foundBytes: UInt64) -> Problem {
            Problem(.truncated(expectedBytes: expectedBytes, foundBytes: foundBytes))
        }
        /// What a ``truncated(expectedBytes:foundBytes:)`` problem carries; `nil` for any other problem.
        public var truncated: (expectedBytes: UInt64, foundBytes: UInt64)? {
            if case .truncated(let v0, let v1) = base { (expectedBytes: v0, foundBytes: v1) } else { nil }
        }

        /// The file is longer than its header says.
        public static func lengthMismatch(expectedBytes: UInt64, foundBytes: UInt64) -> Problem {
            Problem(.lengthMismatch(expectedBytes: expectedBytes, foundBytes: foundBytes))
        }
        /// What a ``lengthMismatch(expectedBytes:foundBytes:)`` problem carries; `nil` for any other problem.
        public var lengthMismatch: (expectedBytes: UInt64, foundBytes: UInt64)? {
            if case .lengthMismatch(let v0, let v1) = base { (expectedBytes: v0, foundBytes: v1) } else { nil }
        }

        /// The header's own checksum does not match its bytes: the header is damaged.
        public static func headerChecksumMismatch(stored: UInt32, computed: UInt32) -> Problem {
            Problem(.headerChecksumMismatch(stored: stored, computed: computed))
        }
        /// What a ``headerChecksumMismatch(stored:computed:)`` problem carries; `nil` for any other problem.
        public var headerChecksumMismatch: (stored: UInt32, computed: UInt32)? {
            if case .headerChecksumMismatch(let v0, let v1) = base { (stored: v0, computed: v1) } else { nil }
        }

        /// The payload's checksum does not match the one in the header: the payload is damaged.
        public static func checksumMismatch(stored: UInt32, computed: UInt32) -> Problem {
            Problem(.checksumMismatch(stored: stored, computed: computed))
        }
        /// What a ``checksumMismatch(stored:computed:)`` problem carries; `nil` for any other problem.
        public var checksumMismatch: (stored: UInt32, computed: UInt32)? {
            if case .checksumMismatch(let v0, let v1) = base { (stored: v0, computed: v1) } else { nil }
        }

        /// The payload is intact but does not decode as the store's value type; `codingPath` is a
        /// JSONPath such as `$.items[2].title` (`$` is the whole value).
        public static func decodingFailed(codingPath: String, reason: String) -> Problem {
            Problem(.decodingFailed(codingPath: codingPath, reason: reason))
        }
        /// What a ``decodingFailed(codingPath:reason:)`` problem carries; `nil` for any other problem.
        public var decodingFailed: (codingPath: String, reason: String)? {
            if case .decodingFailed(let v0, let v1) = base { (codingPath: v0, reason: v1) } else { nil }
        }

        /// The value could not be encoded as JSON (a non-finite `Double`, an `encode(to:)` that throws).
        public static func encodingFailed(codingPath: String, reason: String) -> Problem {
            Problem(.encodingFailed(codingPath: codingPath, reason: reason))
        }
        /// What an ``encodingFailed(codingPath:reason:)`` problem carries; `nil` for any other problem.
        public var encodingFailed: (codingPath: String, reason: String)? {
            if case .encodingFailed(let v0, let v1) = base { (codingPath: v0, reason: v1) } else { nil }
        }

        /// A system call failed; `operation` names it (`open`, `write`, `fsync`, `rename`, …) and
        /// `errno` is its error number.
        public static func io(operation: String, errno: Int32) -> Problem {
            Problem(.io(operation: operation, errno: errno))
        }
        /// What an ``io(operation:errno:)`` problem carries; `nil` for any other problem.
        public var io: (operation: String, errno: Int32)? {
            if case .io(let v0, let v1) = base { (operation: v0, errno: v1) } else { nil }
        }

        /// The file does not exist although an older copy does: a save was interrupted after it had
        /// kept the previous copy and before it installed the new one.
        public static let missing = Problem(.missing)

        /// The store's name cannot be used as a file name; the string says why.
        public static func invalidName(_ value: String) -> Problem { Problem(.invalidName(value)) }
        /// What an ``invalidName(_:)`` problem carries; `nil` for any other problem.
        public var invalidName: String? {
            if case .invalidName(let v0) = base { v0 } else { nil }
        }

        /// No saved copy could be used; each issue says what was wrong with one file and where that
        /// file is now.
        public static func noGoodCopy(_ value: [StateStoreIssue]) -> Problem { Problem(.noGoodCopy(value)) }
        /// What a ``noGoodCopy(_:)`` problem carries; `nil` for any other problem.
        public var noGoodCopy: [StateStoreIssue]? {
            if case .noGoodCopy(let v0) = base { v0 } else { nil }
        }

        /// Something other than a regular file is at one of the store's names: a folder, a named
        /// pipe, a symbolic link, a device or a socket. The store never reads, follows or writes
        /// through it; it sets it aside.
        public static func notARegularFile(_ value: FileKind) -> Problem { Problem(.notARegularFile(value)) }
        /// What a ``notARegularFile(_:)`` problem carries; `nil` for any other problem.
        public var notARegularFile: FileKind? {
            if case .notARegularFile(let v0) = base { v0 } else { nil }
        }

        /// The file (or, for a save, the framed value) is larger than the store's
        /// ``StateStore/maximumFileSize``; for a file, the size its header declares.
        public static func tooLarge(bytes: UInt64, limit: UInt64) -> Problem {
            Problem(.tooLarge(bytes: bytes, limit: limit))
        }
        /// What a ``tooLarge(bytes:limit:)`` problem carries; `nil` for any other problem.
        public var tooLarge: (bytes: UInt64, limit: UInt64)? {
            if case .tooLarge(let v0, let v1) = base { (bytes: v0, limit: v1) } else { nil }
        }

        /// Another writer held the store's lock file for longer than the store's
        /// ``StateStore/lockTimeout``; nothing was changed.
        public static func lockTimeout(waited: Duration) -> Problem { Problem(.lockTimeout(waited: waited)) }
        /// What a ``lockTimeout(waited:)`` problem carries; `nil` for any other problem.
        public var lockTimeout: Duration? {
            if case .lockTimeout(let v0) = base { v0 } else { nil }
        }

        /// A setting passed to ``StateStore/init(directory:name:maximumFileSize:lockTimeout:)`` is out
        /// of range; the string says which and why.
        public static func invalidSetting(_ value: String) -> Problem { Problem(.invalidSetting(value)) }
        /// What an ``invalidSetting(_:)`` problem carries; `nil` for any other problem.
        public var invalidSetting: String? {
            if case .invalidSetting(let v0) = base { v0 } else { nil }
        }
    }

    /// What kind of thing other than a regular file was found at one of a store's names.
    ///
    /// The set is closed: the kinds of file `stat` reports besides a regular file, with ``other`` for any
    /// the platform adds, so a `switch` over it needs no `default`.
    public enum FileKind: String, Sendable, Hashable, CaseIterable {
        /// A folder.
        case directory = "a folder"
        /// A named pipe (FIFO): opening it for reading would wait for a writer.
        case fifo = "a named pipe (FIFO)"
        /// A symbolic link, which the store never follows.
        case symbolicLink = "a symbolic link"
        /// A character device such as `/dev/zero`.
        case characterDevice = "a character device"
        /// A block device.
        case blockDevice = "a block device"
        /// A socket.
        case socket = "a socket"
        /// Any other kind of file.
        case other = "not a regular file"
    }

    /// What was wrong.
    public var problem: Problem
    /// The file (or folder) concerned.
    public var path: String

    /// Creates an error.
    /// - Parameters:
    ///   - problem: What was wrong.
    ///   - path: The file or folder concerned.
    public init(_ problem: Problem, path: String) {
        self.problem = problem
        self.path = path
    }

    /// Whether the error means the file is damaged, so it is set aside rather than read again: a
    /// framing, checksum or decoding problem, as opposed to a failed system call.
    public var isDamage: Bool {
        switch problem.base {
        case .badMagic, .unsupportedVersion, .truncated, .lengthMismatch, .headerChecksumMismatch,
             .checksumMismatch, .decodingFailed, .notARegularFile, .tooLarge:
            return true
        case .encodingFailed, .io, .missing, .invalidName, .noGoodCopy, .lockTimeout, .invalidSetting:
            return false
        }
    }

    /// What was wrong, without the path: `checksum mismatch: …`.
    public var message: String {
        switch problem.base {
        case .badMagic(let found):
            let bytes = found.isEmpty ? "nothing" : byteList(found)
            return "not a state file: it starts with \(bytes), not the signature \(byteList(StateFrame.magic))"
        case .unsupportedVersion(let found, let supported):
            return "format version \(found) is not supported; this library reads version \(supported)"
        case .truncated(let expected, let found):
            return "truncated: expected \(expected) bytes, found \(found)"
        case .lengthMismatch(let expected, let found):
            return "length mismatch: the header says \(expected) bytes in all, the file has \(found)"
        case .headerChecksumMismatch(let stored, let computed):
            return "header checksum mismatch: stored \(hex(stored, digits: 8)), computed \(hex(computed, digits: 8))"
        case .checksumMismatch(let stored, let computed):
            return "checksum mismatch: the header says \(hex(stored, digits: 8)), the payload's is \(hex(computed, digits: 8))"
        case .decodingFailed(let codingPath, let reason):
            return "cannot decode the saved JSON at \(codingPath): \(reason)"
        case .encodingFailed(let codingPath, let reason):
            return "cannot encode the value at \(codingPath): \(reason)"
        case .io(let operation, let code):
            return "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .missing:
            return "missing: a save was interrupted before it installed the new state"
        case .invalidName(let why):
            return "not a usable store name: \(why)"
        case .notARegularFile(let kind):
            return kind == .other ? "not a regular file" : "not a regular file: it is \(kind.rawValue)"
        case .tooLarge(let bytes, let limit):
            return "too large: \(bytes) bytes, over the store's limit of \(limit)"
        case .lockTimeout(let waited):
            return "another writer held the lock for over \(waited); nothing was changed"
        case .invalidSetting(let why):
            return "not a usable setting: \(why)"
        case .noGoodCopy(let issues):
            let details = issues.map { "\n  \($0)" }.joined()
            return "no saved copy can be used" + (issues.isEmpty ? "" : ":" + details)
        }
    }

    /// `path: message`.
    public var description: String {
        "\(path): \(message)"
    }
}

/// `0x1C291CA3`: a number as fixed-width upper-case hexadecimal.
private func hex(_ value: UInt32, digits: Int) -> String {
    "0x" + paddedHex(value, digits: digits)
}

/// `89 42 42 53`: bytes as a hex dump.
private func byteList(_ bytes: [UInt8]) -> String {
    bytes.map { paddedHex($0, digits: 2) }.joined(separator: " ")
}

private func paddedHex<Number: BinaryInteger>(_ value: Number, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}
