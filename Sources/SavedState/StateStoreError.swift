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
    /// More problems may come as the model grows, so outside this package a `switch` over the cases
    /// needs an `@unknown default`. A case with values carries them as associated values:
    ///
    /// ```swift
    /// switch error.problem {
    /// case .missing: print("nothing saved yet")
    /// case .io(let operation, let errno): print("\(operation) failed: errno \(errno)")
    /// default: print(error)
    /// }
    /// ```
    ///
    /// `String(describing:)` gives the case's name and values, as Swift prints an enum case (the
    /// error's own description is a sentence).
    #if hasAttribute(nonexhaustive)
    @nonexhaustive
    #endif
    public enum Problem: Sendable, Hashable {
        /// The file does not start with the state file signature; `found` holds its first bytes (at
        /// most eight).
        case badMagic(found: [UInt8])
        /// The file was written in a format version this library does not read.
        case unsupportedVersion(found: UInt32, supported: UInt32)
        /// The file ends early: a write that never finished, or a file cut short.
        case truncated(expectedBytes: UInt64, foundBytes: UInt64)
        /// The file is longer than its header says.
        case lengthMismatch(expectedBytes: UInt64, foundBytes: UInt64)
        /// The header's own checksum does not match its bytes: the header is damaged.
        case headerChecksumMismatch(stored: UInt32, computed: UInt32)
        /// The payload's checksum does not match the one in the header: the payload is damaged.
        case checksumMismatch(stored: UInt32, computed: UInt32)
        /// The payload is intact but does not decode as the store's value type; `codingPath` is a
        /// JSONPath such as `$.items[2].title` (`$` is the whole value).
        case decodingFailed(codingPath: String, reason: String)
        /// The value could not be encoded as JSON (a non-finite `Double`, an `encode(to:)` that throws).
        case encodingFailed(codingPath: String, reason: String)
        /// A system call failed; `operation` names it (`open`, `write`, `fsync`, `rename`, …) and
        /// `errno` is its error number.
        case io(operation: String, errno: Int32)
        /// The file does not exist although an older copy does: a save was interrupted after it had
        /// kept the previous copy and before it installed the new one.
        case missing
        /// The store's name cannot be used as a file name; the string says why.
        case invalidName(String)
        /// No saved copy could be used; each issue says what was wrong with one file and where that
        /// file is now.
        case noGoodCopy([StateStoreIssue])
        /// Something other than a regular file is at one of the store's names: a folder, a named
        /// pipe, a symbolic link, a device or a socket. The store never reads, follows or writes
        /// through it; it sets it aside.
        case notARegularFile(FileKind)
        /// The file (or, for a save, the framed value) is larger than the store's
        /// ``StateStore/maximumFileSize``; for a file, the size its header declares.
        case tooLarge(bytes: UInt64, limit: UInt64)
        /// Another writer (a save or load of the same store name, in this process or another) held the
        /// store's lock file for the whole of the store's ``StateStore/lockTimeout``, which `waited`
        /// repeats; nothing was changed. The message says so: `another writer held the lock: gave
        /// up after waiting 20 ms for it; nothing was changed`.
        case lockTimeout(waited: Duration)
        /// A setting passed to ``StateStore/init(directory:name:maximumFileSize:lockTimeout:)`` is out
        /// of range; the string says which and why.
        case invalidSetting(String)
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
        switch problem {
        case .badMagic, .unsupportedVersion, .truncated, .lengthMismatch, .headerChecksumMismatch,
             .checksumMismatch, .decodingFailed, .notARegularFile, .tooLarge:
            return true
        case .encodingFailed, .io, .missing, .invalidName, .noGoodCopy, .lockTimeout, .invalidSetting:
            return false
        }
    }

    /// What was wrong, without the path: `checksum mismatch: …`.
    public var message: String {
        switch problem {
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
            return "another writer held the lock: gave up after waiting \(spokenDuration(waited)) for it; nothing was changed"
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

/// `20 ms`, `1.5 s`, `0 s`: how long a lock was waited for, in the unit a person reads at a glance
/// (whole nanoseconds: at most 9 decimals, trailing zeros dropped).
func spokenDuration(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    guard seconds < 1_000_000_000 else { return "\(seconds) s" }     // no overflow in nanoseconds
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    guard nanoseconds > 0 else { return "0 s" }
    let (unit, scale): (String, Int64) = nanoseconds < 1_000_000 ? ("µs", 1_000)
        : nanoseconds < 1_000_000_000 ? ("ms", 1_000_000) : ("s", 1_000_000_000)
    let whole = nanoseconds / scale, rest = nanoseconds % scale
    guard rest != 0 else { return "\(whole) \(unit)" }
    var digits = String(rest)
    digits = String(repeating: "0", count: String(scale).count - 1 - digits.count) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(whole).\(digits) \(unit)"
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
