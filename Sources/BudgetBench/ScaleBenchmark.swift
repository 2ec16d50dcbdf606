import BackgroundBudgetExplorer
import BackgroundBudget
import BackgroundBudgetScenario

/// `week_1000apps_1m_events_s`: a simulated week on one device with 1,000 apps and 1,000,000 events —
/// opens, Home, app switches, interruptions, background tasks, background launches, silent pushes,
/// footprint changes under a memory capacity that forces purges and kills, and notifications — built
/// in memory and run on the virtual clock. Seconds of wall time for the run (validation included).
struct ScaleBenchmark: Benchmark {
    var figureNames: [String] { ["week_1000apps_1m_events_s"] }

    func run() -> [Figure] {
        let scenario = Self.generate(apps: 1_000, events: 1_000_000, seconds: 7 * 86_400, seed: 77)
        let start = nowNanoseconds()
        let result: ScenarioRun
        do { result = try scenario.run() } catch { fatalError("generated scenario was refused: \(error)") }
        let seconds = Double(nowNanoseconds() - start) / 1e9
        let exits = result.trace.events.filter { $0.eventName == "exit" }.count
        return [Figure(name: "week_1000apps_1m_events_s", value: seconds,
                       note: "target: seconds; \(result.trace.events.count) trace events, \(exits) exits (purges, kills, user kills)")]
    }

    /// Events chosen so the lifecycle never refuses one: the generator tracks which app is in front.
    static func generate(apps appCount: Int, events eventCount: Int, seconds: Int64, seed: UInt64) -> Scenario {
        var random = SplitMix64(seed: seed)
        func pick(_ bound: Int) -> Int { Int(random.next(below: UInt64(bound))) }
        let ids = (0..<appCount).map { AppID(rawValue: "com.example.app\($0)") }
        let apps = ids.enumerated().map { index, id -> ScenarioApp in
            var manifest = AppManifest(id: id, backgroundModes: index % 10 == 0 ? [.remoteNotification] : [])
            manifest.memoryFootprint = (20 + index % 200) * 1_000_000
            let behaviour = index % 3 == 0
                ? ScenarioBehaviour([.didEnterBackground: [.beginTask(ScenarioTask(name: "save", work: .seconds(4)))]])
                : ScenarioBehaviour([.didEnterBackground: [.setFootprint(bytes: 10_000_000)]])
            return ScenarioApp(manifest, behaviour: behaviour)
        }
        var events: [ScenarioEvent] = [ScenarioEvent(at: .zero, .setMemoryCapacity(bytes: 4_000_000_000))]
        var foreground: Int?
        var interrupted = false
        let gap = seconds * 1_000_000_000 / Int64(eventCount + 1)
        for index in 1..<eventCount {
            let at = BudgetInstant(nanoseconds: Int64(index) * gap)
            let roll = pick(100)
            let app = pick(appCount)
            let action: ScenarioAction
            if let current = foreground, interrupted {
                interrupted = false
                if roll < 50 { action = .dismissInterruption } else { action = .answerInterruption; foreground = nil }
                _ = current
            } else if foreground != nil, roll < 25 {
                action = .home
                foreground = nil
            } else if foreground != nil, roll < 30 {
                action = .beginInterruption
                interrupted = true
            } else if roll < 60 {
                action = .open(ids[app])
                foreground = app
            } else if roll < 70 {
                action = .deliver(ids[app], .silentPush)
            } else if roll < 80 {
                action = .setFootprint(ids[app], bytes: (10 + pick(300)) * 1_000_000)
            } else if roll < 88 {
                action = .deliver(ids[app], .significantLocationChange)
            } else if roll < 89 {
                action = .post(.batteryLevel(Double(pick(100)) / 100))
            } else if roll < 92, foreground != app {
                action = .killFromAppSwitcher(ids[app])
            } else {
                action = .beginTask(ids[app], ScenarioTask(name: "sync", work: .seconds(Int64(1 + pick(40)))))
            }
            events.append(ScenarioEvent(at: at, action))
        }
        return Scenario(description: "generated week", apps: apps, events: events, end: .seconds(seconds))
    }
}
