/// The device's memory: its capacity, the bytes the apps in memory use together, and the
/// episode of pressure under way (memory warnings sent and not yet handled).
///
/// The rules here are pure: ``DeviceCore`` orchestrates them in DeviceCore+Memory.swift.
package struct MemoryPressureState: Sendable {
    /// The memory the apps in memory may use together, in bytes; `nil` for no limit.
    package private(set) var capacity: Int?
    /// The bytes the apps in memory use together (kept up to date; see
    /// ``DeviceCore/memoryInUseRecomputed``).
    package internal(set) var inUse = 0
    /// Memory warnings delivered and not yet handled in the current episode of pressure.
    var pendingWarnings = 0
    /// Whether the current episode of pressure has sent its memory warnings.
    var warnedThisEpisode = false
    /// Set when an exit ends an episode's last pending memory warning.
    var recheckDue = false

    /// No limit, nothing in use, no episode.
    package init(capacity: Int? = nil, inUse: Int = 0, pendingWarnings: Int = 0, warnedThisEpisode: Bool = false) {
        self.capacity = capacity
        self.inUse = inUse
        self.pendingWarnings = pendingWarnings
        self.warnedThisEpisode = warnedThisEpisode
    }

    /// Whether the apps in memory need more than the capacity.
    var isOverCapacity: Bool {
        capacity.map { inUse > $0 } ?? false
    }

    /// Sets the capacity (negative values count as zero); `true` when it changed.
    mutating func setCapacity(_ bytes: Int?) -> Bool {
        let capacity = bytes.map { max(0, $0) }
        defer { self.capacity = capacity }
        return capacity != self.capacity
    }

    /// Ends the episode of pressure, unless a warning is still being handled.
    mutating func endEpisodeIfSettled() {
        if pendingWarnings == 0 { warnedThisEpisode = false }
    }

    /// Starts the episode's warnings: `false` when it has sent them already.
    mutating func beginWarnings() -> Bool {
        guard !warnedThisEpisode else { return false }
        warnedThisEpisode = true
        return true
    }

    /// One warning settled (handled, or dropped with its process): `true` when it was the last.
    @discardableResult
    mutating func warningSettled() -> Bool {
        pendingWarnings -= 1
        return pendingWarnings == 0
    }
}
