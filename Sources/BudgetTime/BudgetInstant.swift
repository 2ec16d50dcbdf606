/// A point in time on a budget clock, measured in nanoseconds from the clock's origin.
///
/// Both clocks in this package count time the same way: `VirtualClock` starts at ``zero`` and moves
/// only when a test advances it; the real-time clock measures monotonic uptime from the moment it
/// was created. Instants are plain values, so a trace recorded on either clock reads the same.
///
/// ```swift
/// let entry = BudgetInstant.seconds(12)
/// let expiry = entry + .seconds(30)
/// print(expiry - entry)          // 30.0 seconds
/// print(expiry.seconds)          // 42.0
/// ```
public struct BudgetInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    /// Creates an instant a number of nanoseconds after the clock's origin.
    /// - Parameter nanoseconds: Nanoseconds since the origin. Negative values are allowed and lie
    ///   before the origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The clock's origin.
    public static let zero = BudgetInstant(nanoseconds: 0)

    /// The latest representable instant; used as "never".
    public static let distantFuture = BudgetInstant(nanoseconds: .max)

    /// The instant a whole number of seconds after the origin.
    /// - Parameter seconds: Seconds since the origin.
    /// - Returns: The instant, saturating at ``distantFuture``.
    public static func seconds(_ seconds: Int64) -> BudgetInstant {
        let (value, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? BudgetInstant(nanoseconds: .min) : .distantFuture)
            : BudgetInstant(nanoseconds: value)
    }

    /// The instant a number of milliseconds after the origin.
    /// - Parameter milliseconds: Milliseconds since the origin.
    /// - Returns: The instant, saturating at ``distantFuture``.
    public static func milliseconds(_ milliseconds: Int64) -> BudgetInstant {
        let (value, overflow) = milliseconds.multipliedReportingOverflow(by: 1_000_000)
        return overflow ? (milliseconds < 0 ? BudgetInstant(nanoseconds: .min) : .distantFuture)
            : BudgetInstant(nanoseconds: value)
    }

    /// Seconds since the origin, as a floating-point number (for display and JSON).
    public var seconds: Double {
        Double(nanoseconds) / 1_000_000_000
    }

    /// Time since the origin as a `Duration`.
    public var durationSinceOrigin: Duration {
        .nanoseconds(nanoseconds)
    }

    /// This instant moved by a duration, saturating at the ends of the representable range.
    /// - Parameter duration: How far to move; may be negative.
    /// - Returns: The moved instant.
    public func advanced(by duration: Duration) -> BudgetInstant {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.nanosecondsSaturating)
        if overflow {
            return BudgetInstant(nanoseconds: duration > .zero ? .max : .min)
        }
        return BudgetInstant(nanoseconds: sum)
    }

    /// The duration from this instant to another.
    /// - Parameter other: The later instant.
    /// - Returns: `other - self`.
    public func duration(to other: BudgetInstant) -> Duration {
        .nanoseconds(other.nanoseconds) - .nanoseconds(nanoseconds)
    }

    /// Moves an instant forward by a duration.
    public static func + (lhs: BudgetInstant, rhs: Duration) -> BudgetInstant {
        lhs.advanced(by: rhs)
    }

    /// Moves an instant back by a duration.
    public static func - (lhs: BudgetInstant, rhs: Duration) -> BudgetInstant {
        lhs.advanced(by: .zero - rhs)
    }

    /// The duration between two instants.
    public static func - (lhs: BudgetInstant, rhs: BudgetInstant) -> Duration {
        rhs.duration(to: lhs)
    }

    /// Orders instants by time.
    public static func < (lhs: BudgetInstant, rhs: BudgetInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// Seconds since the origin with millisecond precision, e.g. `"t=25.000s"`.
    public var description: String {
        "t=\(formatSeconds(nanoseconds))s"
    }
}

extension Duration {
    /// The duration in whole nanoseconds (rounded toward zero), clamped to `Int64`.
    ///
    /// Where the standard library has `Duration.attoseconds`, one 128-by-64-bit division; elsewhere
    /// through `components` and its 128-bit division by 10¹⁸ (in which a `VirtualClock` advanced in
    /// `Duration` steps spent 6 % of a bulk benchmark's instructions).
    package var nanosecondsSaturating: Int64 {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            let attoseconds = self.attoseconds
            let magnitude = attoseconds.magnitude
            let high = UInt64(truncatingIfNeeded: magnitude >> 64)
            let perNanosecond: UInt64 = 1_000_000_000
            // Past 2⁶⁴ ns the quotient does not fit a UInt64, let alone an Int64.
            guard high < perNanosecond else { return attoseconds < 0 ? .min : .max }
            let nanoseconds = perNanosecond.dividingFullWidth((high, UInt64(truncatingIfNeeded: magnitude))).quotient
            if attoseconds < 0 {
                return nanoseconds <= Int64.min.magnitude ? Int64(truncatingIfNeeded: 0 &- nanoseconds) : .min
            }
            return nanoseconds <= UInt64(Int64.max) ? Int64(nanoseconds) : .max
        }
        return nanosecondsThroughComponents
    }

    /// ``nanosecondsSaturating`` through `components`, for standard libraries without
    /// `Duration.attoseconds` (and for tests, which compare the two).
    package var nanosecondsThroughComponents: Int64 {
        let (seconds, attoseconds) = components
        let (wholeNanos, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = wholeNanos.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return sum
    }

    /// The duration in seconds as a floating-point number.
    package var secondsDouble: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Formats nanoseconds as seconds with exactly three decimals (`12.000`, `-0.500`), rounding half
/// away from zero. Integer arithmetic only, so every platform prints the same digits.
package func formatSeconds(_ nanoseconds: Int64) -> String {
    let negative = nanoseconds < 0
    let magnitude = nanoseconds.magnitude
    let millis = (magnitude + 500_000) / 1_000_000
    let whole = millis / 1000
    let fraction = millis % 1000
    let fractionText = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
    return "\(negative && millis > 0 ? "-" : "")\(whole).\(fractionText)"
}
