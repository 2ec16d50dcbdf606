import BackgroundBudgetExplorer
import BackgroundBudget
import BackgroundBudgetScenario

/// `scenario_24h_20apps_10k_events_ms`: decode, validate and run a generated scenario of 24 simulated
/// hours with 20 apps and 10,000 events (what `bgbudget run` does apart from reading the file).
/// The note gives the parts and the cost of each output format.
struct ScenarioBenchmark: Benchmark {
    var figureNames: [String] { ["scenario_24h_20apps_10k_events_ms"] }

    func run() -> [Figure] {
        let text = Self.generate(apps: 20, events: 10_000, seconds: 86_400, seed: 2024)
        func measure(_ body: () -> Void) -> Double {
            body() // warm-up
            return median((0..<5).map { _ in
                let start = nowNanoseconds()
                body()
                return Double(nowNanoseconds() - start) / 1e6
            })
        }
        func scenario() -> Scenario {
            do { return try Scenario(json: text) } catch { fatalError("generated scenario is invalid: \(error)") }
        }
        func runIt(_ scenario: Scenario) -> ScenarioRun {
            do { return try scenario.run() } catch { fatalError("generated scenario was refused: \(error)") }
        }
        let total = measure { _ = runIt(scenario()) }
        let decode = measure { _ = scenario() }
        let result = runIt(scenario())
        let log = measure { _ = result.rendered(as: .log) }
        let svg = measure { _ = result.rendered(as: .svg) }
        let note = "target < 1000 ms; decode \(String(format3: decode)) ms; \(result.trace.events.count) trace events; "
            + "render log \(String(format3: log)) ms, svg \(String(format3: svg)) ms (\(result.rendered(as: .svg).utf8.count / 1024) KiB)"
        return [Figure(name: "scenario_24h_20apps_10k_events_ms", value: total, note: note)]
    }

    /// A valid scenario, the same for the same arguments: each event is chosen among those the
    /// lifecycle accepts in the state the previous ones leave, so the run is never refused.
    static func generate(apps appCount: Int, events eventCount: Int, seconds: Int, seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        let ids = (0..<appCount).map { "com.example.app\($0)" }
        let exitsOnSuspend = Set([3, 11].filter { $0 < appCount })
        enum State { case notRunning, suspended, foreground }
        var states = Array(repeating: State.notRunning, count: appCount)
        var foreground: Int?
        var interrupted = false
        var lines: [String] = []
        var millis = 0
        let meanGap = seconds * 1000 / (eventCount + eventCount / 20)   // 5 % slack before the end

        func leave(_ app: Int) { states[app] = exitsOnSuspend.contains(app) ? .notRunning : .suspended }
        func event(_ action: String, _ app: Int? = nil, _ extra: String = "") {
            let appKey = app.map { #", "app": "\#(ids[$0])""# } ?? ""
            lines.append(#"{"at": \#(millis / 1000).\#(String(format: millis % 1000)), "do": "\#(action)"\#(appKey)\#(extra)}"#)
        }
        for _ in 0..<eventCount {
            millis = min(millis + 1 + Int(random.next(below: UInt64(2 * meanGap - 1))), seconds * 1000)
            let roll = Int(random.next(below: UInt64(100)))
            let others = (0..<appCount).filter { $0 != foreground }
            let suspended = others.filter { states[$0] == .suspended }
            let launchable = others.filter { states[$0] == .notRunning && !exitsOnSuspend.contains($0) }
            if let current = foreground, interrupted {
                interrupted = false
                if roll < 50 { event("dismissInterruption") } else { event("answerInterruption"); leave(current); foreground = nil }
            } else if let current = foreground, roll < 30 {
                event("home"); leave(current); foreground = nil
            } else if let current = foreground, roll < 55 {
                let target = others[Int(random.next(below: UInt64(others.count)))]
                event("switchTo", target); leave(current); states[target] = .foreground; foreground = target
            } else if foreground != nil, roll < 65 {
                event("beginInterruption"); interrupted = true
            } else if roll < 70, !suspended.isEmpty {
                let app = suspended[Int(random.next(below: UInt64(suspended.count)))]
                event("purge", app); states[app] = .notRunning
            } else if roll < 73 {
                let app = others[Int(random.next(below: UInt64(others.count)))]
                event("killFromAppSwitcher", app); states[app] = .notRunning
            } else if roll < 83, !launchable.isEmpty {
                let app = launchable[Int(random.next(below: UInt64(launchable.count)))]
                event("launchInBackground", app, #", "reason": "backgroundFetch""#); states[app] = .suspended
            } else {
                let app = Int(random.next(below: UInt64(appCount)))
                event("open", app)
                if let current = foreground, current != app { leave(current) }
                states[app] = .foreground; foreground = app
            }
        }
        let appObjects = ids.enumerated().map { index, id in
            let work = index % 4 == 0 ? #", "behaviour": {"applicationDidEnterBackground": [{"do": "work", "for": 1.5}]}"# : ""
            return #"{"id": "\#(id)", "displayName": "App \#(index)", "exitsOnSuspend": \#(exitsOnSuspend.contains(index))\#(work)}"#
        }
        return """
            {"description": "generated: \(appCount) apps, \(eventCount) events over \(seconds) s",
             "apps": [\(appObjects.joined(separator: ",\n  "))],
             "events": [
              \(lines.joined(separator: ",\n  "))
             ],
             "end": \(seconds)}
            """
    }
}

extension String {
    /// Three digits with leading zeros, for milliseconds.
    fileprivate init(format millis: Int) {
        self = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
    }
}
