import BackgroundBudgetExplorer
import BudgetTime
import Testing
import TestSupport
import BackgroundBudgetCore
import BackgroundBudgetScenario
import BudgetClock

/// Many open scenes: a scenario opens n windows of one app a millisecond apart, presses Home and
/// returns. Each scene event costs O(1) amortized and Home or a return O(n), so the run is linear in
/// n: 10,000 scenes in the long suite, 1,000 otherwise. (Speed is measured by running `bgbudget run`
/// on the same scenario, never here.)
@Suite struct SceneScaleTests {
    /// The scenario: launch at 0 s, n − 1 more scenes a millisecond apart, Home 1 s later, and the
    /// user returns 20 s after that.
    static func scenario(scenes n: Int) -> String {
        var events = [#"{"at": 0, "do": "launch", "app": "com.example.notes"}"#]
        for i in 1..<n { events.append(#"{"at": \#(Double(i) / 1000), "do": "openScene", "app": "com.example.notes"}"#) }
        let home = Double(n) / 1000 + 1
        events.append(#"{"at": \#(home), "do": "home"}"#)
        events.append(#"{"at": \#(home + 20), "do": "open", "app": "com.example.notes"}"#)
        return """
            {"apps": [{"id": "com.example.notes", "scenes": "multiple"}],
             "events": [\(events.joined(separator: ","))], "end": \(home + 40)}
            """
    }

    @Test func manyOpenScenesEachConnectGoToTheBackgroundAndComeBackOnce() throws {
        let n = LongRun.cases(10_000, quick: 1_000)
        let run = try Scenario(json: Self.scenario(scenes: n)).run()
        let home = BudgetInstant.zero + .milliseconds(n) + .seconds(1)
        func count(_ name: String, _ range: Range<BudgetInstant>) -> Int {
            run.trace.events.filter { $0.eventName == name && range.contains($0.time) }.count
        }
        #expect(count("scene:willConnectToSession:options", .zero..<home) == n)
        #expect(count("sceneDidBecomeActive", .zero..<home) == n)
        #expect(count("sceneDidEnterBackground", home..<home + .seconds(1)) == n)
        #expect(count("sceneWillEnterForeground", home + .seconds(20)..<home + .seconds(21)) == n)
        // Suspended after the last scene's background callback, active again on return.
        let states: [ApplicationState] = run.trace.events.filter { $0.eventName == "stateChange" && $0.time >= home }.compactMap(\.state)
        #expect(states == [.inactive, .background, .suspended, .background, .inactive, .active])
    }
}
