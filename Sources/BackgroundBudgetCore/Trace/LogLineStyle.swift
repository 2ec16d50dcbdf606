import BudgetTime

/// How ``Trace/logLines(_:)`` prints entries: in the style of `NSLog`, as in the classic State Lab
/// walk-through.
///
/// ```text
/// 2026-01-01 00:00:00.000 State Lab[1069:307] applicationWillResignActive:
/// 2026-01-01 00:00:00.000 State Lab[1069:307] (state: inactive, reason: interruptionBegan)
/// ```
///
/// Callbacks print as their Objective-C selector; state changes and exits print in parentheses so that a
/// reader can tell them from what the app itself would log. The clock is a calendar date: trace time
/// zero is ``start``, with no time zone and no leap seconds, so every machine prints the same lines.
public struct LogLineStyle: Sendable, Hashable {
    /// The calendar date and time printed for trace time zero.
    public var start: DateTime
    /// The process name printed for each app; apps not listed print their bundle identifier.
    public var processNames: [AppID: String]
    /// The process identifier of the first app to appear; later apps count up from it.
    public var firstProcessIdentifier: Int
    /// The thread number printed after the process identifier.
    public var threadNumber: Int
    /// Whether state changes and exits are printed; `false` prints only the callbacks, as an app's own
    /// log would show them.
    public var includesSystemEvents: Bool

    /// Creates a style.
    /// - Parameters:
    ///   - start: The date for trace time zero; defaults to 2026-01-01 00:00:00.000, the date of a virtual
    ///     system's instant zero (`BackgroundSystem.virtualReferenceDate`), so that log stamps and task
    ///     dates share one epoch.
    ///   - processNames: Process names by app.
    ///   - firstProcessIdentifier: The first app's process identifier (default 1069).
    ///   - threadNumber: The thread number (default 307, the main thread in the walk-through).
    ///   - includesSystemEvents: Whether to print state changes and exits.
    public init(
        start: DateTime = DateTime(year: 2026, month: 1, day: 1),
        processNames: [AppID: String] = [:],
        firstProcessIdentifier: Int = 1069,
        threadNumber: Int = 307,
        includesSystemEvents: Bool = true
    ) {
        self.start = start
        self.processNames = processNames
        self.firstProcessIdentifier = firstProcessIdentifier
        self.threadNumber = threadNumber
        self.includesSystemEvents = includesSystemEvents
    }

    /// The log line for one entry, or `nil` when this style leaves it out.
    /// - Parameters:
    ///   - event: The entry.
    ///   - processIdentifier: The process identifier to print.
    public func line(for event: TraceEvent, processIdentifier: Int) -> String? {
        let message: String
        switch event.kind {
        case .callback(let callback):
            message = callback.selector
        case .sceneCallback(let callback, _):
            message = callback.selector
        case .stateChange(let state, let cause):
            guard includesSystemEvents else { return nil }
            message = "(state: \(state), reason: \(cause.reason))"
        default:
            guard includesSystemEvents else { return nil }
            let details = event.fields.map { "\($0.key): \($0.json)" }.joined(separator: ", ")
            message = "(\(event.eventName)\(details.isEmpty ? "" : " " + details))"
        }
        let name = processNames[event.app] ?? event.app.rawValue
        return "\(start.adding(nanoseconds: event.time.nanoseconds)) \(name)[\(processIdentifier):\(threadNumber)] \(message)"
    }

    /// A calendar date and time with millisecond precision, in the proleptic Gregorian calendar.
    public struct DateTime: Sendable, Hashable, CustomStringConvertible {
        /// The year, e.g. 2011.
        public var year: Int
        /// The month, 1–12.
        public var month: Int
        /// The day of the month, 1–31.
        public var day: Int
        /// The hour, 0–23.
        public var hour: Int
        /// The minute, 0–59.
        public var minute: Int
        /// The second, 0–59.
        public var second: Int
        /// The millisecond, 0–999.
        public var millisecond: Int

        /// Creates a date and time. Out-of-range fields are carried into the next larger field when
        /// printed (for example 61 seconds prints as one minute and one second).
        public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0) {
            self.year = year
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
            self.second = second
            self.millisecond = millisecond
        }

        /// `2011-10-31 12:05:15.391`.
        public var description: String {
            adding(nanoseconds: 0)
        }

        /// The date `nanoseconds` later, printed as `yyyy-MM-dd HH:mm:ss.SSS` (rounded to the millisecond).
        func adding(nanoseconds: Int64) -> String {
            let offsetMillis = nanoseconds >= 0
                ? (nanoseconds + 500_000) / 1_000_000 : -((-nanoseconds + 500_000) / 1_000_000)
            let days = Self.daysFromCivil(year: year, month: month, day: day)
            let dayMillis = Int64(((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
            let total = Int64(days) * 86_400_000 + dayMillis + offsetMillis
            let (dayCount, remainder) = total.quotientAndRemainder(dividingBy: 86_400_000)
            let (wholeDays, millisOfDay) = remainder < 0 ? (dayCount - 1, remainder + 86_400_000) : (dayCount, remainder)
            let (y, m, d) = Self.civil(fromDays: Int(wholeDays))
            let ms = Int(millisOfDay)
            return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2)) \(pad(ms / 3_600_000, 2)):\(pad(ms / 60_000 % 60, 2))"
                + ":\(pad(ms / 1000 % 60, 2)).\(pad(ms % 1000, 3))"
        }

        private func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }

        // Howard Hinnant's days-from-civil algorithms (public domain), exact for any Gregorian date.
        private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yoe = y - era * 400
            let mp = (month + 9) % 12
            let doy = (153 * mp + 2) / 5 + day - 1
            let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
            return era * 146_097 + doe - 719_468
        }

        private static func civil(fromDays days: Int) -> (Int, Int, Int) {
            let z = days + 719_468
            let era = (z >= 0 ? z : z - 146_096) / 146_097
            let doe = z - era * 146_097
            let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
            let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
            let mp = (5 * doy + 2) / 153
            let d = doy - (153 * mp + 2) / 5 + 1
            let m = mp < 10 ? mp + 3 : mp - 9
            return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
        }
    }
}
