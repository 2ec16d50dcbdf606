import BackgroundBudgetExplorer
import Testing
import BackgroundBudgetCore
import BackgroundBudgetScenario

@Suite struct ScenarioDecodingTests {
    /// A valid scenario with `events` spliced in (one event per line, from line 6).
    private func scenario(events: String, apps: String = #"{"id": "com.example.news"}"#, extra: String = "") -> String {
        """
        {
          "description": "test",\(extra)
          "apps": [\(apps)],
          "events": [
            {"at": 0, "do": "open", "app": "com.example.news"},
            \(events)
          ]
        }
        """
    }

    /// The error a text produces, as `line:column path: message`.
    private func failure(_ text: String) -> String {
        do {
            _ = try Scenario(json: text)
            return "decoded"
        } catch {
            return "\(error.position.map(\.description) ?? "-") \(error.path): \(error.message)"
        }
    }

    @Test func decodesEveryPartOfTheFormat() throws {
        let decoded = try Scenario(json: """
            {"description": "all of it",
             "policy": {"preset": "iOS7", "overrides": {"backgroundTaskAllowance": 120, "allowanceResetsOnForeground": false}},
             "device": {},
             "apps": [{"id": "com.example.a", "displayName": "A", "exitsOnSuspend": true,
                       "behaviour": {"applicationDidEnterBackground": [{"do": "work", "for": 2.5}]}},
                      {"id": "com.example.b"}],
             "events": [{"at": 0, "do": "open", "app": "com.example.b"},
                        {"at": 1.5, "do": "launchInBackground", "app": "com.example.b", "reason": "location"}],
             "end": 10}
            """)
        var policy = BudgetPolicy.iOS7
        policy.backgroundTaskAllowance = .seconds(120)
        policy.allowanceResetsOnForeground = false
        let expected = Scenario(
            description: "all of it", policy: policy,
            apps: [
                ScenarioApp(AppManifest(id: "com.example.a", displayName: "A", exitsOnSuspend: true),
                            behaviour: ScenarioBehaviour([.didEnterBackground: [.work(.milliseconds(2500))]])),
                ScenarioApp(AppManifest(id: "com.example.b")),
            ],
            events: [ScenarioEvent(at: .zero, .open("com.example.b")),
                     ScenarioEvent(at: .milliseconds(1500), .launchInBackground("com.example.b", reason: .location))],
            end: .seconds(10))
        #expect(decoded == expected)
        #expect(decoded.events[1].position == SourcePosition(line: 8, column: 13))
    }

