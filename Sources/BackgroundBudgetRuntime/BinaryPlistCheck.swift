/// Checks the structure of a binary property list before Foundation decodes it.
///
/// Foundation's binary scanner trusts some counts it reads: a collection whose entry count is near
/// `UInt64.max` traps converting the byte count to `Int`, and a UTF-16 string is checked for half its
/// length. Both come from damaged files, never from a writer, so this check walks every object once
/// and refuses any file whose objects, lengths and references do not all fit, in the layout of
/// `CFBinaryPList.c`:
///
/// ```text
/// "bplist00" | objects… | offset table (one offset per object) | 32-byte trailer
/// trailer: 6 unused bytes, offset size, reference size, object count, top object, offset table start
/// ```
///
/// Then it walks the object graph from the top object, without recursion (see
/// `BinaryPlistCheck+Graph.swift`), and refuses a cycle, nesting deeper than
/// ``InfoPlistLimits/maximumDepth`` and more than ``InfoPlistLimits/maximumObjects`` objects: Foundation
/// recurses once per level and decodes a shared object once per reference.
///
/// It decodes no values: what a file means is still Foundation's to say.
struct BinaryPlistCheck {
    /// The file's bytes.
    let bytes: [UInt8]
    /// The bytes in one object reference.
    var referenceSize = 0
    /// The bytes in one offset-table entry.
    var offsetSize = 0
    /// The number of objects.
    var objectCount = 0
    /// The top object, the root of the property list.
    var top = 0
    /// Where the offset table starts; every object lies before it.
    var tableStart = 0

    /// Why the bytes must not reach Foundation, or `nil` when they may. A structural problem is a
    /// ``InfoPlistError/Problem/malformed(_:)`` whose detail the caller prefixes with the format.
    /// - Complexity: O(n) in the file's size, with no recursion.
    static func problem(in bytes: [UInt8]) -> InfoPlistError? {
        var check = BinaryPlistCheck(bytes: bytes)
        if let problem = check.run() { return InfoPlistError(.malformed(problem)) }
        if check.objectCount > InfoPlistLimits.maximumObjects { return InfoPlistError(.tooManyObjects(limit: InfoPlistLimits.maximumObjects)) }
        for object in 0..<check.objectCount {
            let offset = check.offset(of: object)
            if let problem = check.checkObject(at: offset) { return InfoPlistError(.malformed("object \(object) at byte \(offset): \(problem)")) }
        }
        return check.checkGraph()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func run() -> String? {
        let trailerSize = 32
        guard bytes.count >= 8 + 1 + trailerSize else { return "\(bytes.count) bytes is too short for a header, an object and a trailer" }
        let trailer = bytes.count - trailerSize
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            return "the trailer's offset or reference size (\(offsetSize), \(referenceSize)) is not 1 to 8 bytes"
        }
        let count = integer(at: trailer + 8, size: 8), top = integer(at: trailer + 16, size: 8), start = integer(at: trailer + 24, size: 8)
        // Every count and offset is bounded by the file's size, so nothing below can overflow.
        guard count >= 1, count <= UInt64(bytes.count), top < count, start >= 9, start <= UInt64(trailer),
              UInt64(trailer) - start == count * UInt64(offsetSize) else {
            return "the trailer does not match the file (object count \(count), top object \(top), offset table at \(start))"
        }
        objectCount = Int(count)
        self.top = Int(top)
        tableStart = Int(start)
        for object in 0..<objectCount {
            let offset = integer(at: tableStart + object * offsetSize, size: offsetSize)
            guard offset >= 8, offset < UInt64(tableStart) else { return "object \(object) has offset \(offset), outside the object data" }
        }
        return nil
    }

    /// Where an object starts, from the offset table (checked by ``run()``).
    func offset(of object: Int) -> Int {
        Int(integer(at: tableStart + object * offsetSize, size: offsetSize))
    }

    /// Why the object at an offset does not fit, or `nil`.
    func checkObject(at offset: Int) -> String? {
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            return [0x00, 0x08, 0x09, 0x0F].contains(marker) ? nil : "unknown marker \(hex(marker))"
        case 0x1:
            return low <= 4 ? fits(offset + 1, 1 << low) : "an integer of 2^\(low) bytes"
        case 0x2:
            return low == 2 || low == 3 ? fits(offset + 1, 1 << low) : "a real of 2^\(low) bytes"
        case 0x3:
            return marker == 0x33 ? fits(offset + 1, 8) : "unknown marker \(hex(marker))"
        case 0x4, 0x5:
            return sized(offset, unit: 1).problem
        case 0x6:
            return sized(offset, unit: 2).problem
        case 0x8:
            return fits(offset + 1, low + 1)
        case 0xA, 0xC:
            return references(sized(offset, unit: referenceSize))
        case 0xD:
            return references(sized(offset, unit: 2 * referenceSize))
        default:
            return "unknown marker \(hex(marker))"
        }
    }

    /// The body of a variable-length object: its count is the marker's low nibble, or an integer
    /// object after the marker when the nibble is 0xF.
    func sized(_ offset: Int, unit: Int) -> (problem: String?, body: Range<Int>) {
        var start = offset + 1
        var count = UInt64(bytes[offset] & 0x0F)
        if count == 0x0F {
            guard start < tableStart, bytes[start] >> 4 == 0x1, bytes[start] & 0x0F <= 3 else { return ("a malformed length", 0..<0) }
            let size = 1 << Int(bytes[start] & 0x0F)
            if let problem = fits(start + 1, size) { return (problem, 0..<0) }
            count = integer(at: start + 1, size: size)
            start += 1 + size
        }
        // A count beyond the bytes left cannot fit, whatever the unit; this also keeps the product small.
        guard count <= UInt64(tableStart - start) else { return ("a length of \(count) runs past the object data", 0..<0) }
        let length = Int(count) * unit
        if let problem = fits(start, length) { return (problem, 0..<0) }
        return (nil, start..<(start + length))
    }

    /// Checks that every reference in a collection's body names an object.
    private func references(_ sized: (problem: String?, body: Range<Int>)) -> String? {
        if let problem = sized.problem { return problem }
        for position in stride(from: sized.body.lowerBound, to: sized.body.upperBound, by: referenceSize) {
            let reference = integer(at: position, size: referenceSize)
            guard reference < UInt64(objectCount) else { return "a reference to object \(reference) of \(objectCount)" }
        }
        return nil
    }

    /// `nil` when `length` bytes from `start` lie inside the object data.
    private func fits(_ start: Int, _ length: Int) -> String? {
        start <= tableStart && length <= tableStart - start ? nil : "\(length) bytes run past the object data"
    }

    /// A big-endian unsigned integer of 1 to 8 bytes.
    func integer(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private func hex(_ byte: UInt8) -> String {
        "0x" + String(byte, radix: 16, uppercase: true)
    }
}
