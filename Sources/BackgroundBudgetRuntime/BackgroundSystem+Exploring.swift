/// What tools that follow a run as it goes read: the trace a piece at a time, and a fingerprint of the state.
import BackgroundBudgetCore

extension BackgroundSystem {
    /// The trace events recorded after the first `count` (kept or discarded), in order; O(new events),
    /// unlike ``trace``, whose copy makes the next recording copy the whole trace. Events already
    /// discarded by the retention are skipped.
    /// - Parameter count: How many events the caller has already read (``recordedEventCount`` then).
    /// - Returns: The newer events.
    package func recordedEvents(after count: Int) -> [TraceEvent] {
        state.withLock { state in
            let trace = state.core.trace
            let start = max(count - trace.discardedCount, 0)
            guard start < trace.events.count else { return [] }
            return Array(trace.events[start...])
        }
    }

    /// A hand-written fingerprint of the core's state with instants relative to the clock's now (see
    /// `DeviceCore.fingerprint(relativeTo:)`): equal for two systems that decide alike from then on.
    package var coreFingerprint: UInt64 {
        let now = clock.now
        return state.withLock { $0.core.fingerprint(relativeTo: now) }
    }
}
