import BackgroundBudgetExplorer
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import BackgroundBudget
@testable import BackgroundBudgetScenario

/// A printed timeline says everything without hover text: every label of what the user did is on
/// the picture, every kind of mark has a legend entry, and nothing is drawn past the end.
@Suite struct TimelineReadabilityTests {
    /// The elements of an SVG with their attributes and text, in document order, with whether each
    /// is inside a lane's group.
    final class Elements: NSObject, XMLParserDelegate {
        struct Element {
            var name: String
            var attributes: [String: String]
            var text = ""
            /// The text of the element's `title` child: its hover text.
            var title = ""
            var inLane: Bool
        }

        private(set) var all: [Element] = []
        private var open: [Int?] = []
        private var laneDepth = 0
        private var inTitle = false

        init(_ svg: String) {
            super.init()
            let parser = XMLParser(data: Data(svg.utf8))
            parser.delegate = self
            _ = parser.parse()
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name == "g", attributes["class"] == "lane" { laneDepth += 1 }
            if name == "title" {
                inTitle = true
                open.append(nil)
            } else {
                all.append(Element(name: name, attributes: attributes, inLane: laneDepth > 0))
                open.append(all.count - 1)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inTitle {
                if let parent = open.last(where: { $0 != nil }), let parent { all[parent].title += string }
            } else if let index = open.last, let index {
                all[index].text += string
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "title" { inTitle = false }
            if let index = open.removeLast(), all[index].name == "g", all[index].attributes["class"] == "lane" { laneDepth -= 1 }
        }

        /// The texts of the `text` elements with a class.
        func texts(_ className: String) -> [String] {
            all.filter { $0.name == "text" && $0.attributes["class"] == className }.map(\.text)
        }
    }

    /// The rightmost x an element reaches: a rectangle's right side, a line's or path's largest x,
    /// a circle's right, a text's end (by the layout's character width).
    static func rightmost(_ element: Elements.Element) -> Double? {
        func number(_ key: String) -> Double? { element.attributes[key].flatMap(Double.init) }
        switch element.name {
        case "rect": return number("x").map { $0 + (number("width") ?? 0) }
        case "line": return max(number("x1") ?? 0, number("x2") ?? 0)
        case "circle": return number("cx").map { $0 + (number("r") ?? 0) }
        case "text":
            guard let x = number("x") else { return nil }
            let size = number("font-size") ?? 12
            let width = Double(element.text.count) * TimelineSpanLayout.characterWidth * size / 10
            return element.attributes["text-anchor"] == "end" ? x : x + width
        case "path":
            // Absolute M and L coordinates; the relative arcs of the "no" sign stay within 7 px of their start.
            let path = element.attributes["d"] ?? ""
            var largest = -Double.infinity
            for part in path.split(whereSeparator: { "ML".contains($0) }) {
                let numbers = part.split(separator: " ")
                if let x = numbers.first.flatMap({ Double($0) }) { largest = max(largest, x + (part.contains("a") ? 7 : 0)) }
            }
            return largest
        default: return nil
        }
    }

    static func day() throws -> ScenarioRun {
        try ExampleScenarioTests.load("a-day-in-the-background.json").run()
    }

    /// The labels the trace gives a lane, in the stretch drawn, without repeats at one instant.
    static func expectedLabels(_ run: ScenarioRun, from: BudgetInstant = .zero, to: BudgetInstant? = nil) -> [String] {
        var labels: [String] = []
        for app in run.apps.map(\.id) {
            var last: (BudgetInstant, String)?
            for event in run.trace.events(for: app) where event.time >= from && event.time <= (to ?? run.end) {
                guard let text = TimelineLane.switchLabel(event) else { continue }
                if let last, last.0 == event.time, last.1 == text { continue }
                labels.append(text)
                last = (event.time, text)
            }
        }
        return labels
    }

    @Test func everyLabelOfWhatTheUserDidIsOnTheDayPictureAndItsZoom() throws {
        let run = try Self.day()
        let whole = Elements(run.rendered(as: .svg))
        let expected = Self.expectedLabels(run)
        #expect(expected.filter { $0 == "Home" }.count == 3 && expected.contains("switched away"))
        #expect(whole.texts("switch-label") == expected)
        let zoom = Elements(try run.timeline(from: .seconds(21_600), to: .seconds(36_000)))
        #expect(zoom.texts("switch-label") == Self.expectedLabels(run, from: .seconds(21_600), to: .seconds(36_000)))
        #expect(zoom.texts("switch-label").contains("Home"))
        // Crowded labels are stacked: at least one on a second row, with a line down to its instant.
        #expect(whole.all.contains { $0.attributes["class"] == "leader" })
    }

    @Test func labelsThatCrowdAreStackedAndOnlyCountedPastTheLastRow() {
        let close = (0..<3).map { (x: 300.0 + Double($0), text: "switched away") }
        let stacked = TimelineLabelLayout(close, right: 1170)
        #expect(stacked.placed.map(\.row) == [0, 1, 2])
        #expect(stacked.unplaced == 0)
        // Far apart, one row; at the right edge a label ends at its instant.
        let apart = TimelineLabelLayout([(300, "launch"), (500, "Home"), (1168, "opened")], right: 1170)
        #expect(apart.placed.map(\.row) == [0, 0, 0])
        #expect(apart.placed.map(\.endsAtInstant) == [false, false, true])
        #expect(apart.placed.allSatisfy { $0.extent.right <= 1170 })
        let crowd = TimelineLabelLayout((0..<10).map { (x: 300.0, text: "launch \($0)") }, right: 1170)
        #expect(crowd.rows == TimelineLabelLayout.maxRows)
        #expect(crowd.unplaced == 10 - TimelineLabelLayout.maxRows)
    }

    @Test func labelsPastTheLastRowAreCountedOnThePicture() throws {
        // Ten opens and Homes one second apart in a day: far closer than a label's width.
        var events: [ScenarioEvent] = []
        for index in 0..<10 {
            events.append(ScenarioEvent(at: .seconds(Int64(3600 + index * 2)), .open("com.example.a")))
            events.append(ScenarioEvent(at: .seconds(Int64(3601 + index * 2)), .home))
        }
        let run = try Scenario(apps: [ScenarioApp(AppManifest(id: "com.example.a"))], events: events, end: .seconds(86_400)).run()
        let elements = Elements(run.rendered(as: .svg))
        let shown = elements.texts("switch-label").count
        #expect(shown == TimelineLabelLayout.maxRows)
        #expect(elements.texts("unplaced-labels") == ["+\(20 - shown) user actions not labelled"])
    }

    /// Eight tasks begun at once on the way to the background, in a day's picture: their bars share
    /// an instant, so each label needs a row of its own.
    static let crowdedTasks: String = {
        let steps = (1...8).map { #"{"do": "beginTask", "name": "upload-\#($0)", "onExpiration": "end"}"# }
        return #"{"apps": [{"id": "com.example.a", "behaviour": {"applicationDidEnterBackground": ["#
            + steps.joined(separator: ", ")
            + #"]}}], "events": [{"at": 3600, "do": "open", "app": "com.example.a"}, {"at": 3601, "do": "home"}], "end": 86400}"#
    }()

    @Test func barLabelsThatCrowdGetRowsOfTheirOwnAndAreNeverDropped() throws {
        let scale = TimelineScale(start: 0, end: 86_400_000_000_000, left: 180, right: 1170)
        let spans = (1...8).map { TimelineSpan(kind: .finiteTask, label: "upload-\($0)", from: 3_601_000_000_000, to: 3_626_000_000_000) }
        let layout = TimelineSpanLayout(spans, scale: scale)
        #expect(layout.placed.compactMap { $0.label.map { _ in } }.count == 8)
        #expect(layout.placed.map(\.row) == Array(0..<8))
        #expect(layout.rows == 8 && layout.unlabelled == 0)
        // Past the bound a bar keeps its row among the first ones and is counted, not dropped in silence.
        let many = (1...20).map { TimelineSpan(kind: .finiteTask, label: "upload-\($0)", from: 3_601_000_000_000, to: 3_626_000_000_000) }
        let bounded = TimelineSpanLayout(many, scale: scale)
        #expect(bounded.rows == TimelineSpanLayout.maxLabelledRows)
        #expect(bounded.unlabelled == 20 - TimelineSpanLayout.maxLabelledRows)
        #expect(bounded.placed.filter { $0.label == nil }.allSatisfy { $0.row < TimelineSpanLayout.maxRows })
        // The picture: every label drawn, no note, and nothing below the lane's bottom line.
        let svg = try Scenario(json: Self.crowdedTasks).run().rendered(as: .svg)
        let elements = Elements(svg)
        #expect(elements.texts("span-label").sorted() == (1...8).map { #"task "upload-\#($0)""# }.sorted())
        #expect(elements.texts("unlabelled-spans").isEmpty)
        let labelYs = elements.all.filter { $0.attributes["class"] == "span-label" }.compactMap { $0.attributes["y"].flatMap(Double.init) }
        #expect(Set(labelYs).count == 8, "each label on a row of its own: \(labelYs)")
    }

    @Test(arguments: ["a-day-in-the-background.json", "switching-apps.json", "scene-based-app.json", "continued-processing.json"])
    func nothingInALaneIsDrawnPastTheEnd(_ name: String) throws {
        let run = try ExampleScenarioTests.load(name).run()
        for svg in [run.rendered(as: .svg), try run.timeline(from: .zero, to: BudgetInstant(nanoseconds: run.end.nanoseconds / 2))] {
            let elements = Elements(svg)
            let end = elements.all.first { $0.name == "line" && $0.title.hasPrefix("end of the run") }
            if svg == run.rendered(as: .svg) {
                #expect(end?.attributes["x1"] == "\(Int(TimelineRenderer.plotRight))", "the end of the run is the plot's right edge")
            }
            let lane = elements.all.filter { $0.inLane }
            #expect(lane.count > 20)
            for element in lane {
                guard let right = Self.rightmost(element) else { continue }
                #expect(right <= TimelineRenderer.plotRight + 0.01, "\(name): <\(element.name) \(element.attributes)> \(element.text) reaches \(right)")
            }
        }
    }

    @Test func everyKindOfMarkHasALegendEntry() throws {
        let run = try Self.day()
        let elements = Elements(run.rendered(as: .svg))
        let legend = Set(elements.all.filter { $0.name == "text" }.map(\.text))
        // Every kind of mark the renderer has (the switch makes this list complete: a new kind fails to compile).
        let kinds: [TimelineMark] = [.state(.active), .callback, .exit, .task, .expiration, .allowance, .refused, .warning, .request, .deviceChange]
        for kind in kinds {
            let category = { (mark: TimelineMark) -> String in
                switch mark {
                case .state: "state"
                case .callback, .exit, .task, .expiration, .allowance, .refused, .warning, .request, .deviceChange: "\(mark)"
                }
            }
            let entry = TimelineMark.legendEntries.first { category($0.mark) == category(kind) }
            #expect(entry != nil, "no legend entry for \(kind)")
            if let entry { #expect(legend.contains(entry.label), "legend text \(entry.label) not drawn") }
        }
        for kind in TimelineSpan.Kind.allCases { #expect(legend.contains(kind.legend), "no legend entry for \(kind) bars") }
        for other in ["Device lane", "what the user did", "end of the run"] { #expect(legend.contains(other)) }
        // No grey "other decision" diamond is left: the day's skipped fetches and device changes have their own marks.
        #expect(!legend.contains("other decision"))
        #expect(run.trace.events.contains { TimelineMark($0.kind) == .refused } && run.trace.events.contains { TimelineMark($0.kind) == .deviceChange })
    }

    @Test func aFileLockIsABarFromTakingToReleasing() throws {
        let app = ScenarioApp(AppManifest(id: "com.example.notes"), behaviour: ScenarioBehaviour([
            .didFinishLaunching: [.acquireFileLock("Library/Notes.sqlite"), .work(.seconds(2)), .releaseFileLock("Library/Notes.sqlite")],
        ]))
        let svg = try Scenario(apps: [app], events: [ScenarioEvent(at: .zero, .open("com.example.notes"))], end: .seconds(10)).run().rendered(as: .svg)
        #expect(TimelineSpanTests.count("class=\"span fileLock\"", in: svg) == 1)
        #expect(TimelineSpanTests.texts(of: "span-label", in: svg) == ["lock Notes.sqlite"])
        #expect(svg.contains("<title>lock Notes.sqlite from t=0.000s for 2.000 s, released</title>"))
    }
}
