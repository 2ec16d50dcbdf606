import Foundation

/// Writes binary property lists object by object, so that a test can build shapes no writer makes:
/// chains thousands of arrays deep, an array that contains itself, one array of millions of references.
///
/// ```swift
/// var plist = BinaryPlistBuilder()
/// let id = plist.add(.string("com.example.a"))
/// let key = plist.add(.string("CFBundleIdentifier"))
/// let root = plist.add(.dictionary([(key, id)]))
/// let bytes = plist.bytes(top: root)
/// ```
struct BinaryPlistBuilder {
    /// One object; collections name other objects by their index.
    enum Object {
        /// An ASCII string.
        case string(String)
        /// An array of references.
        case array([Int])
        /// A dictionary of (key, value) references.
        case dictionary([(Int, Int)])
        /// `false`.
        case falseValue
        /// An array of `count` references, all to one object: a big array without building an array.
        case repeated(Int, count: Int)
    }

    private(set) var objects: [Object] = []

    /// Adds an object and returns its index.
    @discardableResult
    mutating func add(_ object: Object) -> Int {
        objects.append(object)
        return objects.count - 1
    }

    /// Replaces an object, so that a collection can refer to one added after it (or to itself).
    mutating func set(_ index: Int, _ object: Object) {
        objects[index] = object
    }

    /// The file: header, objects, offset table and trailer.
    func bytes(top: Int) -> [UInt8] {
        let referenceSize = Self.size(for: UInt64(objects.count))
        var data = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(data.count)
            switch object {
            case .string(let text):
                Self.marker(0x5, count: text.utf8.count, into: &data)
                data += Array(text.utf8)
            case .array(let references):
                Self.marker(0xA, count: references.count, into: &data)
                for reference in references { Self.append(UInt64(reference), size: referenceSize, to: &data) }
            case .dictionary(let pairs):
                Self.marker(0xD, count: pairs.count, into: &data)
                for (key, _) in pairs { Self.append(UInt64(key), size: referenceSize, to: &data) }
                for (_, value) in pairs { Self.append(UInt64(value), size: referenceSize, to: &data) }
            case .falseValue:
                data.append(0x08)
            case .repeated(let reference, let count):
                Self.marker(0xA, count: count, into: &data)
                var one: [UInt8] = []
                Self.append(UInt64(reference), size: referenceSize, to: &one)
                data.reserveCapacity(data.count + count * referenceSize + 64)
                for _ in 0..<count { data += one }
            }
        }
        let tableStart = data.count
        let offsetSize = Self.size(for: UInt64(tableStart))
        for offset in offsets { Self.append(UInt64(offset), size: offsetSize, to: &data) }
        data += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        Self.append(UInt64(objects.count), size: 8, to: &data)
        Self.append(UInt64(top), size: 8, to: &data)
        Self.append(UInt64(tableStart), size: 8, to: &data)
        return data
    }

    /// The bytes an integer below `bound` needs: 1, 2, 4 or 8.
    private static func size(for bound: UInt64) -> Int {
        bound <= 0xFF ? 1 : bound <= 0xFFFF ? 2 : bound <= 0xFFFF_FFFF ? 4 : 8
    }

    /// A collection or string marker, with the count in its low nibble or in an integer object after it.
    private static func marker(_ type: UInt8, count: Int, into data: inout [UInt8]) {
        guard count >= 15 else {
            data.append(type << 4 | UInt8(count))
            return
        }
        data.append(type << 4 | 0x0F)
        let size = Self.size(for: UInt64(count))
        data.append(0x10 | UInt8(size.trailingZeroBitCount))
        append(UInt64(count), size: size, to: &data)
    }

    /// A big-endian integer of `size` bytes.
    private static func append(_ value: UInt64, size: Int, to data: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
