/// Where a lane's spans go: each on the first row where it, and its label, do not overlap what is
/// already there. A label goes on the bar when it fits, else just after it, else just before it.
///
/// Spans take up to ``maxRows`` rows; a label with no room on those gets a row of its own below
/// them, up to ``maxLabelledRows``, so crowded labels are stacked, not dropped. Only past that many
/// rows is a span drawn without its label: it is counted in ``unlabelled``, which the lane writes as a
/// note (and its hover text still names it). A label repeated within ``repeatDistance`` of the same
/// kind's same label is left out on purpose: the one just before names it.
struct TimelineSpanLayout {
    /// A span placed on a row.
    struct Placed {
        var span: TimelineSpan
        var row: Int
        var x0: Double
        var x1: Double
        /// Where the label starts, and whether it sits on the bar; `nil` when it is left out.
        var label: (x: Double, inside: Bool)?
    }

    /// The most rows of spans a lane gets before rows are added for labels alone.
    static let maxRows = 4
    /// The most rows a lane gets when labels need room: a bound on the lane's height.
    static let maxLabelledRows = 16
    /// The narrowest a bar is drawn.
    static let minimumWidth = 2.0
    /// An estimate of the label font's character width, in pixels.
    static let characterWidth = 5.8

    private(set) var placed: [Placed] = []
    /// How many spans are drawn without their label for want of a row.
    private(set) var unlabelled = 0
    /// How many rows are used.
    var rows: Int { placed.map(\.row).max().map { $0 + 1 } ?? 0 }

    /// A label already drawn this close before a span of the same kind and label is not repeated.
    static let repeatDistance = 160.0

    init(_ spans: [TimelineSpan], scale: TimelineScale) {
        var rowEnds: [Double] = []     // the end of the last bar or label on each row
        var lastLabel: [String: Double] = [:]
        for span in spans.sorted(by: { ($0.from, $0.to) < ($1.from, $1.to) }) {
            guard let (start, end) = scale.clipped(span.from, span.to) else { continue }
            // A bar narrower than the minimum widens to the right, or to the left at the plot's end.
            let x1 = min(max(end, start + Self.minimumWidth), scale.right)
            let x0 = min(start, x1 - Self.minimumWidth)
            let width = Double(span.label.count) * Self.characterWidth
            let repeated = lastLabel["\(span.kind) \(span.label)"].map { x0 - $0 < Self.repeatDistance } ?? false
            // Where the label may go, best first, as (label x, inside, leftmost, rightmost) of bar and label.
            var options: [(x: Double, inside: Bool, left: Double, right: Double)] = []
            if !repeated {
                if x1 - x0 >= width + 6 { options.append((x0 + 3, true, x0, x1)) }
                if x1 + 3 + width <= scale.right { options.append((x1 + 3, false, x0, x1 + 3 + width)) }
                if x0 - 3 - width >= scale.left { options.append((x0 - 3 - width, false, x0 - 3 - width, x1)) }
            }
            var chosen: (row: Int, label: (x: Double, inside: Bool)?, right: Double)?
            // The rows spans share first; then rows added for the label, down to the bound.
            rows: for limit in [Self.maxRows, Self.maxLabelledRows] {
                for option in options {
                    if let row = Self.row(from: option.left, in: rowEnds, limit: limit) {
                        chosen = (row, (option.x, option.inside), option.right)
                        break rows
                    }
                }
            }
            if chosen == nil {
                if !repeated { unlabelled += 1 }
                let row = Self.row(from: x0, in: rowEnds, limit: Self.maxRows) ?? rowEnds.indices.min { rowEnds[$0] < rowEnds[$1] } ?? 0
                chosen = (row, nil, x1)
            }
            guard let chosen else { continue }
            if chosen.row == rowEnds.count { rowEnds.append(0) }
            rowEnds[chosen.row] = max(rowEnds[chosen.row], chosen.right)
            if let label = chosen.label { lastLabel["\(span.kind) \(span.label)"] = label.x }
            placed.append(Placed(span: span, row: chosen.row, x0: x0, x1: x1, label: chosen.label))
        }
    }

    /// The first of the first `limit` rows free from `left` on, or a new row while there are fewer
    /// than `limit`.
    private static func row(from left: Double, in rowEnds: [Double], limit: Int) -> Int? {
        rowEnds.prefix(limit).firstIndex { $0 + 4 <= left } ?? (rowEnds.count < limit ? rowEnds.count : nil)
    }
}
