import BackgroundBudgetExplorer
import BackgroundBudget
import BackgroundBudgetScenario

/// `scenes_10k_run_ms`: decode and run a scenario that opens 10,000 windows of one scene-based app a
/// millisecond apart, presses Home and returns (what `bgbudget run` does apart from reading the file
/// and printing). Its baseline is four times the same run with 2,500 windows: a ratio near 1 means the
/// run is linear in the number of scenes (each scene step O(1) amortized); a quadratic run would show 4.
struct SceneScaleBenchmark: Benchmark {
    var figureNames: [String] { ["scenes_10k_run_ms"] }

    func run() -> [Figure] {
        func measure(scenes: Int) -> Double {
            let text = Self.generate(scenes: scenes)
            func once() {
                do { _ = try Scenario(json: text).run() } catch { fatalError("generated scenario was refused: \(error)") }
            }
            once() // warm-up
            return median((0..<3).map { _ in
                let start = nowNanoseconds()
                once()
                return Double(nowNanoseconds() - start) / 1e6
            })
        }
        let large = measure(scenes: 10_000)
        let small = measure(scenes: 2_500)
        return [Figure(name: "scenes_10k_run_ms", value: large, unit: "ms", baseline: "4x_scenes_2500_run_ms", baselineValue: 4 * small,
                       note: "target < 1000 ms; 2,500 scenes \(String(format3: small)) ms; ratio 1 = linear, 4 = quadratic")]
    }

    /// The scenario: launch at 0 s, `scenes` − 1 more windows a millisecond apart, Home 1 s after the
    /// last, and a return 20 s later.
    static func generate(scenes: Int) -> String {
        var events = [#"{"at": 0, "do": "launch", "app": "com.example.notes"}"#]
        for i in 1..<scenes { events.append(#"{"at": \#(Double(i) / 1000), "do": "openScene", "app": "com.example.notes"}"#) }
        let home = Double(scenes) / 1000 + 1
        events.append(#"{"at": \#(home), "do": "home"}"#)
        events.append(#"{"at": \#(home + 20), "do": "open", "app": "com.example.notes"}"#)
        return #"{"apps": [{"id": "com.example.notes", "scenes": "multiple"}], "events": [\#(events.joined(separator: ","))], "end": \#(home + 40)}"#
    }
}
