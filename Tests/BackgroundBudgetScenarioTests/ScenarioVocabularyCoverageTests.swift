import BackgroundBudgetExplorer
import Foundation
import Testing
import BackgroundBudgetScenario

/// Every public method of `BackgroundSystem` and `Application` that changes what happens has a word in
/// scenario files, so a scenario can say everything the library can (issue 13).
///
/// The methods are read from the sources of `Sources/BackgroundBudgetRuntime`, so a new public method
/// without an entry here fails ``everyPublicMethodHasAnEntry()``: give it a verb, or list it as an
/// exception with the reason.
@Suite struct ScenarioVocabularyCoverageTests {
    /// How a scenario file says what a method does.
    enum Said: Sendable {
        /// An event of `ScenarioAction.vocabulary`.
        case event(String)
        /// An app step of `ScenarioStep.vocabulary`.
        case step(String)
        /// An app step and an event of the same name.
        case stepAndEvent(String)
        /// Another part of the format (a key of an app, or of its behaviour): the key and where.
        case format(String)
        /// Deliberately without a word, for the reason given.
        case exception(String)
    }

    /// Every public method of `BackgroundSystem`, `Application` and `Scene`, by `Type.selector`.
    static let table: [String: Said] = [
        // BackgroundSystem: the user's gestures and the system's decisions.
        "BackgroundSystem.install(_:delegate:)": .format("apps: each app is installed with its manifest and behaviour"),
        "BackgroundSystem.open(_:)": .event("open"),
        "BackgroundSystem.pressHome()": .event("home"),
        "BackgroundSystem.beginInterruption()": .event("beginInterruption"),
        "BackgroundSystem.dismissInterruption()": .event("dismissInterruption"),
        "BackgroundSystem.answerInterruption()": .event("answerInterruption"),
        "BackgroundSystem.killFromAppSwitcher(_:)": .event("killFromAppSwitcher"),
        "BackgroundSystem.launchInBackground(_:reason:)": .event("launchInBackground"),
        "BackgroundSystem.purge(_:)": .event("purge"),
        "BackgroundSystem.openScene(of:)": .event("openScene"),
        "BackgroundSystem.closeScene(_:of:)": .event("closeScene"),
        "BackgroundSystem.reclaimScene(_:of:)": .event("reclaimScene"),
        "BackgroundSystem.reboot()": .event("reboot"),
        "BackgroundSystem.terminate(_:reason:)": .event("terminate"),
        "BackgroundSystem.send(_:to:)": .event("launch"),
        "BackgroundSystem.deliver(_:to:)": .event("deliver"),
        "BackgroundSystem.setMemoryCapacity(_:)": .event("setMemoryCapacity"),
        "BackgroundSystem.post(_:)": .event("post"),
        "BackgroundSystem.setBackgroundAppRefresh(enabled:)": .event("setBackgroundAppRefresh"),
        "BackgroundSystem.setBackgroundAppRefresh(enabled:for:)": .event("setBackgroundAppRefresh"),
        "BackgroundSystem.setLowPowerMode(_:)": .event("setLowPowerMode"),
        "BackgroundSystem.setBackgroundAppRefreshRestricted(_:)": .event("setBackgroundAppRefreshRestricted"),
        "BackgroundSystem.setNetworkAvailable(_:)": .event("setNetwork"),
        "BackgroundSystem.setCriticallyLowBattery(_:)": .event("setCriticallyLowBattery"),
        "BackgroundSystem.setExternalPower(_:)": .event("setExternalPower"),
        "BackgroundSystem.setDeviceIdle(_:)": .event("setDeviceIdle"),
        "BackgroundSystem.setSystemUnderLoad(_:)": .event("setSystemUnderLoad"),
        "BackgroundSystem.setSupportsBackgroundGPU(_:)": .event("setBackgroundGPU"),
        "BackgroundSystem.cancelContinuedProcessingTask(_:of:)": .event("cancelContinuedTask"),
        "BackgroundSystem.reclaimContinuedProcessingResources()": .event("reclaimResources"),
        "BackgroundSystem.application(_:)": .exception("a query: it changes nothing"),
        "BackgroundSystem.state(of:)": .exception("a query: the trace records every state"),
        "BackgroundSystem.logLines(includesSystemEvents:)": .exception("output: bgbudget run --format log"),
        "BackgroundSystem.jetsamBand(of:)": .exception("a query: it changes nothing"),
        "BackgroundSystem.scenes(of:)": .exception("a query: the trace records every scene callback"),
        "BackgroundSystem.explain(_:)": .exception("a query: it changes nothing; the trace shows the decisions"),
        "BackgroundSystem.explainBackgroundFetch(of:)": .exception("a query: the trace records fetches and skipped opportunities"),
        "BackgroundSystem.explainPendingTaskRequest(_:of:)": .exception("a query: the trace records when a request starts"),

        // Application: what the app does.
        "Application.simulateWork(for:)": .step("work"),
        "Application.beginBackgroundTask(withName:expirationHandler:)": .stepAndEvent("beginTask"),
        "Application.requestBackgroundTask(withName:expirationHandler:)": .stepAndEvent("beginTask"),
        "Application.endBackgroundTask(_:)": .stepAndEvent("beginTask"),   // its work and onExpiration end it
        "Application.recordBackgroundTimeRemaining()": .step("readBackgroundTimeRemaining"),
        "Application.async(_:)": .exception("runs the app's own code; a scenario app's code is its steps"),
        "Application.runLater(after:_:)": .exception("runs the app's own code later; a task's work is how a scenario app works later"),
        "Application.runInBackground(after:_:)": .exception("runs the app's own code on a background thread; a task's work and a handler's progress run there"),
        "Application.makeQueue(label:)": .step("queue"),
        "Application.task(priority:_:)": .step("task"),
        "Application.setMemoryFootprint(_:)": .stepAndEvent("setFootprint"),
        "Application.startActivity(_:)": .stepAndEvent("startActivity"),
        "Application.stopActivity(_:)": .stepAndEvent("stopActivity"),
        "Application.startPlayingAudio()": .stepAndEvent("startActivity"),
        "Application.stopPlayingAudio()": .stepAndEvent("stopActivity"),
        "Application.startUpdatingLocation()": .stepAndEvent("startActivity"),
        "Application.stopUpdatingLocation()": .stepAndEvent("stopActivity"),
        "Application.startMonitoringSignificantLocationChanges()": .step("monitorSignificantChanges"),
        "Application.stopMonitoringSignificantLocationChanges()": .step("stopMonitoringSignificantChanges"),
        "Application.startMonitoring(region:)": .step("monitorRegion"),
        "Application.stopMonitoring(region:)": .step("stopMonitoringRegion"),
        "Application.reportNewIncomingCall()": .step("reportCall"),
        "Application.acquireFileLock(_:)": .step("acquireFileLock"),
        "Application.releaseFileLock(_:)": .step("releaseFileLock"),
        "Application.setKeepAliveTimeout(_:handler:)": .step("setKeepAlive"),
        "Application.clearKeepAliveTimeout()": .step("clearKeepAlive"),
        "Application.completeRemoteNotification(_:)": .step("completeRemoteNotification"),
        "Application.setMinimumBackgroundFetchInterval(_:)": .step("setFetchInterval"),
        "Application.register(forTaskWithIdentifier:launchHandler:)": .step("registerTask"),
        "Application.submit(_:)": .stepAndEvent("submitTask"),
        "Application.cancel(taskRequestWithIdentifier:)": .step("cancelTaskRequest"),
        "Application.cancelAllTaskRequests()": .step("cancelAllTaskRequests"),
        "Application.pendingTaskRequests()": .exception("a query: the trace records submissions and cancellations"),
        "Application.addObserver(for:using:)": .exception("observation: a scenario's delegate is its behaviour"),
        "Application.removeObserver(_:)": .exception("observation: a scenario's delegate is its behaviour"),
        "Application.lifecycleEvents()": .exception("observation: the trace records every callback"),

        // Scene: what a scene's code does.
        "Scene.recordStateRestorationActivity()": .step("readRestorationActivity"),
    ]

