/// A JSON text that is not well-formed: what was wrong, the byte offset where it was found, and the
/// path of the value being read there.
package struct JSONSyntaxError: Error, Sendable, Hashable {
    /// A sentence such as `expected ',' or '}' after an object member`.
    var message: String
    /// The byte offset of the offending character (the end of the text for a truncated one).
    var offset: Int
    /// The value that was being read.
    var path: JSONPath
}
