import BackgroundBudgetCore
import BackgroundBudgetRuntime

/// A strict RFC 8259 JSON parser that keeps each value's source offset.
///
/// Foundation's `JSONSerialization` does not report positions reliably on every platform, and a
/// scenario author needs the line and column. The parser also refuses what RFC 8259 leaves to the
/// implementation: duplicate keys, invalid UTF-8, lone surrogate escapes, numbers too large for a
/// `Double`, and nesting deeper than ``maxDepth`` (so hostile input cannot exhaust the stack).
///
/// - Complexity: O(n) in the length of the text.
package struct JSONParser {
    /// The deepest nesting of arrays and objects accepted; scenario files need six levels.
    static let maxDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// The path of the value being parsed, for error messages.
    private var path: [JSONPath.Component] = []
    /// The strings read so far that are too long to be stored inline (16 to 64 bytes, such as app
    /// identifiers), so that a value repeated a million times is stored once.
    private var strings: Set<String> = []

    /// Parses a whole document: one value, with only whitespace around it.
    /// - Parameter bytes: UTF-8 text; a leading byte-order mark is skipped.
    /// - Throws: ``JSONSyntaxError`` for the first problem.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        if let bad = Self.firstInvalidUTF8Offset(in: bytes) {
            throw JSONSyntaxError(message: "invalid UTF-8 byte 0x\(String(bytes[bad], radix: 16)); a scenario file must be UTF-8 text",
                                  offset: bad, path: .root)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        if index == bytes.count {
            throw fail("the text is empty; expected a JSON value")
        }
        let node = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw fail("unexpected \(describe(bytes[index])) after the end of the document")
        }
        return node
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        guard index < bytes.count else { throw fail("unexpected end of text; expected a value") }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), offset: start)
        case UInt8(ascii: "t"): try expectLiteral("true"); return JSONNode(value: .bool(true), offset: start)
        case UInt8(ascii: "f"): try expectLiteral("false"); return JSONNode(value: .bool(false), offset: start)
        case UInt8(ascii: "n"): try expectLiteral("null"); return JSONNode(value: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), offset: start)
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw fail("unexpected \(describe(bytes[index])); JSON has no NaN or Infinity, only finite numbers")
        case let byte:
            throw fail("unexpected \(describe(byte)); expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONNode {
        let start = index
        try enterContainer()
        index += 1
        var members: [JSONMember] = []
        var seen: Set<String> = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONNode(value: .object([]), offset: start)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw fail(index == bytes.count ? "unexpected end of text; expected a key in quotes"
                    : "unexpected \(describe(bytes[index])); expected a key in quotes")
            }
            let keyOffset = index
            let key = try parseString()
            if !seen.insert(key).inserted {
                let first = members.first { $0.key == key }?.keyOffset ?? keyOffset
                throw JSONSyntaxError(
                    message: "duplicate key \"\(BoundedText.clipped(key))\" (first at \(SourcePosition(offset: first, in: bytes)))",
                    offset: keyOffset, path: JSONPath(components: path))
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw fail(index == bytes.count ? "unexpected end of text; expected ':' after the key \"\(BoundedText.clipped(key))\""
                    : "unexpected \(describe(bytes[index])); expected ':' after the key \"\(BoundedText.clipped(key))\"")
            }
            index += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue()
            path.removeLast()
            members.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") { throw fail("a trailing comma before '}' is not allowed in JSON") }
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return JSONNode(value: .object(members), offset: start)
            case nil:
                throw fail("unexpected end of text; expected ',' or '}' after the value of \"\(BoundedText.clipped(key))\"")
            case let byte?:
                throw fail("unexpected \(describe(byte)); expected ',' or '}' after the value of \"\(BoundedText.clipped(key))\"")
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONNode {
        let start = index
        try enterContainer()
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return JSONNode(value: .array([]), offset: start)
        }
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            elements.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "]") { throw fail("a trailing comma before ']' is not allowed in JSON") }
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return JSONNode(value: .array(elements), offset: start)
            case nil:
                throw fail("unexpected end of text; expected ',' or ']' after array element \(elements.count - 1)")
            case let byte?:
                throw fail("unexpected \(describe(byte)); expected ',' or ']' after array element \(elements.count - 1)")
            }
        }
    }

    private mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maxDepth {
            throw fail("arrays and objects are nested more than \(Self.maxDepth) deep")
        }
    }

    // MARK: Scalars

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let open = index
        index += 1
        var runStart = index
        var text = ""
        var hasEscapes = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let tail = bytes[runStart..<index]
                index += 1
                if !hasEscapes { return shared(String(decoding: tail, as: UTF8.self)) }
                text += String(decoding: tail, as: UTF8.self)
                return text
            case UInt8(ascii: "\\"):
                hasEscapes = true
                text += String(decoding: bytes[runStart..<index], as: UTF8.self)
                text.unicodeScalars.append(try parseEscape())
                runStart = index
            case 0..<0x20:
                throw fail("control character \(describe(byte)) inside a string; write it as an escape such as \\n")
            default:
                index += 1
            }
        }
        throw JSONSyntaxError(message: "unexpected end of text inside the string that starts at \(SourcePosition(offset: open, in: bytes))",
                              offset: index, path: JSONPath(components: path))
    }

    /// `text`, or an equal string read before, sharing its storage. Strings of up to 15 bytes are
    /// stored inline anyway, and longer ones than 64 rarely repeat.
    private mutating func shared(_ text: String) -> String {
        let length = text.utf8.count
        guard length > 15, length <= 64 else { return text }
        return strings.insert(text).memberAfterInsert
    }

    /// Parses the escape at `index` (a backslash) and returns the character it stands for.
    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let start = index
        index += 1
        guard let byte = peek() else { throw fail("unexpected end of text after '\\'") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw JSONSyntaxError(message: "\\u escape of a lone high surrogate; it must be followed by a low surrogate",
                                          offset: start, path: JSONPath(components: path))
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw JSONSyntaxError(message: "\\u escape of a high surrogate followed by something other than a low surrogate",
                                          offset: start, path: JSONPath(components: path))
                }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else {
                throw JSONSyntaxError(message: "\\u escape of a lone low surrogate", offset: start, path: JSONPath(components: path))
            }
            return scalar
        default:
            index = start
            throw fail("unknown escape '\\\(Unicode.Scalar(byte).escaped(asASCII: true))'; JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw fail("unexpected end of text inside a \\u escape") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("unexpected \(describe(byte)) in a \\u escape; expected four hexadecimal digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        switch peek() {
        case UInt8(ascii: "0"):
            index += 1
            if let next = peek(), isDigit(next) { throw fail("a number must not start with a leading zero") }
        case let byte? where isDigit(byte):
            skipDigits()
        default:
            throw fail("expected a digit in the number")
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let byte = peek(), isDigit(byte) else { throw fail("expected a digit after the decimal point") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek(), isDigit(byte) else { throw fail("expected a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONSyntaxError(message: "the number \(text.count > 24 ? String(text.prefix(24)) + "…" : text) is too large",
                                  offset: start, path: JSONPath(components: path))
        }
        return value
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let expected = literal.withUTF8Buffer { Array($0) }
        for byte in expected {
            guard peek() == byte else {
                throw fail(index == bytes.count ? "unexpected end of text; expected \(literal)"
                    : "unexpected \(describe(bytes[index])); expected \(literal)")
            }
            index += 1
        }
    }

    // MARK: Helpers

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { index += 1 }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    private func fail(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, offset: index, path: JSONPath(components: path))
    }

    /// A byte as messages quote it: `'}'` for printable ASCII, `byte 0x07` otherwise.
    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Unicode.Scalar(byte))'" }
        if byte < 0x80 { return "byte 0x\(String(byte, radix: 16))" }
        // A non-ASCII character: quote the whole scalar (the text is valid UTF-8 by now).
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'\(String(decoding: bytes[index..<end], as: UTF8.self))'"
    }

    /// The offset of the first byte that is not part of well-formed UTF-8 (Unicode table 3-7: no
    /// overlong forms, no surrogates, nothing above U+10FFFF), or `nil`.
    /// - Complexity: O(n), one pass.
    static func firstInvalidUTF8Offset(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { bytes -> Int? in
            var index = 0
            let count = bytes.count
            while index < count {
                let lead = bytes[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                // The allowed range of the second byte, and how many continuation bytes follow.
                let second: ClosedRange<UInt8>, length: Int
                switch lead {
                case 0xC2...0xDF: (second, length) = (0x80...0xBF, 2)
                case 0xE0: (second, length) = (0xA0...0xBF, 3)
                case 0xE1...0xEC, 0xEE...0xEF: (second, length) = (0x80...0xBF, 3)
                case 0xED: (second, length) = (0x80...0x9F, 3)
                case 0xF0: (second, length) = (0x90...0xBF, 4)
                case 0xF1...0xF3: (second, length) = (0x80...0xBF, 4)
                case 0xF4: (second, length) = (0x80...0x8F, 4)
                default: return index
                }
                guard index + length <= count, second.contains(bytes[index + 1]) else { return index }
                for next in (index + 2)..<(index + length) where bytes[next] & 0xC0 != 0x80 {
                    return index
                }
                index += length
            }
            return nil
        }
    }
}
