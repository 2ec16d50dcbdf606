import BudgetTime

/// One app's memory: its footprint and when it was last used (least recently used apps go first);
/// whether its process is handling a memory warning is the process's (``Running``).
///
/// The rules here are pure: ``DeviceCore`` orchestrates them in DeviceCore+Memory.swift.
package struct MemoryState: Sendable {
    /// The app's memory footprint in bytes while it is in memory.
    package internal(set) var footprint = 0
    /// When the app last entered or left the foreground (least recently used apps go first).
    package internal(set) var lastUsed = BudgetInstant.zero

    /// No footprint, never used.
    package init(footprint: Int = 0, lastUsed: BudgetInstant = .zero) {
        self.footprint = footprint
        self.lastUsed = lastUsed
    }

    /// Sets the footprint (clamped with ``DeviceCore/clampedFootprint(_:)``) and returns by how much the
    /// bytes in use change.
    package mutating func setFootprint(_ bytes: Int) -> Int {
        let footprint = DeviceCore.clampedFootprint(bytes)
        defer { self.footprint = footprint }
        return footprint - self.footprint
    }

    /// The order suspended apps are purged in, smallest first, as `order` says: largest footprint
    /// first and least recently used among equals (the model's assumption), or least recently used
    /// first and largest footprint among equals (xnu's order within a band [S101]).
    /// - Parameter order: The policy's ``BudgetPolicy/jetsamOrderWithinBand``.
    func purgeRank(_ order: JetsamOrder) -> (Int64, Int64) {
        switch order {
        case .largestFootprint: (Int64(-footprint), lastUsed.nanoseconds)
        case .leastRecentlyUsed: (lastUsed.nanoseconds, Int64(-footprint))
        }
    }

}

extension MemoryState {
    /// The memory warning of the running process (``DeviceCore/RunningProcess/memory``): a warning
    /// being handled ends with the process.
    package struct Running: Sendable {
        /// Whether a memory warning is being handled on the app's queue.
        var warningInFlight = false

        /// No warning, or one being handled.
        package init(warningInFlight: Bool = false) {
            self.warningInFlight = warningInFlight
        }

        /// Marks a warning sent; `false` (and nothing changes) when one is already being handled.
        mutating func warningSent() -> Bool {
            guard !warningInFlight else { return false }
            warningInFlight = true
            return true
        }

        /// Marks the warning handled; `false` when none was in flight.
        mutating func warningSettled() -> Bool {
            guard warningInFlight else { return false }
            warningInFlight = false
            return true
        }
    }
}
