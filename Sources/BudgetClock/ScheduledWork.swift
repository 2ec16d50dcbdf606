import BudgetLock

/// A handle to work scheduled on a clock; pass it to the same clock's `cancel(_:)`
/// (``VirtualClock/cancel(_:)``, ``DispatchClock/cancel(_:)``).
///
/// The handle is a small value (no allocation) that names one scheduling. It stays valid only while
/// that work is pending: once the work has run or been cancelled, the handle cancels nothing, even
/// after the clock reuses the storage for other work, and a handle from one clock never cancels
/// work on another. Handles compare equal only when they name the same scheduling, so they can key
/// a dictionary or set of pending work.
///
/// ```swift
/// let clock = VirtualClock()
/// let expiry = clock.schedule(after: .seconds(30)) { print("expired") }
/// clock.cancel(expiry)    // true: it was pending
/// clock.cancel(expiry)    // false: already cancelled
/// ```
public struct ScheduledWork: Hashable, Sendable {
    /// The identity of the clock that issued the handle.
    package let clock: UInt64
    /// The entry in that clock's deadline heap.
    package let entry: DeadlineHeap<ClockWork>.Handle

    /// A new clock identity, different from every other clock's in this process (virtual or real),
    /// so a handle from one clock never matches another's work.
    package static func nextClockIdentity() -> UInt64 {
        clockIdentities.withLock { next in
            defer { next &+= 1 }
            return next
        }
    }
}

/// Source of clock identities; see ``ScheduledWork/nextClockIdentity()``.
private let clockIdentities = LockedValue<UInt64>(0)
