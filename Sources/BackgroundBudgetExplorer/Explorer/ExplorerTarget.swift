import BackgroundBudgetCore
import BudgetTime
import BackgroundBudgetRuntime

/// What the explorer drives: a scenario's policy, apps and behaviours, and its events as the setup
/// every explored sequence starts from.
///
/// A target reads a scenario file, so that a counterexample can be written back as one: the same
/// policy, device and apps, with the setup's events followed by the explored ones. An app may be given
/// a test's own delegate instead of its scenario behaviour; a counterexample then replays the events,
/// but `bgbudget run` gives that app its file's behaviour.
public struct ExplorerTarget: Sendable {
    /// Makes a fresh delegate for one explored run, given the app it serves on that run's system and
    /// the run's clock (``ExplorerAppContext``), so its code reads the model's time and state.
    public typealias DelegateFactory = @Sendable (ExplorerAppContext) -> any ApplicationDelegate

    /// The scenario: policy, apps, and the setup events.
    public let scenario: Scenario
    /// The parsed file, for writing counterexamples back.
    let root: JSONNode
    /// Delegates that replace scenario behaviours, by app.
    let delegates: [AppID: DelegateFactory]

    /// Reads a target from a scenario file's text.
    /// - Parameters:
    ///   - json: The scenario file's text.
    ///   - delegates: For each app that should run a delegate of its own instead of its behaviour,
    ///     a function that makes a fresh one for each run from the app as installed on that run.
    /// - Throws: ``ScenarioError`` as ``Scenario/init(json:)``, or ``ScenarioError/Problem/unknownApp(_:declared:)``
    ///   at `$.apps` when `delegates` names an app the scenario does not declare.
    public init(json: String, delegates: [AppID: DelegateFactory] = [:]) throws(ScenarioError) {
        try self.init(jsonBytes: Array(json.utf8), delegates: delegates)
    }

    /// Reads a target from a scenario file's text, with delegates that need nothing of their run.
    /// - Parameters:
    ///   - json: The scenario file's text.
    ///   - delegates: For each app that should run a delegate of its own, a function that makes one.
    /// - Throws: ``ScenarioError``, as ``init(jsonBytes:file:delegates:)``.
    public init(json: String, delegates: [AppID: @Sendable () -> any ApplicationDelegate]) throws(ScenarioError) {
        try self.init(jsonBytes: Array(json.utf8), delegates: delegates.mapValues { make in { _ in make() } })
    }

    /// Reads a target from a scenario file's bytes.
    /// - Parameters:
    ///   - jsonBytes: The file's bytes.
    ///   - file: The file's path, for messages and relative Info.plist paths.
    ///   - delegates: Delegates that replace scenario behaviours, as in ``init(jsonBytes:file:delegates:)``.
    /// - Throws: ``ScenarioError``, as ``init(jsonBytes:file:delegates:)``.
    public init(jsonBytes: [UInt8], file: String? = nil, delegates: [AppID: DelegateFactory] = [:]) throws(ScenarioError) {
        let scenario = try Scenario(jsonBytes: jsonBytes, file: file)
        guard let root = try? JSONParser.parse(jsonBytes) else {
            throw ScenarioError(.malformedJSON("the file changed while it was read"), path: "$")   // parsed once above
        }
        let declared = scenario.apps.map(\.manifest.id)
        if let unknown = delegates.keys.sorted().first(where: { !declared.contains($0) }) {
            throw ScenarioError(.unknownApp(unknown, declared: declared), path: "$.apps")
        }
        self.scenario = scenario
        self.root = root
        self.delegates = delegates
    }

    /// The apps' identifiers, in the scenario's order.
    public var appIDs: [AppID] {
        scenario.apps.map(\.manifest.id)
    }

    /// The instant explored sequences start at: the end of the setup.
    var start: BudgetInstant {
        scenario.endInstant
    }

    /// The scenario file a sequence gives: this file's description replaced by `description`, its
    /// policy, device and apps as they are, the setup's events and then the sequence's actions, each
    /// at the instant its waits add up to, and `end` after the last wait.
    /// - Parameters:
    ///   - events: The explored sequence.
    ///   - description: The new description.
    /// - Returns: The file's text, ending in a newline.
    func scenarioFile(for events: [ExplorerEvent], description: String) -> String {
        var lines = ["{", "  \"description\": \(jsonString(description)),"]
        if case .object(let members) = root.value {
            for member in members where ["policy", "device"].contains(member.key) {
                lines.append("  \(jsonString(member.key)): \(member.value.rendered()),")
            }
            if let apps = members.first(where: { $0.key == "apps" }), case .array(let list) = apps.value.value {
                lines.append("  \"apps\": [")
                lines += list.enumerated().map { "    \($1.rendered())" + ($0 < list.count - 1 ? "," : "") }
                lines.append("  ],")
            }
        }
        var instant = start
        var written = setupEvents
        for event in events {
            if case .wait(let duration) = event { instant = instant + duration }
            if let json = event.json(at: instant) { written.append(json) }
        }
        lines.append("  \"events\": [")
        lines += written.enumerated().map { "    \($1)" + ($0 < written.count - 1 ? "," : "") }
        lines.append("  ],")
        lines.append("  \"end\": \(plainNumber(instant.seconds))")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The setup's events as the file writes them.
    private var setupEvents: [String] {
        guard case .object(let members) = root.value, let list = members.first(where: { $0.key == "events" }),
              case .array(let nodes) = list.value.value else { return [] }
        return nodes.map { $0.rendered() }
    }
}