    static let runtime = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/BackgroundBudgetRuntime")

    /// The public instance methods declared on `BackgroundSystem` and `Application` (in their classes
    /// or in extensions at the top level of a file), as `Type.name(label:label:)`.
    static func publicMethods() throws -> Set<String> {
        var found: Set<String> = []
        let files = try FileManager.default.contentsOfDirectory(atPath: runtime.path).filter { $0.hasSuffix(".swift") }
        for file in files {
            let lines = try String(contentsOf: runtime.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var type: String?
            for (index, line) in lines.enumerated() {
                if let first = line.first, first != " ", first != "}", first != "/", first != "#" {
                    // A declaration at the top level opens a new context.
                    let words = line.split(whereSeparator: { " :{<".contains($0) }).map(String.init)
                    if let keyword = words.firstIndex(where: { ["class", "extension", "struct", "enum", "protocol", "actor"].contains($0) }),
                       keyword + 1 < words.count {
                        type = ["BackgroundSystem", "Application", "Scene"].contains(words[keyword + 1]) ? words[keyword + 1] : nil
                    }
                    continue
                }
                guard let type, line.hasPrefix("    "), !line.hasPrefix("     ") else { continue }
                var declaration = line.drop { $0 == " " }
                while declaration.hasPrefix("@") { declaration = declaration.drop { $0 != " " }.drop { $0 == " " } }
                guard declaration.hasPrefix("public func ") else { continue }
                // The parameter list, which may run over several lines.
                var text = String(declaration.dropFirst("public func ".count))
                var next = index + 1
                while text.filter({ $0 == "(" }).count > text.filter({ $0 == ")" }).count, next < lines.count {
                    text += " " + lines[next]
                    next += 1
                }
                found.insert("\(type).\(selector(text))")
            }
        }
        return found
    }

    /// `name(label:label:)` for the text of a declaration after `func `.
    static func selector(_ text: String) -> String {
        let name = text.prefix { $0 != "(" && $0 != "<" }
        var depth = 0
        var parameters: [String] = []
        var current = ""
        for character in text.drop(while: { $0 != "(" }) {
            if character == "(" { depth += 1; if depth == 1 { continue } }
            if character == ")" { depth -= 1; if depth == 0 { break } }
            if character == ",", depth == 1 {
                parameters.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { parameters.append(current) }
        let labels = parameters.map { parameter in
            String(parameter.split(separator: ":")[0].split(separator: " ")[0])
        }
        return "\(name)(\(labels.map { $0 + ":" }.joined()))"
    }

    @Test func theSelectorOfADeclarationHasItsLabels() {
        #expect(Self.selector("cancel(taskRequestWithIdentifier identifier: String) {") == "cancel(taskRequestWithIdentifier:)")
        #expect(Self.selector("cancelAllTaskRequests() {") == "cancelAllTaskRequests()")
        #expect(Self.selector("register( forTaskWithIdentifier identifier: String, launchHandler: @escaping @Sendable (ScheduledTask) -> Void ) -> Bool {")
            == "register(forTaskWithIdentifier:launchHandler:)")
        #expect(Self.selector("runLater(after delay: Duration, _ body: @escaping @Sendable () -> Void) {") == "runLater(after:_:)")
    }

    @Test func everyPublicMethodHasAnEntry() throws {
        let methods = try Self.publicMethods()
        #expect(methods.count > 50, "the scan found too few methods: \(methods.sorted())")
        let missing = methods.subtracting(Self.table.keys).sorted()
        #expect(missing.isEmpty, "public methods without scenario vocabulary (add a verb, or an exception with the reason): \(missing)")
        let stale = Set(Self.table.keys).subtracting(methods).sorted()
        #expect(stale.isEmpty, "entries for methods that no longer exist: \(stale)")
    }

    @Test func everyVerbTheTableNamesIsInTheVocabulary() {
        let events = Set(ScenarioAction.vocabulary.map(\.name))
        let steps = Set(ScenarioStep.vocabulary.map(\.name))
        for (method, said) in Self.table {
            switch said {
            case .event(let verb): #expect(events.contains(verb), "\(method): no event \(verb)")
            case .step(let verb): #expect(steps.contains(verb), "\(method): no step \(verb)")
            case .stepAndEvent(let verb):
                #expect(events.contains(verb) && steps.contains(verb), "\(method): \(verb) is not both a step and an event")
            case .format(let what), .exception(let what):
                #expect(!what.isEmpty, "\(method) needs a reason")
            }
        }
    }

    @Test func everyVerbSaysSomethingTheLibraryDoes() {
        // The other direction: no verb is dead vocabulary.
        let said = Set(Self.table.values.compactMap { said -> String? in
            switch said {
            case .event(let verb), .step(let verb), .stepAndEvent(let verb): verb
            case .format, .exception: nil
            }
        })
        // switchTo is `BackgroundSystem.open(_:)` for another app, checked to leave a foreground app.
        let scenarioOnly: Set<String> = ["switchTo"]
        for verb in ScenarioAction.vocabulary.map(\.name) + ScenarioStep.vocabulary.map(\.name) {
            #expect(said.contains(verb) || scenarioOnly.contains(verb), "\(verb) names no public method in the table")
        }
    }
}
