import Foundation

/// Checks the markup of an XML property list before Foundation parses it: how deep the elements
/// nest, how many there are, and that nothing in it could be read two ways.
///
/// Foundation's XML parser recurses once per nested `<array>` or `<dict>`, so 10,000 levels (150 KB
/// of `<array>`) overflow the stack and kill the process. This scan is one linear pass with no
/// recursion over the file's characters; it knows just enough XML to find the element tags:
///
/// - comments (`<!-- … -->`), CDATA sections (`<![CDATA[ … ]]>`), processing instructions
///   (`<?xml … ?>`) and declarations (`<!DOCTYPE … >`) are skipped; markup inside them does not count;
/// - `<tag …/>` (`<true/>`, `<dict/>`) is a value that does not nest;
/// - `</tag>` closes one level, whatever its name; a stray one never takes the depth below zero;
/// - the `<plist>` wrapper is not a value: the root dictionary is level 1.
///
/// The count must never be lower than the one Foundation's parser reaches, so anything parsers
/// disagree on is refused rather than guessed at, none of which an Info.plist contains: a `<` inside
/// a tag, a `>` or `<` inside a quoted attribute, the comments `<!-->` and `<!--->`, a `>`
/// inside a processing instruction, an internal DTD subset (`[`), and encodings other than UTF-8 and
/// its ASCII-compatible kin (UTF-16 is read when a byte-order mark says so). A NUL byte is refused
/// too: XML never contains one, and without it no parser can take the file for UTF-16 or UTF-32
/// with no byte-order mark, in which the markup would read differently.
///
/// Problems come back as ``InfoPlistError``; a ``InfoPlistError/Problem/malformed(_:)`` detail is
/// for the caller to prefix with the format (`not a valid XML property list: `).
struct XMLPlistCheck {
    /// The file's characters, one byte each: ASCII as itself, anything else as 0x80, which no markup
    /// uses. UTF-8 bytes map to themselves; UTF-16 and UTF-32 code units are decoded first.
    let units: [UInt8]
    /// The bytes per character: 1, or 2 for UTF-16.
    let width: Int
    /// The bytes of the byte-order mark before the first character.
    let markLength: Int

    /// Why the bytes must not reach Foundation, or `nil` when they may.
    /// - Complexity: O(n) in the file's size, with no recursion.
    static func problem(in data: Data) -> InfoPlistError? {
        // Some parsers take FF FE 00 00 for UTF-32, others for UTF-16 and a NUL: refuse both readings.
        if data.starts(with: [0xFF, 0xFE, 0, 0]) || data.starts(with: [0, 0, 0xFE, 0xFF]) {
            return InfoPlistError(.malformed("a UTF-32 byte-order mark; an Info.plist is UTF-8, or UTF-16 with a byte-order mark"))
        }
        let bytes = Array(data)
        let check = XMLPlistCheck(bytes: bytes)
        if let problem = check.encodingProblem() { return InfoPlistError(.malformed(problem)) }
        // Foundation traps on some invalid sequences (inside an `<integer>`, say) instead of throwing.
        if let invalid = check.firstInvalidSequence(in: bytes) {
            let form = check.width == 1 ? "UTF-8" : "UTF-16"
            return InfoPlistError(.malformed("bytes that are not valid \(form) at \(check.location(of: invalid)); an Info.plist is UTF-8, or UTF-16 with a byte-order mark"))
        }
        if check.width == 1, let zero = check.units.firstIndex(of: 0) {
            return InfoPlistError(.malformed("a NUL byte at \(check.location(of: zero)); XML without a byte-order mark must be UTF-8"))
        }
        return check.scan()
    }

