/// The state the crash test's child saves over and over: a sequence number, a digest derived from it,
/// and a padding blob large enough that each save takes several `write` calls.
///
/// Every field is a function of ``sequence``, so a loaded state proves it is complete and not a mix of
/// two saves when it equals `TortureState(sequence: loaded.sequence)`.
///
/// ```swift
/// let state = TortureState(sequence: 42)     // about 100 KiB of JSON
/// state.isSelfConsistent                     // true
/// ```
struct TortureState: Codable, Sendable, Equatable {
    /// The save's number: 1 for the first save, one more for each save after it.
    var sequence: Int
    /// A short text derived from the sequence number.
    var digest: String
    /// 100 to 150 KiB derived from the sequence number (four or five 32 KiB writes); its length varies
    /// with it, so consecutive files differ in size as well as in content.
    var padding: String

    /// The state for a sequence number.
    /// - Parameter sequence: The save's number.
    init(sequence: Int) {
        self.sequence = sequence
        var mixer = UInt64(truncatingIfNeeded: sequence) &* 0x9E37_79B9_7F4A_7C15
        mixer ^= mixer >> 29
        digest = "seq-\(sequence)-" + String(mixer, radix: 16)
        let unit = "\(sequence):\(digest);"
        padding = String(repeating: unit, count: (100 * 1024 + (sequence % 7) * 9_000) / unit.utf8.count)
    }

    /// Whether every field is the one derived from ``sequence``.
    var isSelfConsistent: Bool {
        self == TortureState(sequence: sequence)
    }
}
