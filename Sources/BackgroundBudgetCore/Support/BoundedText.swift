import BudgetTime

/// Keeps error messages short whatever the input: lists of names show at most ``listLimit`` of them,
/// and strings quoted back from the input at most ``quoteLimit`` characters.
///
/// A scenario may declare 100,000 apps or use a key a megabyte long; the message about it should
/// still fit on a screen.
package enum BoundedText {
    /// The most names a message lists before `… and N more`.
    package static let listLimit = 10
    /// The most characters of an input string a message quotes before `…`.
    package static let quoteLimit = 80

    /// `"a", "b", "c"`, or `(none)`; with more than ``listLimit`` names, the first ones and
    /// `… and 99990 more`.
    package static func quotedList(_ values: [String]) -> String {
        if values.isEmpty { return "(none)" }
        let shown = values.prefix(listLimit).map { "\"\(clipped($0))\"" }.joined(separator: ", ")
        return values.count > listLimit ? shown + ", … and \(values.count - listLimit) more" : shown
    }

    /// The string itself when it has at most `limit` characters, else its first `limit` characters
    /// and `…`.
    /// - Complexity: O(`limit`): a long string is not counted to its end.
    package static func clipped(_ text: String, limit: Int = quoteLimit) -> String {
        guard let cut = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), cut != text.endIndex else {
            return text
        }
        return String(text[..<cut]) + "…"
    }
}