    @Test func everyVerbInTheVocabularyDecodesToTheActionOfItsName() throws {
        for verb in ScenarioAction.vocabulary {
            var keys = verb.keys.contains("app") ? #", "app": "com.example.news""# : ""
            // Verbs with required keys besides the app.
            keys += ["startActivity": #", "activity": "audioPlayback""#, "stopActivity": #", "activity": "audioPlayback""#,
                     "deliver": #", "event": "silentPush""#, "closeScene": #", "scene": "scene-1""#,
                     "reclaimScene": #", "scene": "scene-1""#, "setMemoryCapacity": #", "mb": 512"#, "setFootprint": #", "mb": 40"#,
                     "post": #", "notification": "significantTimeChange""#, "setBackgroundAppRefresh": #", "enabled": false"#,
                     "setLowPowerMode": #", "enabled": true"#, "setCriticallyLowBattery": #", "enabled": true"#,
                     "setBackgroundAppRefreshRestricted": #", "restricted": true"#, "setNetwork": #", "enabled": false"#,
                     "setExternalPower": #", "enabled": true"#, "setDeviceIdle": #", "enabled": true"#,
                     "submitTask": #", "identifier": "i""#, "cancelContinuedTask": #", "identifier": "i""#,
                     "setSystemUnderLoad": #", "enabled": true"#, "setBackgroundGPU": #", "enabled": true"#][verb.name] ?? ""
            let text = scenario(events: #"{"at": 1, "do": "\#(verb.name)"\#(keys)}"#)
            let decoded = try Scenario(json: text)
            #expect(decoded.events[1].action.name == verb.name)
        }
        #expect(Set(ScenarioAction.vocabulary.map(\.name)).count == ScenarioAction.vocabulary.count)
    }

    @Test func tasksDecodeInStepsAndEventsAndRefuseBadResponses() throws {
        let decoded = try Scenario(json: scenario(
            events: #"{"at": 1, "do": "beginTask", "app": "com.example.news", "name": "sync", "work": 2.5}"#,
            apps: #"{"id": "com.example.news", "behaviour": {"applicationDidEnterBackground": [{"do": "beginTask", "onExpiration": "ignore"}]}}"#))
        #expect(decoded.events[1].action == .beginTask("com.example.news", ScenarioTask(name: "sync", work: .milliseconds(2_500))))
        #expect(decoded.apps[0].behaviour.steps[.didEnterBackground] == [.beginTask(ScenarioTask(onExpiration: .ignore))])
        #expect(failure(scenario(events: #"{"at": 1, "do": "beginTask", "app": "com.example.news", "onExpiration": "maybe"}"#))
            == #"6:77 $.events[1].onExpiration: unknown value "maybe"; accepted: "end", "ignore""#)
        #expect(failure(scenario(events: #"{"at": 1, "do": "beginTask", "app": "com.example.news", "work": -1}"#)).contains("$.events[1].work"))
    }

    @Test func modeVocabularyDecodesAndRegionsBelongToRegionEvents() throws {
        let decoded = try Scenario(json: scenario(
            events: #"{"at": 1, "do": "deliver", "app": "com.example.news", "event": "regionBoundary", "region": "home"}"#,
            apps: #"{"id": "com.example.news", "behaviour": {"application:didReceive": [{"do": "reportCall"}], "applicationDidEnterBackground": [{"do": "startActivity", "activity": "audioPlayback"}, {"do": "setKeepAlive", "interval": 600}]}}"#))
        #expect(decoded.events[1].action == .deliver("com.example.news", .regionBoundary("home")))
        #expect(decoded.apps[0].behaviour.onEvent == [.reportCall])
        #expect(decoded.apps[0].behaviour.steps[.didEnterBackground] == [.startActivity(.audioPlayback), .setKeepAlive(interval: .seconds(600), work: .zero)])
        #expect(failure(scenario(events: #"{"at": 1, "do": "deliver", "app": "com.example.news", "event": "silentPush", "region": "home"}"#))
            .contains(#"$.events[1].region: unknown key "region"; accepted: "app", "event""#))
        #expect(failure(scenario(events: #"{"at": 1, "do": "deliver", "app": "com.example.news", "event": "regionBoundary"}"#))
            .contains(#"missing required key "region""#))
        #expect(failure(scenario(events: #"{"at": 1, "do": "startActivity", "app": "com.example.news", "activity": "music"}"#))
            .contains(#"unknown value "music"; accepted: "audioPlayback""#))
    }

    @Test func submissionKindsTakeTheSwiftSpellingsAndSuggestTheNearestForOthers() throws {
        func kind(_ name: String) throws -> ScenarioAction {
            try Scenario(json: scenario(events: #"{"at": 1, "do": "submitTask", "app": "com.example.news", "identifier": "i", "kind": "\#(name)"}"#)).events[1].action
        }
        #expect(try kind("appRefresh") == .submitTask("com.example.news", identifier: "i", kind: .appRefresh, earliest: nil))
        #expect(try kind("appRefresh") == kind("refresh"))
        #expect(try kind("processing") == .submitTask("com.example.news", identifier: "i",
                                                      kind: .processing(requiresNetworkConnectivity: false, requiresExternalPower: false), earliest: nil))
        let accepted = #"accepted: "refresh", "appRefresh", "processing", "continuedProcessing""#
        #expect(failure(scenario(events: #"{"at": 1, "do": "submitTask", "app": "com.example.news", "identifier": "i", "kind": "AppRefresh"}"#))
            == #"6:89 $.events[1].kind: unknown value "AppRefresh"; "# + accepted + #" (did you mean "appRefresh"?)"#)
        #expect(failure(scenario(events: #"{"at": 1, "do": "submitTask", "app": "com.example.news", "identifier": "i", "kind": "bgAppRefresh"}"#))
            .hasSuffix(#"(did you mean "appRefresh"?)"#))
        #expect(failure(scenario(events: #"{"at": 1, "do": "submitTask", "app": "com.example.news", "identifier": "i", "kind": "continuedprocessing"}"#))
            .hasSuffix(#"(did you mean "continuedProcessing"?)"#))
        #expect(failure(scenario(events: #"{"at": 1, "do": "submitTask", "app": "com.example.news", "identifier": "i", "kind": "upload"}"#))
            .hasSuffix(accepted))
        // The Swift spelling takes the refresh's keys, no others.
        #expect(failure(scenario(events: #"{"at": 1, "do": "submitTask", "app": "com.example.news", "identifier": "i", "kind": "appRefresh", "power": true}"#))
            .contains(#"unknown key "power"; accepted: "identifier", "kind", "earliest""#))
    }

    @Test func continuedProcessingVocabularyDecodesAndRefusesKeysOfOtherKinds() throws {
        let decoded = try Scenario(json: scenario(
            events: #"{"at": 1, "do": "submitTask", "app": "com.example.news", "identifier": "com.example.news.x.1", "kind": "continuedProcessing", "title": "Export", "subtitle": "Album", "strategy": "fail", "gpu": true}, {"at": 2, "do": "cancelContinuedTask", "app": "com.example.news", "identifier": "com.example.news.x.1"}, {"at": 3, "do": "reclaimResources"}, {"at": 4, "do": "setSystemUnderLoad", "enabled": true}, {"at": 5, "do": "setBackgroundGPU", "enabled": true}"#,
            apps: #"{"id": "com.example.news", "behaviour": {"application:didFinishLaunchingWithOptions": [{"do": "registerTask", "identifier": "com.example.news.x.*", "work": 10, "progress": 5}]}}"#))
        let options = ContinuedProcessingOptions(title: "Export", subtitle: "Album", strategy: .fail, requiresGPU: true)
        #expect(decoded.events.dropFirst().map(\.action) == [
            .submitTask("com.example.news", identifier: "com.example.news.x.1", kind: .continuedProcessing(options), earliest: nil),
            .cancelContinuedTask("com.example.news", identifier: "com.example.news.x.1"),
            .reclaimResources, .setSystemUnderLoad(true), .setBackgroundGPU(true),
        ])
        #expect(decoded.apps[0].behaviour.steps[.didFinishLaunching]
            == [.registerTask(ScenarioTaskHandler(identifier: "com.example.news.x.*", work: .seconds(10), progressSteps: 5))])
        // Defaults: the title is the identifier, the strategy is queue.
        let plain = try Scenario(json: scenario(events: #"{"at": 1, "do": "submitTask", "app": "com.example.news", "identifier": "i", "kind": "continuedProcessing"}"#))
        #expect(plain.events[1].action == .submitTask("com.example.news", identifier: "i",
                                                      kind: .continuedProcessing(ContinuedProcessingOptions(title: "i", subtitle: "")), earliest: nil))

        // `earliest` is accepted and passed on; the system ignores it, as iOS does.
        let early = try Scenario(json: scenario(events: #"{"at": 1, "do": "submitTask", "app": "com.example.news", "identifier": "i", "kind": "continuedProcessing", "earliest": 5}"#))
        #expect(early.events[1].action == .submitTask("com.example.news", identifier: "i",
                                                      kind: .continuedProcessing(ContinuedProcessingOptions(title: "i", subtitle: "")), earliest: .seconds(5)))
        #expect(failure(scenario(events: #"{"at": 1, "do": "submitTask", "app": "com.example.news", "identifier": "i", "kind": "continuedProcessing", "network": true}"#))
            == #"6:123 $.events[1].network: unknown key "network"; accepted: "identifier", "kind", "earliest", "title", "subtitle", "strategy", "gpu""#)
        #expect(failure(scenario(events: #"{"at": 1, "do": "submitTask", "app": "com.example.news", "identifier": "i", "title": "t"}"#))
            .contains(#"unknown key "title"; accepted: "identifier", "kind", "earliest""#))
        #expect(failure(scenario(events: #"{"at": 1, "do": "submitTask", "app": "com.example.news", "identifier": "i", "kind": "continuedProcessing", "strategy": "later"}"#))
            .contains(#"unknown value "later"; accepted: "queue", "fail""#))
        for steps in ["0", "2.5", "1001"] {
            #expect(failure(scenario(events: #"{"at": 1, "do": "home"}"#, apps: #"{"id": "com.example.news", "behaviour": {"applicationDidBecomeActive": [{"do": "registerTask", "identifier": "a", "progress": \#(steps)}]}}"#))
                .contains("a whole number of steps from 1 to 1000"))
        }
    }

    @Test func cancellingATaskThatDoesNotExistStopsTheRunWithTheEventsPath() throws {
        let text = scenario(events: #"{"at": 1, "do": "cancelContinuedTask", "app": "com.example.news", "identifier": "com.example.news.x.9"}"#)
        #expect(throws: ScenarioError(.taskNotFound(TaskLookupError(app: "com.example.news", identifier: "com.example.news.x.9", known: [])),
                                      path: "$.events[1]", position: SourcePosition(line: 6, column: 5))) {
            try Scenario(json: text).run()
        }
    }

    @Test func taskSchedulerVocabularyDecodes() throws {
        let decoded = try Scenario(json: scenario(
            events: #"{"at": 1, "do": "setDeviceIdle", "enabled": true}, {"at": 2, "do": "setNetwork", "enabled": false}, {"at": 3, "do": "setExternalPower", "enabled": true}"#,
            apps: #"{"id": "com.example.news", "behaviour": {"application:didFinishLaunchingWithOptions": [{"do": "registerTask", "identifier": "a", "result": "never", "work": 2}, {"do": "registerTask", "identifier": "b"}, {"do": "submitTask", "identifier": "a", "earliest": 60}, {"do": "submitTask", "identifier": "b", "kind": "processing", "network": true}]}}"#))
        #expect(decoded.events.dropFirst().map(\.action) == [.setDeviceIdle(true), .setNetwork(false), .setExternalPower(true)])
        #expect(decoded.apps[0].behaviour.steps[.didFinishLaunching] == [
            .registerTask(ScenarioTaskHandler(identifier: "a", result: nil, work: .seconds(2))),
            .registerTask(ScenarioTaskHandler(identifier: "b")),
            .submitTask(identifier: "a", kind: .appRefresh, earliest: .seconds(60)),
            .submitTask(identifier: "b", kind: .processing(requiresNetworkConnectivity: true, requiresExternalPower: false), earliest: nil),
        ])
        #expect(failure(scenario(events: #"{"at": 1, "do": "home"}"#, apps: #"{"id": "com.example.news", "behaviour": {"applicationDidBecomeActive": [{"do": "submitTask", "identifier": "a", "power": true}]}}"#))
            .contains(#"unknown key "power""#))
        #expect(failure(scenario(events: #"{"at": 1, "do": "home"}"#, apps: #"{"id": "com.example.news", "behaviour": {"applicationDidBecomeActive": [{"do": "registerTask", "identifier": "a", "result": "maybe"}]}}"#))
            .contains(#"unknown value "maybe""#))
    }

    @Test func memoryAndNotificationVocabularyDecodes() throws {
        let decoded = try Scenario(json: scenario(events: """
            {"at": 1, "do": "setMemoryCapacity", "mb": 512},
                {"at": 2, "do": "post", "notification": "batteryLevel", "value": 0.25},
                {"at": 3, "do": "post", "notification": "locale", "value": "fr_FR"}
            """))
        #expect(decoded.events.dropFirst().map(\.action) == [
            .setMemoryCapacity(bytes: 512_000_000), .post(.batteryLevel(0.25)), .post(.locale("fr_FR")),
        ])
        #expect(failure(scenario(events: #"{"at": 1, "do": "post", "notification": "userDefaults", "value": 1}"#))
            .contains(#"$.events[1].value: unknown key "value"; accepted: "notification""#))
        #expect(failure(scenario(events: #"{"at": 1, "do": "post", "notification": "orientation"}"#))
            .contains(#"missing required key "value""#))
        #expect(failure(scenario(events: #"{"at": 1, "do": "setMemoryCapacity", "mb": -5}"#)).contains("$.events[1].mb"))
    }

    @Test func optionalReasonsDefaultToSystem() throws {
        let decoded = try Scenario(json: scenario(events: #"{"at": 1, "do": "terminate", "app": "com.example.news"}"#))
        #expect(decoded.events[1].action == .terminate("com.example.news", reason: .system))
    }

    @Test func aWrongTypeNamesThePathAndWhatIsExpected() {
        #expect(failure(scenario(events: #"{"at": "soon", "do": "home"}"#))
            == #"6:12 $.events[1].at: expected a number, found a string"#)
        #expect(failure("[]") == "1:1 $: expected an object, found an array")
        #expect(failure(scenario(events: #"{"at": 1, "do": "home"}"#, apps: #"{"id": 7}"#).replacingOccurrences(of: "},\n    \n", with: "}\n")
            .replacingOccurrences(of: ",\n    \n", with: "\n")) == "3:19 $.apps[0].id: expected a string, found a number")
    }

    @Test func anUnknownKeyListsTheAcceptedKeysAndSuggestsTheClosest() {
        #expect(failure(scenario(events: #"{"at": 1, "do": "home", "app": "com.example.news"}"#))
            == #"6:29 $.events[1].app: unknown key "app"; accepted: "at", "do""#)
        #expect(failure(scenario(events: #"{"at": 1, "do": "home"}"#, apps: #"{"id": "com.example.news", "behavior": {}}"#)
            .replacingOccurrences(of: ",\n    \n", with: "\n"))
            == #"3:39 $.apps[0].behavior: unknown key "behavior"; accepted: "id", "infoPlist", "displayName", "exitsOnSuspend", "backgroundModes", "permittedTaskIdentifiers", "scenes", "behaviour" (did you mean "behaviour"?)"#)
        #expect(failure(scenario(events: "", extra: #" "device": {"lowPowerMode": true},"#)
            .replacingOccurrences(of: ",\n    \n", with: "\n"))
            == #"2:37 $.device.lowPowerMode: unknown key "lowPowerMode"; this object takes no keys yet"#)
    }

    @Test func anUnknownValueListsTheAcceptedValues() {
        let message = failure(scenario(events: #"{"at": 1, "do": "hme"}"#))
        #expect(message.hasPrefix(#"6:21 $.events[1].do: unknown value "hme"; accepted: "launch", "open", "switchTo", "home""#))
        #expect(message.hasSuffix(#"(did you mean "home"?)"#))
        #expect(failure(scenario(events: #"{"at": 1, "do": "launchInBackground", "app": "com.example.news", "reason": "gps"}"#))
            .hasPrefix(#"6:80 $.events[1].reason: unknown value "gps"; accepted: "backgroundFetch", "remoteNotification""#))
        #expect(failure(scenario(events: "", extra: #" "policy": {"preset": "iOS 13"},"#).replacingOccurrences(of: ",\n    \n", with: "\n"))
            == #"2:47 $.policy.preset: unknown value "iOS 13"; accepted: "iOS13", "iOS7", "iOS4" (did you mean "iOS13"?)"#)
        #expect(failure(scenario(events: #"{"at": 1, "do": "home"}"#, apps: #"{"id": "com.example.news", "behaviour": {"didEnterBackground": []}}"#)
            .replacingOccurrences(of: ",\n    \n", with: "\n")).contains(#"(did you mean "applicationDidEnterBackground"?)"#))
    }

    @Test func aMissingKeyIsReportedAtItsObject() {
        #expect(failure(scenario(events: #"{"do": "home"}"#)) == #"6:5 $.events[1]: missing required key "at""#)
        #expect(failure(scenario(events: #"{"at": 3}"#)) == #"6:5 $.events[1]: missing required key "do""#)
        #expect(failure(#"{"apps": []}"#) == #"1:1 $: missing required key "events""#)
    }

    @Test func semanticErrorsNameThePathOfTheValue() {
        #expect(failure(scenario(events: #"{"at": 1, "do": "purge", "app": "com.example.mews"}"#))
            == #"6:37 $.events[1].app: no app with id "com.example.mews" is declared; declared: "com.example.news" (did you mean "com.example.news"?)"#)
        #expect(failure(scenario(events: #"{"at": 5, "do": "home"}, {"at": 4, "do": "home"}"#))
            == "6:37 $.events[2].at: time goes backwards: 4 s is before the previous event's 5 s")
        #expect(failure(scenario(events: #"{"at": 70, "do": "home"}"#, extra: #" "end": 60,"#))
            == "6:12 $.events[1].at: the event at 70 s is after the scenario's end at 60 s ($.end)")
        #expect(failure(scenario(events: #"{"at": -1, "do": "home"}"#)) == "6:12 $.events[1].at: -1 is out of range; accepted: seconds from 0 to 1000000000")
        #expect(failure(scenario(events: #"{"at": 1e300, "do": "home"}"#)).hasPrefix("6:12 $.events[1].at: 1e+300 is out of range"))
        let twice = #"{"id": "com.example.news"}, {"id": "com.example.news"}"#
        #expect(failure(scenario(events: #"{"at": 1, "do": "home"}"#, apps: twice))
            == #"3:47 $.apps[1].id: an app with id "com.example.news" is already declared at $.apps[0].id"#)
        #expect(failure(scenario(events: #"{"at": 1, "do": "home"}"#, apps: #"{"id": "com.example.news"}, {"id": "my app"}"#))
            == #"3:47 $.apps[1].id: not a valid bundle identifier: it contains " "; only letters, digits, '-' and '.' are allowed"#)
    }

    @Test func policyValuesAreCheckedThroughTheSettingAndValidation() {
        func policyFailure(_ overrides: String) -> String {
            failure(scenario(events: "", extra: #" "policy": {"overrides": {\#(overrides)}},"#).replacingOccurrences(of: ",\n    \n", with: "\n"))
        }
        #expect(policyFailure(#""maxOpenBackgroundTasks": 2.5"#)
            == "2:77 $.policy.overrides.maxOpenBackgroundTasks: invalid policy: maxOpenBackgroundTasks must be a whole number in range (got 2.5)")
        #expect(policyFailure(#""backgroundTaskAllowance": 0"#)
            == "2:78 $.policy.overrides.backgroundTaskAllowance: invalid policy: backgroundTaskAllowance must be greater than zero (got 0.0)")
        #expect(policyFailure(#""expirationWarningLead": 60"#)
            == "2:76 $.policy.overrides.expirationWarningLead: invalid policy: expirationWarningLead (60.0) must not exceed backgroundTaskAllowance (30.0)")
        #expect(policyFailure(#""backgroundTaskAllowance": 1e300"#).contains("must not exceed"))
        #expect(policyFailure(#""watchdog": 1"#).hasPrefix(#"2:51 $.policy.overrides.watchdog: unknown key "watchdog"; accepted: "didEnterBackgroundLimit""#))
        #expect(policyFailure(#""backgroundTaskAllowance": true"#)
            == "2:78 $.policy.overrides.backgroundTaskAllowance: expected a number, found a boolean")
    }

    @Test func malformedJSONGivesTheLineAndColumnAndTheFileName() {
        do {
            _ = try Scenario(jsonBytes: Array("{\n  \"apps\": [\n    {\"id\": \"a\"}\n    {\"id\": \"b\"}\n  ]\n}".utf8), file: "two.json")
            Issue.record("decoded")
        } catch {
            #expect(error.description == "two.json:4:5: error: $.apps: malformed JSON: unexpected '{'; expected ',' or ']' after array element 0")
            #expect(error.problem == .malformedJSON("unexpected '{'; expected ',' or ']' after array element 0"))
        }
    }

    @Test func scenariosBuiltInCodeAreValidatedWithPaths() {
        let scenario = Scenario(apps: [ScenarioApp(AppManifest(id: "com.example.a"))],
                                events: [ScenarioEvent(at: .seconds(2), .home), ScenarioEvent(at: .seconds(1), .purge("com.example.b"))])
        #expect(throws: ScenarioError(.timeGoesBackwards(seconds: 1, previous: 2), path: "$.events[1].at")) { try scenario.validate() }
        var policy = BudgetPolicy.iOS13
        policy.willTerminateLimit = .zero
        let badPolicy = Scenario(policy: policy, apps: [], events: [])
        #expect(throws: ScenarioError(.invalidPolicy(PolicyError(field: .willTerminateLimit, problem: .notPositive(0))), path: "$.policy")) {
            try badPolicy.run()
        }
    }
}
