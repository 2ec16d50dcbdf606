import BackgroundBudgetExplorer
import Foundation
import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore
import BackgroundBudgetScenario

/// Scenario apps that point at an Info.plist, and apps that declare modes and task identifiers inline.
@Suite struct ScenarioInfoPlistTests {
    /// A scenario file in Examples/scenarios that need not exist: only its folder matters.
    static let scenarioFile = SampleFiles.infoPlists.deletingLastPathComponent().appendingPathComponent("scenarios/virtual.json").path

    /// A scenario with `apps` spliced in on line 2 and one event that opens `open`.
    static func scenario(apps: String, open: String = "com.example.audioplayer") -> [UInt8] {
        Array("""
            {"description": "plists",
             "apps": [\(apps)],
             "events": [{"at": 0, "do": "open", "app": "\(open)"}]}
            """.utf8)
    }

    /// The error a scenario gives, as its description, or `decoded`.
    static func failure(_ bytes: [UInt8], file: String? = scenarioFile) -> String {
        do {
            _ = try Scenario(jsonBytes: bytes, file: file)
            return "decoded"
        } catch {
            return error.description
        }
    }

    @Test func anAppReadsItsInfoPlistRelativeToTheScenarioFileAndMayRenameIt() throws {
        let scenario = try Scenario(jsonBytes: Self.scenario(apps: """
            {"infoPlist": "../InfoPlists/AudioPlayer.plist"},
                      {"infoPlist": "../InfoPlists/VoiceCall.plist", "id": "com.example.voicecall", "displayName": "Calls",
                       "behaviour": {"applicationDidEnterBackground": [{"do": "work", "for": 1}]}}
            """), file: Self.scenarioFile)
        #expect(scenario.apps == [
            ScenarioApp(try AppManifest(contentsOfInfoPlist: SampleFiles.infoPlists.appendingPathComponent("AudioPlayer.plist"))),
            ScenarioApp(AppManifest(id: "com.example.voicecall", displayName: "Calls", backgroundModes: [.audio, .voip, .remoteNotification]),
                        behaviour: ScenarioBehaviour([.didEnterBackground: [.work(.seconds(1))]])),
        ])
        // The player declares a scene manifest: its scene delegate, not its app delegate, hears it become active.
        #expect(try scenario.run().rendered(as: .log).contains("Audio Player[1069:307] sceneDidBecomeActive:"))
    }

    @Test func withoutAFileRelativePathsResolveAgainstTheCurrentDirectory() throws {
        let here = FileManager.default.currentDirectoryPath
        let path = Self.relativePath(from: here, to: SampleFiles.infoPlists.appendingPathComponent("NewsReader.plist").path)
        #expect(!path.hasPrefix("/"))
        let scenario = try Scenario(json: String(decoding: Self.scenario(apps: #"{"infoPlist": "\#(path)"}"#, open: "com.example.news"),
                                                 as: UTF8.self))
        #expect(scenario.apps[0].manifest == (try AppManifest(contentsOfInfoPlist: SampleFiles.infoPlists.appendingPathComponent("NewsReader.plist"))))
        // An absolute path is used as it is, whatever the scenario file.
        let absolute = SampleFiles.infoPlists.appendingPathComponent("LegacyApp.plist").path
        let legacy = try Scenario(jsonBytes: Self.scenario(apps: #"{"infoPlist": "\#(absolute)"}"#, open: "com.example.flashlight"),
                                  file: "/nowhere/at/all.json")
        #expect(legacy.apps[0].manifest.exitsOnSuspend)
    }

    @Test func plistProblemsCarryTheScenarioPathAndThePlistKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plists-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = try PropertyListSerialization.data(
            fromPropertyList: ["CFBundleIdentifier": "com.example.broken", "UIBackgroundModes": ["audio", "gps"]], format: .xml, options: 0)
        try broken.write(to: folder.appendingPathComponent("Broken.plist"))
        let file = folder.appendingPathComponent("lunch.json").path
        let message = Self.failure(Self.scenario(apps: #"{"infoPlist": "Broken.plist"}"#), file: file)
        #expect(message.hasPrefix(#"\#(file):2:25: error: $.apps[0].infoPlist: \#(folder.path)/Broken.plist: UIBackgroundModes[1]: unknown mode "gps"; accepted: "audio""#))
        #expect(Self.failure(Self.scenario(apps: #"{"infoPlist": "Missing.plist"}"#), file: file)
            == "\(file):2:25: error: $.apps[0].infoPlist: \(folder.path)/Missing.plist: cannot read the file: no such file")
        #expect(Self.failure(Self.scenario(apps: #"{"infoPlist": 7}"#)).hasSuffix("$.apps[0].infoPlist: expected a string, found a number"))
    }

    @Test func bgbudgetReadsPlistsBesideTheScenarioFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bgbudget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("apps"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: SampleFiles.infoPlists.appendingPathComponent("AudioPlayer.plist"),
                                         to: folder.appendingPathComponent("apps/Player.plist"))
        let file = folder.appendingPathComponent("player.json").path
        try Data(Self.scenario(apps: #"{"infoPlist": "apps/Player.plist"}"#)).write(to: URL(fileURLWithPath: file))
        let valid = ScenarioCommand.run(["validate", file])
        #expect(valid.standardOutput == "\(file): valid: 1 app, 1 event, ends at 0.000 s\n")
        try Data(Self.scenario(apps: #"{"infoPlist": "apps/player.plist"}"#)).write(to: URL(fileURLWithPath: file))
        let missing = ScenarioCommand.run(["run", file])
        #expect(missing.status == .failure)
        #expect(missing.standardError == "\(file):2:25: error: $.apps[0].infoPlist: \(folder.path)/apps/player.plist: "
            + "cannot read the file: no such file\n")
    }

    @Test func idAndInfoPlistMustAgree() {
        #expect(Self.failure(Self.scenario(apps: #"{"id": "com.example.player", "infoPlist": "../InfoPlists/AudioPlayer.plist"}"#))
            == "\(Self.scenarioFile):2:18: error: $.apps[0].id: id \"com.example.player\" differs from the Info.plist's "
            + "CFBundleIdentifier \"com.example.audioplayer\"; leave \"id\" out or make them equal")
        #expect(Self.failure(Self.scenario(apps: #"{"id": "com.example.audioplayer", "infoPlist": "../InfoPlists/AudioPlayer.plist"}"#))
            == "decoded")
        #expect(Self.failure(Self.scenario(apps: #"{"displayName": "Nobody"}"#))
            == "\(Self.scenarioFile):2:11: error: $.apps[0]: missing required key: one of \"id\", \"infoPlist\"")
    }

    @Test func keysThePlistSetsCannotBeSetBesideIt() {
        let expected = [("exitsOnSuspend", "true", "UIApplicationExitsOnSuspend"), ("backgroundModes", #"["fetch"]"#, "UIBackgroundModes"),
                        ("permittedTaskIdentifiers", "[]", "BGTaskSchedulerPermittedIdentifiers")]
        for (key, value, plistKey) in expected {
            #expect(Self.failure(Self.scenario(apps: #"{"infoPlist": "../InfoPlists/AudioPlayer.plist", "\#(key)": \#(value)}"#))
                .hasSuffix(#"$.apps[0].\#(key): "\#(key)" cannot be combined with "infoPlist": the Info.plist's \#(plistKey) applies; "#
                    + #"change it there, or describe the app without "infoPlist""#))
        }
    }

    @Test func duplicateAppsFromPlistsAreReportedAtTheirInfoPlistKeys() {
        let twice = #"{"infoPlist": "../InfoPlists/AudioPlayer.plist"}, {"infoPlist": "../InfoPlists/AudioPlayer.plist"}"#
        #expect(Self.failure(Self.scenario(apps: twice)) == "\(Self.scenarioFile):2:75: error: $.apps[1].infoPlist: "
            + "an app with id \"com.example.audioplayer\" is already declared at $.apps[0].infoPlist")
        let mixed = #"{"id": "com.example.audioplayer"}, {"infoPlist": "../InfoPlists/AudioPlayer.plist"}"#
        #expect(Self.failure(Self.scenario(apps: mixed)).hasSuffix("$.apps[1].infoPlist: "
            + "an app with id \"com.example.audioplayer\" is already declared at $.apps[0].id"))
    }

    @Test func inlineAppsDeclareModesAndTaskIdentifiers() throws {
        let scenario = try Scenario(jsonBytes: Self.scenario(apps: """
            {"id": "com.example.audioplayer", "backgroundModes": ["audio", "fetch"], "permittedTaskIdentifiers": ["com.example.refresh"]}
            """))
        #expect(scenario.apps[0].manifest == AppManifest(id: "com.example.audioplayer", backgroundModes: [.audio, .fetch],
                                                         permittedTaskIdentifiers: ["com.example.refresh"]))
        let unknown = Self.failure(Self.scenario(apps: #"{"id": "com.example.audioplayer", "backgroundModes": ["audio", "remote-notifications"]}"#))
        #expect(unknown.contains(#"2:74: error: $.apps[0].backgroundModes[1]: unknown value "remote-notifications"; accepted: "audio""#))
        #expect(unknown.hasSuffix(#"(did you mean "remote-notification"?)"#))
        #expect(Self.failure(Self.scenario(apps: #"{"id": "com.example.audioplayer", "backgroundModes": "audio"}"#))
            .hasSuffix("$.apps[0].backgroundModes: expected an array, found a string"))
        #expect(Self.failure(Self.scenario(apps: #"{"id": "com.example.audioplayer", "permittedTaskIdentifiers": [1]}"#))
            .hasSuffix("$.apps[0].permittedTaskIdentifiers[0]: expected a string, found a number"))
    }

    @Test func theScenarioFormatArticlesInfoPlistExampleDecodesAndRuns() throws {
        let article = try String(contentsOf: SampleFiles.infoPlists.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/BackgroundBudgetScenario/BackgroundBudgetScenario.docc/ScenarioFormat.md"), encoding: .utf8)
        let section = try #require(article.range(of: "### Apps from an Info.plist"))
        let open = try #require(article.range(of: "```json\n", range: section.upperBound..<article.endIndex))
        let close = try #require(article.range(of: "```", range: open.upperBound..<article.endIndex))
        // Saved in Examples/scenarios, as the article says.
        let scenario = try Scenario(jsonBytes: Array(article[open.upperBound..<close.lowerBound].utf8), file: Self.scenarioFile)
        #expect(scenario.apps.map(\.manifest.displayName) == ["Audio Player", "News", "Maps"])
        #expect(scenario.apps[1].manifest.backgroundModes == [.fetch, .remoteNotification, .processing])
        #expect(try scenario.run().trace.events.count > 20)
    }

    /// `to` relative to the folder `from`, both absolute: `../../Examples/InfoPlists/NewsReader.plist`.
    static func relativePath(from folder: String, to target: String) -> String {
        let base = URL(fileURLWithPath: folder).standardizedFileURL.pathComponents
        let goal = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        var common = 0
        while common < base.count, common < goal.count, base[common] == goal[common] { common += 1 }
        return (Array(repeating: "..", count: base.count - common) + goal[common...]).joined(separator: "/")
    }
}
