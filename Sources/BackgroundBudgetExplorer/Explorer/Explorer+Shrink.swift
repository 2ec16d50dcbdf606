import BackgroundBudgetRuntime

extension Explorer {
    /// Shrinks a failing sequence to a minimal one that still breaks the same invariant first, by
    /// delta debugging: cut the events after the failure; drop runs of events, halving the run length
    /// down to one event; merge neighbouring waits; replace two neighbouring events by one menu event;
    /// replace each event by an earlier menu event that still fails; shorten each wait (to each
    /// shorter wait of the menu, or else to the shortest that still fails, to the millisecond); swap
    /// neighbouring events into menu order where the swap still fails; and repeat until nothing
    /// changes; then drop any two events at once (a local minimum that no one event leaves, such as an
    /// interruption and its answer), and if that takes, start again. Deterministic: the same sequence always shrinks to the same result, and events that
    /// commute end in menu order whatever order they were found in, so different finds of one bug
    /// shrink to one sequence.
    ///
    /// Shrinking stops by construction: a candidate is taken only if it makes the ``ShrinkMeasure``
    /// (the number of events, then the total wait, then the sum of the events' places in the menu,
    /// then those places in sequence order) strictly smaller, and no such measure can shrink forever. On top of that, the sequences it runs
    /// add up to at most ``shrinkBudget`` events; past it, the smallest failure so far is returned.
    ///
    /// The result is 1-minimal when the budget lasts: removing any one of its events no longer breaks
    /// the invariant.
    /// - Parameters:
    ///   - events: A sequence that breaks `invariant`.
    ///   - invariant: The invariant's name.
    /// - Returns: The shrunk failure with its scenario file; the sequence as it was if it does not
    ///   break `invariant` first (which a sequence found by this explorer always does).
    public func shrink(_ events: [ExplorerEvent], invariant: String) -> ExplorerFailure {
        var shrinker = Shrinker(explorer: self, invariant: invariant, events: events)
        shrinker.run()
        let current = shrinker.current
        let broken = shrinker.broken
        let failingEvent = broken?.index ?? max(current.count - 1, 0)
        let message = broken?.message ?? "the sequence no longer breaks \(invariant)"
        let description = "Found by the explorer: \(invariant) breaks at event \(failingEvent + 1) of \(current.count)"
            + (current.indices.contains(failingEvent) ? " (\(current[failingEvent]))" : "") + ": \(message)"
        return ExplorerFailure(invariant: invariant, message: message, events: current, failingEvent: failingEvent,
                               foundLength: events.count, scenarioFile: target.scenarioFile(for: current, description: description),
                               shrinkSteps: shrinker.steps)
    }

    /// The measure a sequence's shrinking makes smaller at every step it takes: compared by the number
    /// of events, then the total wait, then the sum of the events' places in the menu (an event not in
    /// the menu counts as one past its end), then the places themselves in sequence order,
    /// lexicographically. The first three are natural numbers; the places of a given number of events
    /// are finitely many lists, each place at most one past the menu's end. So the order is
    /// well-founded: no sequence of ever smaller measures is endless.
    public struct ShrinkMeasure: Sendable, Hashable, Comparable {
        /// The number of events.
        public var events: Int
        /// The waits added up, in nanoseconds.
        public var totalWait: Int64
        /// The events' places in the menu, added up.
        public var menuPositions: Int
        /// The events' places in the menu, in sequence order: what tells apart two orders of the same
        /// events, the one whose earlier events come earlier in the menu being smaller.
        public var menuOrder: [Int]

        /// A measure from its parts (read back from a saved report).
        package init(events: Int, totalWait: Int64, menuPositions: Int, menuOrder: [Int]) {
            self.events = events
            self.totalWait = totalWait
            self.menuPositions = menuPositions
            self.menuOrder = menuOrder
        }

