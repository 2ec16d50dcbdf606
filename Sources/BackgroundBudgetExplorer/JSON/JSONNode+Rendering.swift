import BackgroundBudgetCore
import BackgroundBudgetRuntime

extension JSONNode {
    /// The value written back as JSON, on one line: objects keep their members in source order.
    /// Reading the text again gives an equal value (offsets aside).
    func rendered() -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return plainNumber(number)
        case .string(let text): return jsonString(text)
        case .array(let elements): return "[" + elements.map { $0.rendered() }.joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { jsonString($0.key) + ": " + $0.value.rendered() }.joined(separator: ", ") + "}"
        }
    }
}
