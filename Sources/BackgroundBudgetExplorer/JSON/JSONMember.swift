/// One `"key": value` pair of a JSON object.
struct JSONMember: Sendable, Hashable {
    /// The key.
    var key: String
    /// The byte offset of the key's opening quote.
    var keyOffset: Int
    /// The value.
    var value: JSONNode
}
