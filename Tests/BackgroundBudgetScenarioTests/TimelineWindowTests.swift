import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import BackgroundBudget
@testable import BackgroundBudgetScenario

/// `--from` and `--to`: a window of a long run.
@Suite struct TimelineWindowTests {
    @Test func durationsAreSecondsOrANumberWithAUnit() throws {
        let cases: [(String, BudgetInstant)] = [
            ("90", .seconds(90)), ("1.5", .milliseconds(1_500)), ("250ms", .milliseconds(250)), ("90s", .seconds(90)),
            ("15min", .seconds(900)), ("15m", .seconds(900)), ("6h", .seconds(21_600)), ("1.5d", .seconds(129_600)),
            (" 6 h ", .seconds(21_600)), ("0", .zero), ("0.000000001", BudgetInstant(nanoseconds: 1)),
        ]
        for (text, instant) in cases {
            #expect(try TimelineWindow.instant(parsing: text, option: "--from") == instant, "\(text)")
        }
        for text in ["", "6x", "-5", "1e3", "1.", ".5", "1.2345678901", "h", "6 hours", "1,5", "99999999999999d", "nan"] {
            #expect(throws: TimelineWindowError.notADuration(option: "--to", value: text)) {
                try TimelineWindow.instant(parsing: text, option: "--to")
            }
        }
    }

    @Test func aWindowMustBeNonEmptyAndInsideTheRun() throws {
        let end = BudgetInstant.seconds(100)
        #expect(throws: TimelineWindowError.emptyWindow(from: .seconds(50), to: .seconds(20))) {
            try TimelineWindow(from: .seconds(50), to: .seconds(20), runEnd: end)
        }
        #expect(throws: TimelineWindowError.emptyWindow(from: .seconds(100), to: .seconds(100))) {
            try TimelineWindow(from: .seconds(100), to: nil, runEnd: end)
        }
        #expect(throws: TimelineWindowError.outsideRun(option: "--to", value: .seconds(101), runEnd: end)) {
            try TimelineWindow(from: nil, to: .seconds(101), runEnd: end)
        }
        #expect(throws: TimelineWindowError.outsideRun(option: "--from", value: .seconds(200), runEnd: end)) {
            try TimelineWindow(from: .seconds(200), to: nil, runEnd: end)
        }
        #expect(try TimelineWindow(from: nil, to: .seconds(40), runEnd: end) == TimelineWindow(from: .zero, to: .seconds(40), runEnd: end))
        #expect(TimelineWindowError.outsideRun(option: "--to", value: .seconds(101), runEnd: end).description
                == "--to (101.000 s) is outside the run, which ends at 100.000 s")
    }

    @Test func aWindowDrawsOnlyItsStretch() throws {
        let run = try ExampleScenarioTests.load("a-day-in-the-background.json").run()
        let from = BudgetInstant.seconds(6 * 3600), to = BudgetInstant.seconds(10 * 3600)
        let svg = try run.timeline(from: from, to: to)
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        let inWindow = run.trace.events.filter { (from...to).contains($0.time) }.count
        #expect(svg.contains(">4 apps and the device, \(inWindow) of \(run.trace.events.count) trace events, "
            + "t=21600.000 s to 36000.000 s of a run that ends at 86400.000 s</text>"))
        for label in ["6 h", "6 h 30 min", "7 h", "9 h 30 min", "10 h"] { #expect(svg.contains(">\(label)</text>"), "\(label)") }
        #expect(!svg.contains("end of the run"))
        // The morning's audio is there, the lunchtime run is not; fetches only from the window.
        let labels = TimelineSpanTests.texts(of: "span-label", in: svg)
        #expect(labels.contains("audio") && !labels.contains("location"))
        let fetches = run.trace.instants(of: .fetchStarted).filter { (from...to).contains($0) }
        #expect(TimelineSpanTests.count("class=\"span fetch\"", in: svg) == fetches.count)
        // Runner is not running all morning: one band, from before the window, cut to it.
        #expect(svg.contains("x=\"200\" y=\"") && svg.contains("<title>notRunning from t=0.000s for 43200.000 s (initial state)</title>"))
        #expect(try run.timeline() == run.rendered(as: .svg))
    }

    @Test func theCommandDrawsAWindowAndRefusesBadOnes() throws {
        let file = ExampleScenarioTests.directory.appendingPathComponent("a-day-in-the-background.json").path
        let drawn = ScenarioCommand.run(["run", file, "--format", "svg", "--from", "6h", "--to=7h"])
        #expect(drawn.status == .success)
        #expect(drawn.standardOutput.contains("t=21600.000 s to 25200.000 s of a run"))
        let outside = ScenarioCommand.run(["run", file, "-f", "svg", "--to", "30h"])
        #expect(outside.status == .failure)
        #expect(outside.standardError == "bgbudget: \(file): --to (108000.000 s) is outside the run, which ends at 86400.000 s\n")
        let empty = ScenarioCommand.run(["run", file, "-f", "svg", "--from", "7h", "--to", "6h"])
        #expect(empty.status == .failure)
        #expect(empty.standardError.contains("the window is empty"))
    }

    @Test func aWindowsAxisCountsFromTheStartOfTheRun() {
        let axis = TimelineAxis(start: 21_600_000_000_000, end: 36_000_000_000_000)
        #expect(axis.step == 1_800_000_000_000)
        #expect(axis.ticks.map(axis.label) == ["6 h", "6 h 30 min", "7 h", "7 h 30 min", "8 h", "8 h 30 min", "9 h", "9 h 30 min", "10 h"])
        let seconds = TimelineAxis(start: 30_000_000_000, end: 130_000_000_000)
        #expect(seconds.ticks.map(seconds.label) == ["30 s", "40 s", "50 s", "60 s", "70 s", "80 s", "90 s", "100 s", "110 s", "2 min", "2 min 10 s"])
    }
}
