import BackgroundBudgetExplorer
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import BackgroundBudget
import BackgroundBudgetCore
@testable import BackgroundBudgetScenario
import BudgetClock

@Suite struct TimelineTests {
    private func run(_ events: [ScenarioEvent], apps: [String] = ["com.example.a"], end: BudgetInstant? = nil) throws -> ScenarioRun {
        try Scenario(description: "A <test> & \"quotes\"", apps: apps.map { ScenarioApp(AppManifest(id: AppID(rawValue: $0))) },
                     events: events, end: end).run()
    }

    /// Whether `text` is well-formed XML.
    private func isWellFormed(_ text: String) -> Bool {
        XMLParser(data: Data(text.utf8)).parse()
    }

    @Test func drawsALaneWithABandPerStateAndMarksForCallbacksAndExits() throws {
        let svg = try run([
            ScenarioEvent(at: .zero, .open("com.example.a")),
            ScenarioEvent(at: .seconds(10), .home),
            ScenarioEvent(at: .seconds(20), .killFromAppSwitcher("com.example.a")),
        ], end: .seconds(30)).rendered(as: .svg)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(isWellFormed(svg))
        #expect(svg.contains("<title>active from t=0.000s for 10.000 s (launch)</title>"))
        #expect(svg.contains("<title>suspended from t=10.000s for 10.000 s (noBackgroundWork)</title>"))
        #expect(svg.contains("t=10.000s applicationWillResignActive\nt=10.000s applicationDidEnterBackground"))
        #expect(svg.contains("stroke=\"\(TimelineMark.exitColour)\""))
        #expect(svg.contains("t=20.000s exit (userKill)"))
        #expect(svg.contains("A &lt;test&gt; &amp; &quot;quotes&quot;"))
    }

    @Test func shortBandsStayVisible() throws {
        // 50 ms of work in an hour-long run is far less than a pixel.
        let quick = ScenarioApp(AppManifest(id: "com.example.a"), behaviour: ScenarioBehaviour([.didEnterBackground: [.work(.milliseconds(50))]]))
        let svg = try Scenario(apps: [quick], events: [
            ScenarioEvent(at: .zero, .open("com.example.a")), ScenarioEvent(at: .seconds(600), .home),
        ], end: .seconds(3600)).run().rendered(as: .svg)
        let band = try #require(svg.split(separator: "\n").first { $0.contains("<title>background from t=600.000s for 0.050 s") })
        #expect(band.contains("width=\"2\""))
    }

    @Test func tickSpacingSuitsTheLengthOfTheRun() {
        #expect(TimelineAxis(end: .seconds(45)).step == 5_000_000_000)
        #expect(TimelineAxis(end: .seconds(3600)).step == 600_000_000_000)
        #expect(TimelineAxis(end: .seconds(86_400)).step == 10_800_000_000_000)
        #expect(TimelineAxis(end: .milliseconds(300)).step == 50_000_000)
        #expect(TimelineAxis(end: .zero).ticks.count >= 2)
        let hour = TimelineAxis(end: .seconds(3600))
        #expect(hour.ticks.map(hour.label) == ["0", "10 min", "20 min", "30 min", "40 min", "50 min", "60 min"])
        let day = TimelineAxis(end: .seconds(86_400))
        #expect(day.label(day.ticks[2]) == "6 h")
        for seconds: Int64 in [1, 7, 59, 61, 599, 3599, 7201, 100_000, 1_000_000_000] {
            #expect(TimelineAxis(end: .seconds(seconds)).ticks.count <= TimelineAxis.maxTicks + 1)
        }
    }

    @Test func everyTraceEventKindHasAMark() {
        #expect(TimelineMark(.stateChange(.background, cause: .pressHome)) == .state(.background))
        #expect(TimelineMark(.callback(.didEnterBackground)) == .callback)
        #expect(TimelineMark(.exit(.watchdog, code: 0x8bad_f00d)) == .exit)
    }

    @Test func anHourWithFiveAppsIsOneReadablePicture() throws {
        let apps = (0..<5).map { "com.example.app\($0)" }
        var events: [ScenarioEvent] = []
        for minute in 0..<60 {
            events.append(ScenarioEvent(at: .seconds(Int64(minute * 60)), .open(AppID(rawValue: apps[minute % 5]))))
        }
        let svg = try run(events, apps: apps, end: .seconds(3600)).rendered(as: .svg)
        #expect(isWellFormed(svg))
        #expect(svg.contains(">60 min</text>"))
        #expect(svg.components(separatedBy: "font-weight=\"bold\" fill=\"#222222\">com.example.app").count == 6)
    }

    @Test func numbersAreWrittenTheSameWayEverywhere() {
        #expect(svgNumber(12) == "12")
        #expect(svgNumber(12.5) == "12.5")
        #expect(svgNumber(12.345) == "12.35")
        #expect(svgNumber(-0.25) == "-0.25")
        #expect(svgNumber(0.05) == "0.05")
        #expect(xmlEscaped("a\u{01}b<'") == "a\u{FFFD}b&lt;&apos;")
    }
}
