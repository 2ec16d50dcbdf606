/// One of `count` pieces of an exhaustive search that, run apart (on threads or on machines), try
/// together exactly the sequences the search in one piece tries.
///
/// Every piece runs the levels before the last in full, as the search in one piece does, so each
/// has the same frontiers and the same seen states; the last level, where most of the sequences
/// are, is split by the place of each prefix in its frontier: the piece `index` extends the prefixes
/// whose place leaves `index` when divided by `count`. What every piece does alike is in
/// ``ExplorerReport/beforeLastLevel``; the last level's counts are the rest of each piece's report,
/// and the states it reached first are in ``ExplorerReport/lastLevelStates``, so the pieces' reports
/// add up to the one piece's.
package struct ExplorerPartition: Sendable, Hashable {
    /// The piece, from 0.
    package let index: Int
    /// How many pieces, at least 1.
    package let count: Int

    /// The search in one piece.
    package static let whole = ExplorerPartition(index: 0, count: 1)

    /// A piece: `index` from 0 to `count - 1`.
    package init(index: Int, count: Int) {
        precondition(count >= 1 && (0..<count).contains(index), "a partition is 0..<count")
        self.index = index
        self.count = count
    }

    /// Whether this piece extends the prefix at `place` in the last level's frontier.
    package func owns(_ place: Int) -> Bool {
        place % count == index
    }
}

/// An exploration's counts at some point.
package struct ExplorerCounts: Sendable, Hashable {
    /// Sequences run to their end or to a failure.
    package var sequencesTried: Int
    /// Events performed.
    package var eventsPerformed: Int
    /// Sequences that broke an invariant.
    package var failingSequences: Int
    /// Distinct states reached.
    package var statesSeen: Int

    package init(sequencesTried: Int, eventsPerformed: Int, failingSequences: Int, statesSeen: Int) {
        self.sequencesTried = sequencesTried
        self.eventsPerformed = eventsPerformed
        self.failingSequences = failingSequences
        self.statesSeen = statesSeen
    }
}

extension ExplorerCounts {
    /// A report's counts, with the states seen so far.
    init(_ report: ExplorerReport, statesSeen: Int) {
        self.init(sequencesTried: report.sequencesTried, eventsPerformed: report.eventsPerformed,
                  failingSequences: report.failingSequences, statesSeen: statesSeen)
    }
}
