import BackgroundBudget

extension Explorer {
    /// Shrinks a failing sequence to a minimal one that still breaks the same invariant first, by
    /// delta debugging: cut the events after the failure; drop runs of events, halving the run length
    /// down to one event; merge neighbouring waits; replace two neighbouring events by one menu event;
    /// replace each event by the earliest menu event that still fails; shorten each wait (to each
    /// shorter wait of the menu, then to half); and repeat until nothing changes. Deterministic: the same sequence always
    /// shrinks to the same result.
    ///
    /// The result is 1-minimal: removing any one of its events no longer breaks the invariant.
    /// - Parameters:
    ///   - events: A sequence that breaks `invariant`.
    ///   - invariant: The invariant's name.
    /// - Returns: The shrunk failure with its scenario file; the sequence as it was if it does not
    ///   break `invariant` first (which a sequence found by this explorer always does).
    public func shrink(_ events: [ExplorerEvent], invariant: String) -> ExplorerFailure {
        var current = events
        var broken = firstViolation(in: current).flatMap { $0.invariant == invariant ? $0 : nil }
        if let index = broken?.index { current = Array(current.prefix(index + 1)) }
        var changed = broken != nil
        while changed {
            changed = false
            // Drop runs of events, longest first.
            var size = max(current.count / 2, 1)
            while size >= 1 {
                var start = 0
                while start < current.count {
                    var candidate = current
                    candidate.removeSubrange(start..<min(start + size, current.count))
                    if let result = stillBreaks(candidate, invariant) {
                        current = Array(candidate.prefix(result.index + 1))
                        broken = result
                        changed = true
                    } else {
                        start += size
                    }
                }
                size /= 2
            }
            // Merge neighbouring waits.
            var index = 0
            while index + 1 < current.count {
                if case .wait(let first) = current[index], case .wait(let second) = current[index + 1] {
                    var candidate = current
                    candidate.replaceSubrange(index...index + 1, with: [.wait(first + second)])
                    if let result = stillBreaks(candidate, invariant) {
                        current = Array(candidate.prefix(result.index + 1))
                        broken = result
                        changed = true
                        continue
                    }
                }
                index += 1
            }
            // Replace two neighbouring events by one of the menu (an interruption answered by Home).
            index = 0
            while index + 1 < current.count {
                if let (candidate, result) = firstReplacement(of: index...index + 1, in: current, invariant) {
                    current = Array(candidate.prefix(result.index + 1))
                    broken = result
                    changed = true
                    continue
                }
                index += 1
            }
            // Replace each event by the earliest menu event that still breaks the invariant, so that
            // different finds shrink to the same sequence.
            for index in current.indices where index < current.count {
                let position = menu.entries.firstIndex { $0.event == current[index] } ?? menu.entries.count
                if let (candidate, result) = firstReplacement(of: index...index, in: current, invariant, before: position) {
                    current = Array(candidate.prefix(result.index + 1))
                    broken = result
                    changed = true
                }
            }
            // Shorten waits.
            for index in current.indices where index < current.count {
                guard case .wait(let duration) = current[index] else { continue }
                for shorter in shorterWaits(than: duration) {
                    var candidate = current
                    candidate[index] = .wait(shorter)
                    if let result = stillBreaks(candidate, invariant), result.index >= index {
                        current = Array(candidate.prefix(result.index + 1))
                        broken = result
                        changed = true
                        break
                    }
                }
            }
        }
        let failingEvent = broken?.index ?? max(current.count - 1, 0)
        let message = broken?.message ?? "the sequence no longer breaks \(invariant)"
        let description = "Found by the explorer: \(invariant) breaks at event \(failingEvent + 1) of \(current.count)"
            + (current.indices.contains(failingEvent) ? " (\(current[failingEvent]))" : "") + ": \(message)"
        return ExplorerFailure(invariant: invariant, message: message, events: current, failingEvent: failingEvent,
                               foundLength: events.count, scenarioFile: target.scenarioFile(for: current, description: description))
    }

    /// The first violation of `candidate` if it is `invariant`'s.
    private func stillBreaks(_ candidate: [ExplorerEvent], _ invariant: String) -> (invariant: String, message: String, index: Int)? {
        guard !candidate.isEmpty, let result = firstViolation(in: candidate), result.invariant == invariant else { return nil }
        return result
    }

    /// The first menu event (among the first `limit`) that can replace `range` with the sequence
    /// still breaking `invariant`.
    private func firstReplacement(of range: ClosedRange<Int>, in events: [ExplorerEvent], _ invariant: String,
                                  before limit: Int? = nil) -> ([ExplorerEvent], (invariant: String, message: String, index: Int))? {
        for entry in menu.entries.prefix(limit ?? menu.entries.count) {
            var candidate = events
            candidate.replaceSubrange(range, with: [entry.event])
            if let result = stillBreaks(candidate, invariant), result.index >= range.lowerBound { return (candidate, result) }
        }
        return nil
    }

    /// The waits to try instead of one: the menu's shorter waits, shortest first, then half of it.
    private func shorterWaits(than duration: Duration) -> [Duration] {
        var waits: [Duration] = menu.entries.compactMap { entry in
            if case .wait(let wait) = entry.event, wait < duration { return wait }
            return nil
        }
        let half = duration / 2
        if half > .zero, half >= .milliseconds(1) { waits.append(half) }
        var unique: [Duration] = []
        for wait in waits.sorted() where !unique.contains(wait) { unique.append(wait) }
        return unique
    }
}
