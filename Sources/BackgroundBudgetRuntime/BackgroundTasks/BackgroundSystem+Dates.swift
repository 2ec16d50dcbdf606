import BudgetClock
import BackgroundBudgetCore
import BudgetTime
import Foundation

/// The one mapping between the system's instants and `Date`s, which ``ScheduledTaskRequest/earliestBeginDate``
/// and other `Date`-shaped APIs go through.
///
/// - On a ``VirtualClock`` (and any clock other than a ``DispatchClock``) the instant zero is
///   ``virtualReferenceDate``, 2026-01-01 00:00:00 UTC, always: the same test gives the same dates.
///   `Date()` is the machine's wall clock and means nothing to a virtual device; use ``currentDate``.
/// - On a ``DispatchClock`` the instant zero is the wall-clock date at which the clock's zero
///   happened, measured once, the first time a date is converted, as `Date()` minus the clock's
///   ``BudgetClock/now``; from then on both move together (the clock is monotonic, so a later change
///   of the device's date does not move it).
///
/// A `Date` holds about a tenth of a microsecond of precision at these dates, so conversions to instants
/// round to the nearest microsecond: whole seconds and milliseconds map exactly. Dates beyond the
/// instants' range (±292 years around the zero) saturate at ``BudgetInstant/distantFuture`` or its
/// negative counterpart; a NaN date maps to the zero.
///
/// ```swift
/// let system = BackgroundSystem(clock: VirtualClock())
/// system.instant(at: BackgroundSystem.virtualReferenceDate.addingTimeInterval(90))   // t=90.000s
/// system.date(at: .seconds(90))                                                    // 2026-01-01 00:01:30 +0000
/// ```
extension BackgroundSystem {
    /// The date of the instant zero on a ``VirtualClock``: 2026-01-01 00:00:00 UTC.
    public static let virtualReferenceDate = Date(timeIntervalSinceReferenceDate: 788_918_400)

    /// The date of the instant zero on this system's clock: ``virtualReferenceDate`` on a virtual
    /// clock, the wall-clock date of the clock's zero on a ``DispatchClock``.
    public var referenceDate: Date {
        Date(timeIntervalSinceReferenceDate: originSeconds)
    }

    /// The date now, on this system's clock (`Date()` as the model's apps see it).
    public var currentDate: Date { date(at: clock.now) }

    /// The date of an instant of this system's clock.
    /// - Parameter instant: An instant.
    /// - Returns: ``referenceDate`` moved by the instant.
    public func date(at instant: BudgetInstant) -> Date {
        Date(timeIntervalSinceReferenceDate: originSeconds + Double(instant.nanoseconds) / 1e9)
    }

    /// The instant of this system's clock at a date, to the nearest microsecond, saturating at the
    /// ends of the instants' range; a NaN date maps to the zero.
    /// - Parameter date: A date.
    /// - Returns: The instant.
    public func instant(at date: Date) -> BudgetInstant {
        let microseconds = ((date.timeIntervalSinceReferenceDate - originSeconds) * 1e6).rounded()
        guard !microseconds.isNaN else { return .zero }
        let limit = Double(Int64.max / 1000)
        guard abs(microseconds) < limit else { return BudgetInstant(nanoseconds: microseconds > 0 ? .max : .min) }
        return BudgetInstant(nanoseconds: Int64(microseconds) * 1000)
    }

    /// ``referenceDate`` as a calendar date in UTC, to the millisecond: trace time zero in
    /// ``logLines(includesSystemEvents:)``, so that log stamps and task dates share one epoch. On a
    /// ``VirtualClock`` it is ``LogLineStyle``'s default start, 2026-01-01 00:00:00.000.
    public var logLineStart: LogLineStyle.DateTime {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let milliseconds = (referenceDate.timeIntervalSinceReferenceDate * 1000).rounded()
        let whole = Date(timeIntervalSinceReferenceDate: (milliseconds / 1000).rounded(.down))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        return LogLineStyle.DateTime(
            year: parts.year ?? 2026, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0,
            minute: parts.minute ?? 0, second: parts.second ?? 0,
            millisecond: Int(milliseconds - (milliseconds / 1000).rounded(.down) * 1000))
    }

    /// ``referenceDate`` in seconds since 2001.
    private var originSeconds: Double {
        #if canImport(Dispatch)
        guard clock is DispatchClock else { return Self.virtualReferenceDate.timeIntervalSinceReferenceDate }
        let clock = clock
        return wallClockOrigin.withLock { origin in
            if let origin { return origin }
            let measured = Date().timeIntervalSinceReferenceDate - clock.now.seconds
            origin = measured
            return measured
        }
        #else
        return Self.virtualReferenceDate.timeIntervalSinceReferenceDate
        #endif
    }
}
