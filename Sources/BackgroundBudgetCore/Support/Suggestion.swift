import BudgetTime

/// ` (did you mean "home"?)` when one accepted value is close to what was written.
///
/// - Complexity: O(n) edit distances for n accepted values, each only for a value whose length is
///   within 3 of the written one's (a farther one is never suggested), and none for a written value
///   longer than 64 characters.
package func suggestion(for written: String, among accepted: [String]) -> String {
    let lowered = written.lowercased()
    if let match = accepted.first(where: { $0.lowercased() == lowered }) { return " (did you mean \"\(match)\"?)" }
    guard written.count <= 64 else { return "" }
    // "didEnterBackground" for "applicationDidEnterBackground": a distinctive part of a name.
    if lowered.count >= 4, let match = accepted.first(where: { $0.lowercased().contains(lowered) }) {
        return " (did you mean \"\(match)\"?)"
    }
    let length = lowered.count
    let scored = accepted.lazy.map { ($0, $0.lowercased()) }.filter { abs($0.1.count - length) <= 3 }
        .map { ($0.0, editDistance(lowered, $0.1)) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, min(3, best.0.count / 3)) else { return "" }
    return " (did you mean \"\(best.0)\"?)"
}

/// The Levenshtein distance between two strings, over their characters.
package func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// A number as a person writes it: `70`, `4.21`, `1e+308`.
package func plainNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
}
