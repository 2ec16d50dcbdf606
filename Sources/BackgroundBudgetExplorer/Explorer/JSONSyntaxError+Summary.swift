extension JSONSyntaxError {
    /// `expected ',' or '}' after an object member at byte 12 ($.walks[0])`: the error for a
    /// message about a file that is not a scenario (a saved report).
    package var summary: String {
        "\(message) at byte \(offset) (\(path))"
    }
}
