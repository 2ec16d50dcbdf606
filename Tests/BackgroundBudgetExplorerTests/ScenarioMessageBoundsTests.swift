import BackgroundBudgetExplorer
import Testing
import TestSupport
import BackgroundBudgetCore
import BackgroundBudgetScenario

/// Error messages stay short whatever the input: lists of names stop after ten with how many more,
/// and strings quoted from the input stop after 80 characters.
@Suite struct ScenarioMessageBoundsTests {
    @Test func anUnknownAppAmongManyGivesAShortMessageNamingIt() throws {
        let count = LongRun.cases(100_000, quick: 500)
        let apps = (0..<count).map { #"{"id": "com.example.app\#($0)"}"# }.joined(separator: ",")
        let json = #"{"apps": [\#(apps)], "events": [{"at": 1, "do": "open", "app": "com.example.nothere"}]}"#
        let error = try #require(throws: ScenarioError.self) { try Scenario(json: json) }
        #expect(error.description.utf8.count < 2_048)
        #expect(error.description.contains(#"no app with id "com.example.nothere" is declared; declared: "com.example.app0", "#))
        #expect(error.description.contains(#""com.example.app9", … and \#(count - 10) more"#))
    }

    @Test func longStringsFromTheInputAreClippedInMessages() throws {
        let long = String(repeating: "x", count: 100_000)
        let unknownKey = try #require(throws: ScenarioError.self) { try Scenario(json: #"{"apps": [], "events": [], "\#(long)": 1}"#) }
        let unknownValue = try #require(throws: ScenarioError.self) {
            try Scenario(json: #"{"apps": [], "events": [{"at": 1, "do": "\#(long)"}]}"#)
        }
        let duplicate = try #require(throws: ScenarioError.self) { try Scenario(json: #"{"\#(long)": 1, "\#(long)": 2}"#) }
        for error in [unknownKey, unknownValue, duplicate] {
            #expect(error.description.utf8.count < 1_024, "\(error.description.prefix(200))")
            #expect(error.description.contains(String(repeating: "x", count: 80) + "…"))
        }
    }

    @Test func anInfoPlistPathLongerThanAnyRealOneIsClipped() throws {
        let path = "/" + String(repeating: "p", count: 100_000) + ".plist"
        let error = try #require(throws: ScenarioError.self) {
            try Scenario(json: #"{"apps": [{"infoPlist": "\#(path)"}], "events": []}"#)
        }
        #expect(error.description.utf8.count < 2_048)
        #expect(error.description.contains("/" + String(repeating: "p", count: 1_023) + "…: cannot read the file"))
    }

    @Test func aTaskLookupErrorListsAtMostTenIdentifiers() {
        let error = TaskLookupError(app: "com.example.news", identifier: "missing", known: (0..<50).map { "task\($0)" })
        #expect(error.description == #"com.example.news has no queued or running continued-processing task "missing"; it has "#
            + (0..<10).map { "\"task\($0)\"" }.joined(separator: ", ") + ", … and 40 more.")
    }
}
