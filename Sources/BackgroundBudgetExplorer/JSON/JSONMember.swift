/// One `"key": value` pair of a JSON object.
package struct JSONMember: Sendable, Hashable {
    /// The key.
    package var key: String
    /// The byte offset of the key's opening quote.
    package var keyOffset: Int
    /// The value.
    package var value: JSONNode
}
