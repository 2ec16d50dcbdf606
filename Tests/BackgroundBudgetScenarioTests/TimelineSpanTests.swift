import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import BackgroundBudget
@testable import BackgroundBudgetScenario

/// The timeline's bars, Device lane, switch labels and header, checked on the SVG's structure.
@Suite struct TimelineSpanTests {
    static func dayRun() throws -> ScenarioRun {
        try ExampleScenarioTests.load("a-day-in-the-background.json").run()
    }

    /// The texts of the elements with a class, in order.
    static func texts(of className: String, in svg: String) -> [String] {
        svg.components(separatedBy: "class=\"\(className)\"").dropFirst().compactMap { part in
            guard let open = part.firstIndex(of: ">"), let close = part[open...].firstIndex(of: "<") else { return nil }
            return String(part[part.index(after: open)..<close])
        }
    }

    static func count(_ text: String, in svg: String) -> Int {
        svg.components(separatedBy: text).count - 1
    }

    @Test func theDayExampleIsWhatItsDescriptionSays() throws {
        let run = try Self.dayRun()
        let trace = run.trace
        #expect(trace.events(of: .activityStarted).map(\.time) == [.seconds(26_400), .seconds(43_260)])
        #expect(trace.first(.stateChange, for: "com.example.player").map { _ in
            trace.events(for: "com.example.player").filter { $0.state == .suspended }.map(\.time)
        } == [.seconds(29_400)])
        #expect(trace.kinds(of: .taskCompleted) == [.taskCompleted("com.example.photos.refresh", .success)])
        #expect(trace.events(of: .exit).map(\.reason) == ["memoryPressure"])
        let fetches = trace.instants(of: .fetchStarted, for: "com.example.news")
        #expect(fetches.count > 10)
        #expect(!fetches.contains { (.seconds(64_800)...(.seconds(75_600))).contains($0) }, "no fetch under Low Power Mode")
        #expect(trace.instants(of: .fetchSkipped).allSatisfy { $0 >= .seconds(64_800) })
    }

    @Test func activitiesTasksFetchesAndScheduledTasksAreLabelledBars() throws {
        let run = try Self.dayRun()
        let svg = run.rendered(as: .svg)
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        #expect(Self.count("class=\"span activity\"", in: svg) == 2)
        #expect(Self.count("class=\"span finiteTask\"", in: svg) == 1)
        #expect(Self.count("class=\"span fetch\"", in: svg) == run.trace.count(of: .fetchStarted))
        #expect(Self.count("class=\"span scheduledTask\"", in: svg) == 1)
        // Power twice, Low Power Mode, memory twice, and News's own Background App Refresh switch.
        #expect(Self.count("class=\"span condition\"", in: svg) == 6)
        let labels = Self.texts(of: "span-label", in: svg)
        for label in ["audio", "location", "task &quot;upload&quot;", "refresh", "fetch", "Low Power Mode",
                      "Background App Refresh off", "on external power", "memory: 300 MB"] {
            #expect(labels.contains(label), "no visible label \(label)")
        }
        // A repeated label is not written again right next to itself.
        #expect(labels.filter { $0 == "fetch" }.count < run.trace.count(of: .fetchStarted))
        #expect(svg.contains("<title>audio from t=26400.000s for 3000.000 s, stopped</title>"))
        #expect(svg.contains("<title>on external power from t=82800.000s for 3600.000 s, still on when the run ended</title>"))
    }

    @Test func theDeviceLaneHasItsOwnStyleAndIsNotAnApp() throws {
        let svg = try Self.dayRun().rendered(as: .svg)
        #expect(svg.contains(">4 apps and the device, "))
        #expect(Self.count("class=\"device-lane\"", in: svg) == 1)
        // No state band in the Device lane: four apps' bands only (every lane starts not running).
        #expect(Self.count("<title>notRunning from t=0.000s", in: svg) == 4)
        let plain = try ExampleScenarioTests.load("switching-apps.json").run().rendered(as: .svg)
        #expect(plain.contains(">3 apps, 49 trace events"))
        #expect(!plain.contains("device-lane\""))
    }

    @Test func whatTheUserDidIsWrittenOnThePicture() throws {
        let svg = try ExampleScenarioTests.load("switching-apps.json").run().rendered(as: .svg)
        let labels = Self.texts(of: "switch-label", in: svg)
        #expect(labels == ["launch", "switched away", "purged", "launch", "switched away",
                           "launch", "switched away", "swiped away", "launch", "Home", "opened"])
    }

    @Test func barsShareRowsOnlyWhereTheyAndTheirLabelsDoNotOverlap() {
        let scale = TimelineScale(start: 0, end: 1_000, left: 200, right: 1_170)
        func span(_ label: String, _ from: Int64, _ to: Int64, _ kind: TimelineSpan.Kind = .activity) -> TimelineSpan {
            TimelineSpan(kind: kind, label: label, from: from, to: to, ending: nil)
        }
        let overlapping = TimelineSpanLayout([span("audio", 0, 500), span("location", 100, 600), span("task", 700, 900)], scale: scale)
        #expect(overlapping.placed.map(\.row) == [0, 1, 0])
        #expect(overlapping.placed.map { $0.label?.inside } == [true, true, true])
        // A narrow bar gets its label after it, and the label keeps the next bar off the row.
        let narrow = TimelineSpanLayout([span("upload", 0, 1), span("other", 10, 20)], scale: scale)
        #expect(narrow.placed.map(\.row) == [0, 1])
        #expect(narrow.placed[0].label?.inside == false)
        // Repeated fetches close together: one label, one row.
        let fetches = TimelineSpanLayout((0..<10).map { span("fetch", Int64($0) * 30, Int64($0) * 30 + 1, .fetch) }, scale: scale)
        #expect(fetches.placed.compactMap(\.label).count == 2)
        #expect(fetches.rows <= 2)
        // Past the rows bars share, labels get rows of their own instead of being left out.
        let crowd = TimelineSpanLayout((0..<9).map { span("task \($0)", 0, 999, .finiteTask) }, scale: scale)
        #expect(crowd.rows == 9)
        #expect(crowd.placed.allSatisfy { $0.label != nil })
        #expect(crowd.unlabelled == 0)
    }
}