        /// Whether `lhs` is smaller: fewer events, or as many and less waiting, or as much and earlier
        /// menu events, or the same places with an earlier one first.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            if (lhs.events, lhs.totalWait, lhs.menuPositions) != (rhs.events, rhs.totalWait, rhs.menuPositions) {
                return (lhs.events, lhs.totalWait, lhs.menuPositions) < (rhs.events, rhs.totalWait, rhs.menuPositions)
            }
            return lhs.menuOrder.lexicographicallyPrecedes(rhs.menuOrder)
        }
    }

    /// The measure of a sequence under this explorer's menu.
    /// - Parameter events: The sequence.
    /// - Returns: Its measure.
    public func shrinkMeasure(of events: [ExplorerEvent]) -> ShrinkMeasure {
        Self.measure(of: events, positions: menuPositions, pastTheEnd: menu.entries.count)
    }

    /// Each menu event's first place in the menu.
    var menuPositions: [ExplorerEvent: Int] {
        var positions: [ExplorerEvent: Int] = [:]
        for (index, entry) in menu.entries.enumerated() where positions[entry.event] == nil { positions[entry.event] = index }
        return positions
    }

    /// The measure of `events` given each menu event's place.
    static func measure(of events: [ExplorerEvent], positions: [ExplorerEvent: Int], pastTheEnd: Int) -> ShrinkMeasure {
        var measure = ShrinkMeasure(events: events.count, totalWait: 0, menuPositions: 0, menuOrder: [])
        measure.menuOrder.reserveCapacity(events.count)
        for event in events {
            if case .wait(let duration) = event {
                let (sum, overflow) = measure.totalWait.addingReportingOverflow(duration.nanosecondsSaturating)
                measure.totalWait = overflow ? .max : sum
            }
            let position = positions[event] ?? pastTheEnd
            measure.menuPositions += position
            measure.menuOrder.append(position)
        }
        return measure
    }
}

/// One shrinking: the smallest failing sequence so far, and what is left of the budget.
private struct Shrinker {
    let explorer: Explorer
    let invariant: String
    private(set) var current: [ExplorerEvent]
    private(set) var broken: (message: String, index: Int)?
    /// Candidates taken.
    private(set) var steps = 0
    private var measure: Explorer.ShrinkMeasure
    /// Events the candidates may still perform.
    private var budget: Int
    /// The menu's concrete events (``ExplorerEvent/advance`` left out), in order.
    private let menuEvents: [ExplorerEvent]
    /// Each menu event's first place in the menu.
    private let positions: [ExplorerEvent: Int]

    init(explorer: Explorer, invariant: String, events: [ExplorerEvent]) {
        self.explorer = explorer
        self.invariant = invariant
        budget = explorer.shrinkBudget
        menuEvents = explorer.menu.entries.map(\.event).filter { $0 != .advance }
        positions = explorer.menuPositions
        current = events
        measure = Explorer.measure(of: events, positions: positions, pastTheEnd: explorer.menu.entries.count)
        if let result = explorer.firstViolation(in: events), result.invariant == invariant {
            broken = (result.message, result.index)
            current = Array(events.prefix(result.index + 1))
            measure = measure(of: current)
        }
    }

    private func measure(of events: [ExplorerEvent]) -> Explorer.ShrinkMeasure {
        Explorer.measure(of: events, positions: positions, pastTheEnd: explorer.menu.entries.count)
    }

    /// Shrinks until no pass takes a candidate or the budget runs out.
    mutating func run() {
        guard broken != nil else { return }
        var changed = true
        while changed, budget > 0 {
            changed = false
            changed = dropRuns() || changed
            changed = mergeWaits() || changed
            changed = replacePairs() || changed
            changed = replaceByEarlierMenuEvents() || changed
            changed = shortenWaits() || changed
            changed = sortNeighbours() || changed
            if !changed { changed = dropPairs() }
        }
    }

    /// Drops two events at once, the pairs in order (the earliest first), taking the first that still
    /// fails: run when no other pass takes anything, so on a sequence from which no one event can be
    /// dropped, whose pairs are few.
    private mutating func dropPairs() -> Bool {
        guard current.count >= 3 else { return false }
        for first in 0..<current.count - 1 {
            for second in first + 1..<current.count {
                guard budget > 0 else { return false }
                var candidate = current
                candidate.remove(at: second)
                candidate.remove(at: first)
                if take(candidate) { return true }
            }
        }
        return false
    }

    /// Takes `candidate` if its measure is smaller and it still breaks the invariant first (cut after
    /// the failure).
    private mutating func take(_ candidate: [ExplorerEvent]) -> Bool {
        guard !candidate.isEmpty, budget > 0, measure(of: candidate) < measure else { return false }
        budget -= candidate.count
        guard let result = explorer.firstViolation(in: candidate), result.invariant == invariant else { return false }
        current = Array(candidate.prefix(result.index + 1))
        measure = measure(of: current)
        broken = (result.message, result.index)
        steps += 1
        return true
    }

