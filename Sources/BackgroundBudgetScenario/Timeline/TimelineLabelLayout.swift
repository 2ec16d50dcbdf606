/// Where a lane's labels of what the user did go (`launch`, `Home`, `switched away`, …): each at its
/// instant, on the first row above the band where it does not touch a label already there, so that
/// labels crowded together are stacked, never dropped.
///
/// A label starts at its instant, or ends there when it would run past the plot's right edge (the
/// end of what is drawn). Rows are added up to ``maxRows``; a label that fits on none of them is
/// counted in ``unplaced``, which the lane writes as a note, so nothing disappears without a word.
struct TimelineLabelLayout {
    /// A label placed on a row.
    struct Placed: Equatable {
        /// The label's instant, as x.
        var x: Double
        var text: String
        /// The row, 0 the topmost.
        var row: Int
        /// Whether the label ends at ``x`` instead of starting there.
        var endsAtInstant: Bool

        /// The leftmost and rightmost x the label covers, by ``TimelineSpanLayout/characterWidth``.
        var extent: (left: Double, right: Double) {
            let width = Double(text.count) * TimelineSpanLayout.characterWidth
            return endsAtInstant ? (x - width, x) : (x, x + width)
        }
    }

    /// The most rows of labels a lane gets.
    static let maxRows = 6
    /// The least room between two labels on a row.
    static let gap = 4.0

    private(set) var placed: [Placed] = []
    /// How many labels found no room on any row.
    private(set) var unplaced = 0
    /// How many rows are used; at least one, so that every app lane keeps its place for labels.
    var rows: Int { max(placed.map(\.row).max().map { $0 + 1 } ?? 1, 1) }

    /// Places labels given in time order.
    /// - Parameters:
    ///   - labels: Each label's x and text.
    ///   - right: The plot's right edge: no label goes past it.
    init(_ labels: [(x: Double, text: String)], right: Double) {
        var rowEnds: [Double] = []
        for label in labels {
            let width = Double(label.text.count) * TimelineSpanLayout.characterWidth
            let endsAtInstant = label.x + width > right
            let left = endsAtInstant ? label.x - width : label.x
            let row = rowEnds.firstIndex { $0 + Self.gap <= left } ?? (rowEnds.count < Self.maxRows ? rowEnds.count : nil)
            guard let row else {
                unplaced += 1
                continue
            }
            if row == rowEnds.count { rowEnds.append(0) }
            rowEnds[row] = endsAtInstant ? label.x : label.x + width
            placed.append(Placed(x: label.x, text: label.text, row: row, endsAtInstant: endsAtInstant))
        }
    }
}
