/// A line and column in a source text, both counted from 1; columns count Unicode scalars, so a
/// tab or an "é" is one column.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// Creates a position.
    /// - Parameters:
    ///   - line: The line, from 1.
    ///   - column: The column, from 1.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`, as compilers print it.
    public var description: String { "\(line):\(column)" }

    /// Orders positions as they appear in the text.
    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// The position of a byte offset in UTF-8 text.
    ///
    /// Nodes keep only their byte offset; the line and column are counted when an error needs them,
    /// so parsing stays linear even for a file on a single line.
    /// - Parameters:
    ///   - offset: A byte offset; offsets past the end give the position just after the last character.
    ///   - bytes: The UTF-8 text.
    /// - Complexity: O(`offset`).
    init(offset: Int, in bytes: [UInt8]) {
        self = Self.positions(ofSortedOffsets: [offset], in: bytes)[0]
    }

    /// The positions of many byte offsets, in one pass over the text.
    /// - Parameters:
    ///   - offsets: Byte offsets in increasing order.
    ///   - bytes: The UTF-8 text.
    /// - Complexity: O(n + k) for n bytes and k offsets.
    static func positions(ofSortedOffsets offsets: [Int], in bytes: [UInt8]) -> [SourcePosition] {
        var positions: [SourcePosition] = []
        positions.reserveCapacity(offsets.count)
        var line = 1
        var column = 1
        var index = 0
        bytes.withUnsafeBufferPointer { bytes in
            for offset in offsets {
                let target = min(max(0, offset), bytes.count)
                while index < target {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\n") {
                        line += 1
                        column = 1
                    } else if byte & 0xC0 != 0x80 {
                        column += 1
                    }
                    index += 1
                }
                positions.append(SourcePosition(line: line, column: column))
            }
        }
        return positions
    }
}
