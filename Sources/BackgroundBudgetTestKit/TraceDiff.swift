import BackgroundBudgetCore

/// One line of a readable comparison of expected ``TraceStep``s with the entries of a trace, aligned
/// as `diff` aligns lines: on the longest run of steps that the entries meet in order.
///
/// ```swift
/// do { try checkCallbacks(system.trace, app: app.id, [.willFinishLaunching, .didBecomeActive]) }
/// catch { for line in error.diff { print(line) } }   // "  - applicationDidBecomeActive" …
/// ```
///
/// The set is closed: an entry meets its step, a step is missing or an entry is unexpected; a `switch`
/// over it needs no `default`.
public enum TraceDiffLine: Sendable, CustomStringConvertible {
    /// The entry (at its 0-based position among the compared entries) meets the step.
    case matched(TraceStep, TraceEvent, position: Int)
    /// The step was expected here and no entry meets it.
    case missing(TraceStep)
    /// The entry (at its 0-based position) is here and no step expected it.
    case unexpected(TraceEvent, position: Int)

    /// `    3 t=4.000s news applicationWillResignActive`, `  - applicationDidBecomeActive` (expected,
    /// not found) or `  + 3 t=4.000s news …` (found, not expected).
    public var description: String {
        switch self {
        case .matched(_, let event, let position): "    \(position + 1) \(event)"
        case .missing(let step): "  - \(step)"
        case .unexpected(let event, let position): "  + \(position + 1) \(event)"
        }
    }

    /// Whether the line is a difference (a missing step or an unexpected entry).
    public var isDifference: Bool {
        if case .matched = self { return false }
        return true
    }
}

extension TraceDiffLine {
    /// The most cells (steps × entries) the alignment works through; larger comparisons get no diff.
    static let cellLimit = 4_000_000

    /// The alignment of `steps` with `entries`, or `nil` when it would take more than ``cellLimit`` cells.
    static func align(_ steps: [TraceStep], _ entries: [TraceEvent]) -> [TraceDiffLine]? {
        let rows = steps.count, columns = entries.count
        guard (rows + 1) * (columns + 1) <= cellLimit else { return nil }
        // common[i][j]: the longest run of steps[i...] met in order by entries[j...].
        var common = [[Int32]](repeating: [Int32](repeating: 0, count: columns + 1), count: rows + 1)
        for i in stride(from: rows - 1, through: 0, by: -1) {
            for j in stride(from: columns - 1, through: 0, by: -1) {
                common[i][j] = steps[i].matches(entries[j]) ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var lines: [TraceDiffLine] = []
        var i = 0, j = 0
        while i < rows || j < columns {
            if i < rows, j < columns, steps[i].matches(entries[j]), common[i][j] == common[i + 1][j + 1] + 1 {
                lines.append(.matched(steps[i], entries[j], position: j))
                i += 1
                j += 1
            } else if i < rows, j == columns || common[i + 1][j] >= common[i][j + 1] {
                lines.append(.missing(steps[i]))
                i += 1
            } else {
                lines.append(.unexpected(entries[j], position: j))
                j += 1
            }
        }
        return lines
    }

    /// The lines as text, runs of more than six matched lines shortened to their first and last two.
    static func text(of lines: [TraceDiffLine]) -> String {
        var text = ""
        var start = 0
        while start < lines.count {
            var end = start
            while end < lines.count, !lines[end].isDifference { end += 1 }
            if end - start > 6 {
                for line in lines[start..<(start + 2)] { text += "\(line)\n" }
                text += "    … \(end - start - 4) matching entries\n"
                for line in lines[(end - 2)..<end] { text += "\(line)\n" }
            } else {
                for line in lines[start..<end] { text += "\(line)\n" }
            }
            if end < lines.count { text += "\(lines[end])\n" }
            start = end + 1
        }
        return text
    }
}
