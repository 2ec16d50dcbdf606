/// The on-disk format of a ``StateStore`` file: a fixed 28-byte header that lets a reader detect a torn
/// or corrupt file, then the JSON payload.
///
/// | Offset | Size | Field |
/// |---|---|---|
/// | 0 | 8 | signature `89 42 42 53 0D 0A 1A 0A` (`\x89BBS\r\n\x1A\n`) |
/// | 8 | 4 | format version, `UInt32` little-endian: 1 |
/// | 12 | 8 | payload length in bytes, `UInt64` little-endian |
/// | 20 | 4 | CRC-32 of the payload, `UInt32` little-endian |
/// | 24 | 4 | CRC-32 of bytes 0 ..< 24 (the header so far), `UInt32` little-endian |
/// | 28 | n | payload: the value as UTF-8 JSON with sorted keys |
///
/// The signature follows PNG's: the high first byte catches 7-bit transfers, the `\r\n` and `\n`
/// catch line-ending conversion, `\x1A` stops `type` on old systems. The signature and version are at
/// the same offsets in every version; the rest of the header is the version's. Checks run in the
/// order of the table, so a reader reports the first thing wrong: a future version is refused before
/// its header is checked against this version's layout, and a damaged length field is reported as a
/// header checksum mismatch rather than as a misleading truncation.
///
/// ```swift
/// let bytes = StateFrame.encode(payload: Array(#"{"seq":1}"#.utf8))     // 28 + 9 bytes
/// try StateFrame.payload(of: bytes, path: "draft.state").get()          // the 9 payload bytes
/// ```
enum StateFrame {
    /// The first eight bytes of every state file.
    static let magic: [UInt8] = [0x89, 0x42, 0x42, 0x53, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The format version this library writes and reads.
    static let version: UInt32 = 1
    /// The header's size in bytes, in version 1.
    static let headerSize = 28

    /// Frames a payload.
    /// - Parameter payload: The JSON bytes.
    /// - Returns: The file's bytes: header then payload.
    /// - Complexity: O(n) in the payload's size.
    static func encode(payload: [UInt8]) -> [UInt8] {
        var bytes = magic
        bytes.reserveCapacity(headerSize + payload.count)
        append(version, to: &bytes)
        append(UInt64(payload.count), to: &bytes)
        append(CRC32.checksum(payload), to: &bytes)
        append(CRC32.checksum(bytes), to: &bytes)
        bytes += payload
        return bytes
    }

    /// Checks a file's bytes and returns its payload, or what is wrong with it.
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - path: The file's path, for the error.
    /// - Returns: The payload bytes, or the first problem found (in the order of the header's fields).
    /// - Complexity: O(n) in the file's size.
    static func payload(of bytes: [UInt8], path: String) -> Result<ArraySlice<UInt8>, StateStoreError> {
        problem(in: bytes).map { .failure(StateStoreError($0, path: path)) } ?? .success(bytes[headerSize...])
    }

    /// The first thing wrong with a file's bytes, in the order of the header's fields, or `nil`.
    private static func problem(in bytes: [UInt8]) -> StateStoreError.Problem? {
        if let problem = headerProblem(Array(bytes.prefix(headerSize)), fileSize: UInt64(bytes.count)) { return problem }
        return payloadProblem(bytes)
    }

    /// The first thing wrong with a file's header, judged from its first bytes and its size alone, so
    /// that a reader can refuse a bad file before reading the rest of it.
    /// - Parameters:
    ///   - header: The file's first ``headerSize`` bytes, or all of them when it is shorter.
    ///   - fileSize: The file's size in bytes.
    /// - Returns: The first problem in the order of the header's fields, or `nil` when the header is
    ///   intact and the file's size is the one it declares.
    static func headerProblem(_ header: [UInt8], fileSize size: UInt64) -> StateStoreError.Problem? {
        let signature = Array(header.prefix(magic.count))
        guard magic.starts(with: signature) else { return .badMagic(found: signature) }
        guard header.count >= 12 else {
            return .truncated(expectedBytes: UInt64(headerSize), foundBytes: size)
        }
        let foundVersion: UInt32 = read(header, at: 8)
        guard foundVersion == version else {
            return .unsupportedVersion(found: foundVersion, supported: version)
        }
        guard header.count >= headerSize else {
            return .truncated(expectedBytes: UInt64(headerSize), foundBytes: size)
        }
        let storedHeaderCRC: UInt32 = read(header, at: 24)
        let headerCRC = CRC32.checksum(header[..<24])
        guard storedHeaderCRC == headerCRC else {
            return .headerChecksumMismatch(stored: storedHeaderCRC, computed: headerCRC)
        }
        let expected = declaredSize(header)
        if expected > size { return .truncated(expectedBytes: expected, foundBytes: size) }
        guard expected == size else { return .lengthMismatch(expectedBytes: expected, foundBytes: size) }
        return nil
    }

    /// The file size an intact header declares: the header plus its payload length (`UInt64.max` when
    /// that overflows).
    static func declaredSize(_ header: [UInt8]) -> UInt64 {
        let length: UInt64 = read(header, at: 12)
        let (expected, overflow) = length.addingReportingOverflow(UInt64(headerSize))
        return overflow ? .max : expected
    }

    /// Whether a whole file's payload matches the checksum in its (already checked) header.
    static func payloadProblem(_ bytes: [UInt8]) -> StateStoreError.Problem? {
        let storedCRC: UInt32 = read(bytes, at: 20)
        let crc = CRC32.checksum(bytes[headerSize...])
        guard storedCRC == crc else { return .checksumMismatch(stored: storedCRC, computed: crc) }
        return nil
    }

    private static func append<Number: FixedWidthInteger>(_ value: Number, to bytes: inout [UInt8]) {
        for index in 0..<(Number.bitWidth / 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (index * 8)))
        }
    }

    private static func read<Number: FixedWidthInteger>(_ bytes: [UInt8], at offset: Int) -> Number {
        var value: Number = 0
        for index in 0..<(Number.bitWidth / 8) {
            value |= Number(bytes[offset + index]) << (index * 8)
        }
        return value
    }
}
