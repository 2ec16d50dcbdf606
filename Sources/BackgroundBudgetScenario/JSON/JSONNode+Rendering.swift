import BackgroundBudget

extension JSONNode {
    /// The value written back as JSON, on one line: objects keep their members in source order.
    /// Reading the text again gives an equal value (offsets aside).
    func rendered() -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return plainNumber(number)
        case .string(let text): return Self.quoted(text)
        case .array(let elements): return "[" + elements.map { $0.rendered() }.joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { Self.quoted($0.key) + ": " + $0.value.rendered() }.joined(separator: ", ") + "}"
        }
    }

    /// A string as a JSON string literal, with quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
