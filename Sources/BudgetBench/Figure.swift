/// One measured figure, the in-run baseline it is compared with, and their ratio.
///
/// Printed on one line as
/// `FIGURE <name> <value> <unit> baseline=<baseline name>:<baseline value> ratio=<value / baseline>`,
/// followed by ` target:ratio<=1.000 MET` (or `NOT-MET`) when the ratio has a target, then `  # <note>`
/// when there is a note. A figure without a baseline prints `baseline=none ratio=-`.
struct Figure {
    var name: String
    var value: Double
    /// What `value` counts: `ns`, `ms`, `s`, `/s`, `B`, ...
    var unit: String
    /// The alternative measured in the same run, if any.
    var baseline: Baseline?
    /// Printed after the figure: how it was measured, the load.
    var note: String = ""
    /// The ratio the figure must reach against its baseline, if it has a target.
    var target: Target?

    /// A bound on ``ratio`` (or, when `onValue`, on ``value``): at most (`atMost`) or at least `bound`.
    struct Target {
        var atMost: Bool
        var bound: Double
        var onValue = false

        /// Whether `number` meets the bound.
        func isMet(by number: Double) -> Bool { atMost ? number <= bound : number >= bound }

        var text: String { (onValue ? "value" : "ratio") + (atMost ? "<=" : ">=") + (onValue ? format(bound) : formatRatio(bound)) }
    }

    /// This figure with a target ratio against its baseline.
    func targeting(atMost: Bool, _ ratio: Double) -> Figure {
        var figure = self
        figure.target = Target(atMost: atMost, bound: ratio)
        return figure
    }

    /// This figure with a target on its own value.
    func targeting(valueAtMost bound: Double) -> Figure {
        var figure = self
        figure.target = Target(atMost: true, bound: bound, onValue: true)
        return figure
    }

    /// A figure's in-run alternative: its name and its value in the same unit.
    struct Baseline {
        var name: String
        var value: Double
    }

    /// A figure with a baseline measured in the same run.
    init(name: String, value: Double, unit: String, baseline: String, baselineValue: Double, note: String = "",
         target: Target? = nil) {
        self.name = name
        self.value = value
        self.unit = unit
        self.baseline = Baseline(name: baseline, value: baselineValue)
        self.note = note
        self.target = target
    }

    /// A figure without a baseline (the unit is guessed from the name's suffix); prefer the
    /// initializer with a baseline.
    init(name: String, value: Double, note: String = "") {
        self.name = name
        self.value = value
        self.unit = Self.unit(guessedFrom: name)
        self.baseline = nil
        self.note = note
    }

    /// `value / baseline`, or `nil` without a baseline.
    var ratio: Double? {
        baseline.map { value / $0.value }
    }

    /// The figure's line.
    var line: String {
        var text = "FIGURE \(name) \(format(value)) \(unit.isEmpty ? "1" : unit) "
        if let baseline, let ratio {
            text += "baseline=\(baseline.name):\(format(baseline.value)) ratio=\(formatRatio(ratio))"
            if let target { text += " target:\(target.text) " + (target.isMet(by: target.onValue ? value : ratio) ? "MET" : "NOT-MET") }
        } else {
            text += "baseline=none ratio=-"
        }
        return note.isEmpty ? text : text + "  # " + note
    }

    private static func unit(guessedFrom name: String) -> String {
        for (suffix, unit) in [("_per_s", "/s"), ("_ns", "ns"), ("_us", "us"), ("_ms", "ms"), ("_s", "s"), ("bytes", "B")]
        where name.hasSuffix(suffix) || name.hasPrefix(suffix) {
            return unit
        }
        return ""
    }
}

/// A ratio with enough digits to read both 0.004 and 1234.
func formatRatio(_ ratio: Double) -> String {
    if !ratio.isFinite { return String(describing: ratio) }
    if abs(ratio) >= 100 { return format(ratio.rounded()) }
    if abs(ratio) >= 0.01 { return String(format3: ratio) }
    return String(format3: ratio * 1000) + "e-3"
}
