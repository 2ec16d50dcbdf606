import BackgroundBudgetCore
import BudgetTime

/// The stretch of a run that a timeline draws: from ``from`` to ``to``, both within the run.
///
/// `bgbudget run FILE --format svg --from 6h --to 9h` draws one; so does
/// ``ScenarioRun/timeline(from:to:)``.
///
/// ```swift
/// let from = try TimelineWindow.instant(parsing: "6h", option: "--from")     // t = 21600 s
/// let svg = try run.timeline(from: from, to: .seconds(32_400))
/// ```
public struct TimelineWindow: Sendable, Hashable {
    /// Where the picture starts.
    public var from: BudgetInstant
    /// Where the picture ends.
    public var to: BudgetInstant

    /// A window of a run: `from` (the start of the run when `nil`) to `to` (the end of the run when `nil`).
    /// - Throws: ``TimelineWindowError/outsideRun(option:value:runEnd:)`` when a bound is after the run's
    ///   end, ``TimelineWindowError/emptyWindow(from:to:)`` when `from` is not before `to`.
    public init(from: BudgetInstant?, to: BudgetInstant?, runEnd: BudgetInstant) throws(TimelineWindowError) {
        if let from, from > runEnd { throw .outsideRun(option: "--from", value: from, runEnd: runEnd) }
        if let to, to > runEnd { throw .outsideRun(option: "--to", value: to, runEnd: runEnd) }
        let start = from ?? .zero, end = to ?? runEnd
        guard start < end else { throw .emptyWindow(from: start, to: end) }
        self.from = start
        self.to = end
    }

    /// An instant written as a duration since the start of the run: seconds (`90`, `1.5`), or a number
    /// with a unit, `ms`, `s`, `min` (or `m`), `h` or `d` (`250ms`, `90s`, `15min`, `6h`, `1.5d`).
    ///
    /// ```swift
    /// #expect(try TimelineWindow.instant(parsing: "15min", option: "--to") == .seconds(900))
    /// ```
    /// - Parameters:
    ///   - text: The value.
    ///   - option: The option it was given for, for the error.
    /// - Throws: ``TimelineWindowError/notADuration(option:value:)``: not a non-negative number with
    ///   at most nine decimals and a known unit, or later than about 292 years.
    public static func instant(parsing text: String, option: String) throws(TimelineWindowError) -> BudgetInstant {
        let units: [(suffix: String, nanoseconds: Int64)] = [
            ("ms", 1_000_000), ("min", 60_000_000_000), ("s", 1_000_000_000), ("m", 60_000_000_000),
            ("h", 3_600_000_000_000), ("d", 86_400_000_000_000),
        ]
        let trimmed = text.trimmingSpaces
        let unit = units.first { trimmed.hasSuffix($0.suffix) }
        let number = unit.map { String(trimmed.dropLast($0.suffix.count)).trimmingSpaces } ?? trimmed
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.count <= 15,
              whole.allSatisfy(\.isASCIIDigit), parts.count == 1 || (1...9).contains(parts[1].count),
              parts.dropFirst().allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let wholeValue = Int64(whole) else {
            throw .notADuration(option: option, value: text)
        }
        let scale = unit?.nanoseconds ?? 1_000_000_000
        let digits = parts.count == 2 ? String(parts[1]) : ""
        let fraction = Int64(digits.isEmpty ? "0" : digits + String(repeating: "0", count: 9 - digits.count)) ?? 0
        let (wholePart, overflow) = wholeValue.multipliedReportingOverflow(by: scale)
        // fraction is in billionths of the unit: fraction × scale / 10⁹, in full width.
        let fractionPart = Int64(1_000_000_000).dividingFullWidth(fraction.multipliedFullWidth(by: scale)).quotient
        guard !overflow, wholePart <= Int64.max - fractionPart else { throw .notADuration(option: option, value: text) }
        return BudgetInstant(nanoseconds: wholePart + fractionPart)
    }
}

/// Why a timeline window was refused: what was wrong with which option.
///
/// ```swift
/// do { _ = try run.timeline(from: .seconds(50), to: .seconds(20)) }
/// catch { print(error) }   // the window is empty: --from (50.000 s) is not before --to (20.000 s)
/// ```
///
/// The errors grow as the model does, so the enum is `@nonexhaustive`: a new case is not a breaking change, and a
/// `switch` outside this package needs an `@unknown default`. Read a case's values with `if case` and bindings, or in
/// the `switch`.
#if hasAttribute(nonexhaustive)
@nonexhaustive
#endif
public enum TimelineWindowError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The value of `option` is not a duration.
    case notADuration(option: String, value: String)
    /// The window's start is not before its end.
    case emptyWindow(from: BudgetInstant, to: BudgetInstant)
    /// The value of `option` is after the run's end.
    case outsideRun(option: String, value: BudgetInstant, runEnd: BudgetInstant)

    /// The problem in a sentence, e.g. `--from '6x' is not a duration: …`.
    public var description: String {
        switch self {
        case .notADuration(let option, let value):
            "\(option) '\(BoundedText.clipped(value))' is not a duration: write seconds (90, 1.5) or a number with a unit, "
                + "ms, s, min, h or d (250ms, 90s, 15min, 6h)"
        case .emptyWindow(let from, let to):
            "the window is empty: --from (\(formatSeconds(from.nanoseconds)) s) is not before --to (\(formatSeconds(to.nanoseconds)) s)"
        case .outsideRun(let option, let value, let runEnd):
            "\(option) (\(formatSeconds(value.nanoseconds)) s) is outside the run, which ends at \(formatSeconds(runEnd.nanoseconds)) s"
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension Character {
    /// `0`…`9`.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
