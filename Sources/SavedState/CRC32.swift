/// The CRC-32 used by zlib, PNG, gzip and Ethernet (IEEE 802.3): reflected polynomial `0xEDB88320`,
/// initial value and final XOR `0xFFFFFFFF`. ``StateFrame`` uses it to detect torn and corrupt files.
///
/// It detects every error burst of up to 32 bits and all but about one in four billion longer ones;
/// it is not a defence against deliberate tampering.
///
/// ```swift
/// CRC32.checksum(Array("123456789".utf8))   // 0xCBF43926, the standard check value
/// ```
enum CRC32 {
    /// The remainder for each byte value, computed once.
    private static let table: [UInt32] = (0..<256).map { byte in
        var remainder = UInt32(byte)
        for _ in 0..<8 {
            remainder = remainder & 1 == 1 ? (remainder >> 1) ^ 0xEDB8_8320 : remainder >> 1
        }
        return remainder
    }

    /// Returns the CRC-32 of some bytes.
    /// - Parameter bytes: The bytes to check.
    /// - Returns: The checksum.
    /// - Complexity: O(n) in the number of bytes.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { bytes in
                var crc: UInt32 = 0xFFFF_FFFF
                for byte in bytes {
                    crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
                }
                return crc ^ 0xFFFF_FFFF
            }
        }
    }

    /// Returns the CRC-32 of some bytes.
    /// - Parameter bytes: The bytes to check.
    /// - Returns: The checksum.
    /// - Complexity: O(n) in the number of bytes.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        checksum(bytes[...])
    }
}
