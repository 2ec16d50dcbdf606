import BudgetTime

extension Trace {
    /// Appends an entry, honouring a retention limit (amortised O(1)).
    mutating func append(_ event: TraceEvent, retention: TraceRetention) {
        switch retention {
        case .all, .automatic:   // a system resolves `automatic` before it records anything
            events.append(event)
        case .latest(let count):
            events.append(event)
            let keep = max(count, 0)
            if events.count >= 2 * keep + 1 {
                let drop = events.count - keep
                events.removeFirst(drop)
                discardedCount += drop
            }
        case .none:
            discardedCount += 1
        }
    }
}
