import BudgetTime

/// The time axis of the SVG timeline: a tick spacing a reader can count in (1, 2, 5, 10, 15, 30 s;
/// 1, 2, 5, 10, 15, 30 min; 1, 2, 3, 6, 12 h; days) with at most ``maxTicks`` intervals, and labels
/// in the unit of the spacing.
struct TimelineAxis: Sendable, Hashable {
    /// The most intervals the axis is divided into.
    static let maxTicks = 10

    /// The spacing between ticks, in nanoseconds.
    let step: Int64
    /// The start of the drawn domain: zero, or the start of a window.
    let domainStart: Int64
    /// The end of the drawn domain: the run's end, or the end of a window; nothing is drawn after it.
    let domainEnd: Int64

    private static let second: Int64 = 1_000_000_000
    private static let candidates: [Int64] = {
        let subSecond: [Int64] = [1, 2, 5, 10, 20, 50, 100, 200, 500].map { $0 * 1_000_000 }
        let seconds: [Int64] = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200]
        let days: [Int64] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000].map { $0 * 86_400 }
        return subSecond + (seconds + days).map { $0 * second }
    }()

    /// The axis for a whole run that ends at `end`.
    init(end: BudgetInstant) {
        self.init(start: 0, end: end.nanoseconds)
    }

    /// The axis for the stretch from `start` to `end`, in nanoseconds (a window of a run).
    init(start: Int64, end: Int64) {
        domainStart = start
        domainEnd = max(end, start + 1_000_000)
        let span = domainEnd - domainStart
        step = Self.candidates.first { span / $0 <= Self.maxTicks } ?? Self.candidates.last!
    }

    /// The tick instants: the multiples of ``step`` from ``domainStart`` to ``domainEnd``, in nanoseconds.
    var ticks: [Int64] {
        let first = (domainStart + step - 1) / step * step
        return Array(stride(from: first, through: domainEnd, by: Int(step)).map { Int64($0) })
    }

    /// A tick's label in the unit of the spacing: `0`, `250 ms`, `15 s`, `90 min`, `6 h`, `2 d`; on the
    /// axis of a window that does not start at zero, with the larger units too: `6 h 30 min`.
    func label(_ tick: Int64) -> String {
        if tick == 0 { return "0" }
        let units: [(Int64, String)] = [
            (86_400 * Self.second, "d"), (3600 * Self.second, "h"), (60 * Self.second, "min"), (Self.second, "s"), (1_000_000, "ms"),
        ]
        let unitIndex = units.firstIndex { step >= $0.0 && step % $0.0 == 0 } ?? units.count - 1
        let unit = units[unitIndex]
        if domainStart == 0 || tick < 2 * units[max(unitIndex - 1, 0)].0 { return "\(tick / unit.0) \(unit.1)" }
        var parts: [String] = []
        var rest = tick
        for (size, name) in units[...unitIndex] where rest >= size {
            parts.append("\(rest / size) \(name)")
            rest %= size
        }
        return parts.joined(separator: " ")
    }
}

/// A coordinate with at most two decimals and no trailing zeros (`12`, `12.5`, `-0.25`), computed
/// with integers so that every platform writes the same bytes.
func svgNumber(_ value: Double) -> String {
    let hundredths = Int64((value * 100).rounded())
    let whole = hundredths / 100
    let fraction = abs(hundredths % 100)
    let sign = hundredths < 0 && whole == 0 ? "-" : ""
    if fraction == 0 { return "\(sign)\(whole)" }
    if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
    return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
}

/// Text escaped for XML content and attribute values.
func xmlEscaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
        case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value):
            out += "\u{FFFD}"   // not allowed in XML 1.0 at all
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}