    init(bytes: [UInt8]) {
        let encoding: (width: Int, bigEndian: Bool, mark: Int)
        if bytes.starts(with: [0xFE, 0xFF]) {
            encoding = (2, true, 2)
        } else if bytes.starts(with: [0xFF, 0xFE]) {
            encoding = (2, false, 2)
        } else {
            encoding = (1, true, bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        }
        width = encoding.width
        markLength = encoding.mark
        guard width > 1 else {
            units = Array(bytes[markLength...])
            return
        }
        var units: [UInt8] = []
        units.reserveCapacity((bytes.count - markLength) / width)
        var index = markLength
        while index + width <= bytes.count {
            var value: UInt32 = 0
            for byte in 0..<width {
                let shift = encoding.bigEndian ? (width - 1 - byte) * 8 : byte * 8
                value |= UInt32(bytes[index + byte]) << UInt32(shift)
            }
            units.append(value < 0x80 ? UInt8(value) : 0x80)
            index += width
        }
        self.units = units
    }

    /// The character index of the first byte sequence that is not valid UTF-8 (or, after a UTF-16
    /// byte-order mark, the first unpaired surrogate), or `nil` when every character is valid.
    ///
    /// A file that declares another ASCII-compatible encoding (ISO-8859-1, say) must still be valid
    /// UTF-8: such declarations are accepted for pure-ASCII files only.
    /// - Complexity: O(n), no recursion.
    func firstInvalidSequence(in bytes: [UInt8]) -> Int? {
        var index = 0
        if width == 1 {
            var parser = Unicode.UTF8.ForwardParser()
            var input = bytes[markLength...].makeIterator()
            while true {
                switch parser.parseScalar(from: &input) {
                case .valid(let scalar): index += scalar.count
                case .emptyInput: return nil
                case .error: return index
                }
            }
        }
        let bigEndian = bytes.starts(with: [0xFE, 0xFF])
        var codeUnits = stride(from: markLength, to: bytes.count - 1, by: 2).lazy.map { offset -> UInt16 in
            let (high, low) = bigEndian ? (bytes[offset], bytes[offset + 1]) : (bytes[offset + 1], bytes[offset])
            return UInt16(high) << 8 | UInt16(low)
        }.makeIterator()
        var parser = Unicode.UTF16.ForwardParser()
        while true {
            switch parser.parseScalar(from: &codeUnits) {
            case .valid(let scalar): index += scalar.count
            case .emptyInput: return nil
            case .error: return index
            }
        }
    }

    /// Why the declared encoding is one this scan cannot follow, or `nil`.
    ///
    /// Foundation converts a file in any declared encoding before parsing it; in UTF-7, say, `<` can
    /// be spelled `+ADw-`, which a scan of the bytes would not see. So the encoding must be the one
    /// the characters were read in.
    func encodingProblem() -> String? {
        var start = 0
        while start < units.count, [0x20, 0x09, 0x0D, 0x0A].contains(units[start]) { start += 1 }
        guard units[start...].starts(with: Array("<?xml".utf8)) else { return nil }
        let end = find(Array("?>".utf8), from: start) ?? units.count
        let declaration = String(decoding: units[start..<end], as: UTF8.self)
        // One `encoding`, spelled exactly so: with two, or another case, parsers could take different ones.
        let mentions = declaration.lowercased().components(separatedBy: "encoding").count - 1
        guard mentions > 0 else { return nil }
        guard mentions == 1, let word = declaration.range(of: "encoding") else { return "the encoding declaration cannot be read" }
        let rest = declaration[word.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard rest.first == "=" else { return "the encoding declaration cannot be read" }
        let value = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let quote = value.first, quote == "\"" || quote == "'",
              let close = value.dropFirst().firstIndex(of: quote) else { return "the encoding declaration cannot be read" }
        let name = String(value[value.index(after: value.startIndex)..<close])
        let lowered = name.lowercased()
        let readable: Bool
        switch width {
        case 2: readable = lowered.hasPrefix("utf-16")
        default: readable = Self.asciiCompatible.contains(lowered)
        }
        guard !readable else { return nil }
        guard width == 1 else {
            return "the declared encoding \"\(name)\" does not match the UTF-16 byte-order mark"
        }
        return "the encoding \"\(name)\" is not read; an Info.plist is UTF-8, or UTF-16 with a byte-order mark"
    }

    /// Encodings in which every byte below 0x80 is the ASCII character, so markup reads the same as
    /// in UTF-8.
    static let asciiCompatible: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1", "windows-1252", "macintosh"]

    /// Where the first occurrence of `pattern` at or after `start` begins.
    func find(_ pattern: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first, start <= units.count else { return nil }
        var index = start
        while let candidate = units[index...].firstIndex(of: first) {
            if units[candidate...].starts(with: pattern) { return candidate }
            index = candidate + 1
        }
        return nil
    }

    /// `line 519, byte 4,339`: where the character at `index` is in the file.
    func location(of index: Int) -> String {
        var line = 1
        for unit in units[..<index] where unit == 0x0A { line += 1 }
        return "line \(line), byte \(InfoPlistLimits.grouped(markLength + index * width))"
    }
}
