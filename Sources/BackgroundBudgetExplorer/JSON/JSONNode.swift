import BackgroundBudgetRuntime

/// A parsed JSON value that remembers where it starts in the source, so that every later error
/// (a wrong type, an unknown key, an app that is not installed) can name its line and column.
///
/// Objects keep their members in source order, with each key's own offset.
package struct JSONNode: Sendable, Hashable {
    /// The value.
    package enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        case object([JSONMember])
    }

    /// The value.
    package var value: Value
    /// The byte offset of the value's first character in the source.
    package var offset: Int

    /// What the value is, with its article, for messages: `"a string"`, `"an object"`.
    var typeName: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