    /// Drops runs of events, longest first.
    private mutating func dropRuns() -> Bool {
        var changed = false
        var size = max(current.count / 2, 1)
        while size >= 1, budget > 0 {
            var start = 0
            while start < current.count, budget > 0 {
                var candidate = current
                candidate.removeSubrange(start..<min(start + size, current.count))
                if take(candidate) { changed = true } else { start += size }
            }
            size /= 2
        }
        return changed
    }

    /// Merges neighbouring waits into one.
    private mutating func mergeWaits() -> Bool {
        var changed = false
        var index = 0
        while index + 1 < current.count, budget > 0 {
            if case .wait(let first) = current[index], case .wait(let second) = current[index + 1] {
                var candidate = current
                candidate.replaceSubrange(index...index + 1, with: [.wait(first + second)])
                if take(candidate) { changed = true; continue }
            }
            index += 1
        }
        return changed
    }

    /// Replaces two neighbouring events by one of the menu (an interruption answered by Home).
    private mutating func replacePairs() -> Bool {
        var changed = false
        var index = 0
        pairs: while index + 1 < current.count, budget > 0 {
            for event in menuEvents {
                var candidate = current
                candidate.replaceSubrange(index...index + 1, with: [event])
                if take(candidate) { changed = true; continue pairs }
            }
            index += 1
        }
        return changed
    }

    /// Replaces each event by the earliest menu event that still breaks the invariant with a smaller
    /// measure, so that different finds shrink to the same sequence.
    private mutating func replaceByEarlierMenuEvents() -> Bool {
        var changed = false
        var index = 0
        while index < current.count, budget > 0 {
            for event in menuEvents where event != current[index] {
                var candidate = current
                candidate[index] = event
                if take(candidate) { changed = true; break }
            }
            index += 1
        }
        return changed
    }

    /// Swaps each two neighbouring events whose later one comes earlier in the menu, where the swap
    /// still breaks the invariant first: events that commute end in menu order, whichever order a
    /// walk found them in. Passes over the sequence until no swap is taken (each one taken makes the
    /// measure smaller).
    private mutating func sortNeighbours() -> Bool {
        var changed = false
        var swapped = true
        while swapped, budget > 0 {
            swapped = false
            var index = 0
            while index + 1 < current.count, budget > 0 {
                var candidate = current
                candidate.swapAt(index, index + 1)
                if take(candidate) { changed = true; swapped = true }
                index += 1
            }
        }
        return changed
    }

    /// Shortens each wait: to the menu's shorter waits, shortest first; failing that, to the shortest
    /// wait that still breaks the invariant, found by halving the gap between a wait that does not
    /// (at first none) and one that does, down to a millisecond. Different finds of one bug thus reach
    /// the same wait: the instant it breaks.
    private mutating func shortenWaits() -> Bool {
        var changed = false
        var index = 0
        while index < current.count, budget > 0 {
            if case .wait(let duration) = current[index] {
                var shortened = false
                for shorter in menuWaits where shorter < duration {
                    if take(replacingWait: index, by: shorter) { shortened = true; break }
                }
                if !shortened { shortened = bisectWait(at: index, from: duration) }
                changed = changed || shortened
            }
            index += 1
        }
        return changed
    }

    /// Halves the gap between no wait and the wait at `index` while a millisecond or more, taking each
    /// shorter wait that still breaks the invariant.
    private mutating func bisectWait(at index: Int, from duration: Duration) -> Bool {
        let millisecond: Int64 = 1_000_000
        var (low, high) = (Int64(0), duration.nanosecondsSaturating)
        var changed = false
        while high - low > millisecond, budget > 0 {
            let middle = (low + (high - low) / 2) / millisecond * millisecond
            guard middle > low, middle < high else { break }
            if take(replacingWait: index, by: .nanoseconds(middle)) {
                high = middle
                changed = true
                // The failure may now come earlier, cutting the sequence: stop if the wait is gone.
                guard index < current.count, current[index] == .wait(.nanoseconds(middle)) else { break }
            } else {
                low = middle
            }
        }
        return changed
    }

    private mutating func take(replacingWait index: Int, by wait: Duration) -> Bool {
        var candidate = current
        candidate[index] = .wait(wait)
        return take(candidate)
    }

    /// The menu's waits, shortest first.
    private var menuWaits: [Duration] {
        menuEvents.compactMap { event in
            if case .wait(let wait) = event { return wait }
            return nil
        }.sorted()
    }
}
