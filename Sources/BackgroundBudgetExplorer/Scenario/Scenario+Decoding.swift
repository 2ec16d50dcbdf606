import BackgroundBudgetCore
import BudgetTime
import BackgroundBudgetRuntime

extension Scenario {
    /// The keys of a scenario file's top-level object.
    static let topLevelKeys = ["description", "policy", "device", "apps", "events", "end"]
    /// The keys of an app object.
    static let appKeys = ["id", "infoPlist", "displayName", "exitsOnSuspend", "backgroundModes", "permittedTaskIdentifiers", "scenes", "behaviour"]
    /// The keys of the policy object.
    static let policyKeys = ["preset", "overrides"]

    /// Reads a scenario from JSON text and checks it (``validate()``).
    /// - Parameter json: The scenario file's text.
    /// - Throws: ``ScenarioError`` for malformed JSON (with line and column), a wrong type, an
    ///   unknown key or value (with the JSONPath and what is accepted), or a semantic problem.
    public init(json: String) throws(ScenarioError) {
        try self.init(jsonBytes: Array(json.utf8))
    }

    /// Reads a scenario from the UTF-8 bytes of a JSON file and checks it (``validate()``).
    /// - Parameters:
    ///   - jsonBytes: The file's bytes.
    ///   - file: The file's path, which errors print before the line and column. An app's relative
    ///     `infoPlist` path resolves against its folder; with no file, or a bare file name, against
    ///     the current directory.
    /// - Throws: ``ScenarioError``, as ``init(json:)``; an app's Info.plist problem is reported at its
    ///   `infoPlist` key with the plist's own key (``ScenarioError/Problem/infoPlist(_:)``).
    public init(jsonBytes: [UInt8], file: String? = nil) throws(ScenarioError) {
        do throws(ScenarioError) {
            let root: JSONNode
            do {
                root = try JSONParser.parse(jsonBytes)
            } catch {
                throw ScenarioError(.malformedJSON(error.message), path: error.path.description,
                                    position: SourcePosition(offset: error.offset, in: jsonBytes))
            }
            let idPaths: [String]
            (self, idPaths) = try Self.decode(ScenarioReader(node: root, path: .root, source: jsonBytes), file: file)
            do {
                // Identifiers from Info.plists are reported at their `infoPlist` keys, not at an `id`.
                _ = try Self.checkIdentifiers(of: apps, at: idPaths)
                try validate()
            } catch {
                // Point at the value the path names, which is more precise than the event.
                var located = error
                if let offset = Self.offset(of: error.path, in: root) {
                    located.position = SourcePosition(offset: offset, in: jsonBytes)
                }
                throw located
            }
        } catch {
            var named = error
            named.file = file
            throw named
        }
    }

    private static func decode(_ reader: ScenarioReader, file: String?) throws(ScenarioError) -> (Scenario, idPaths: [String]) {
        let top = try reader.object(accepting: topLevelKeys)
        let description = try top.optional("description")?.string() ?? ""
        let policy = try top.optional("policy").map { reader throws(ScenarioError) in try decodePolicy(reader) } ?? .iOS13
        if let device = top.optional("device") { _ = try device.object(accepting: []) }
        let appReaders = try top.required("apps").array()
        let apps = try appReaders.map { reader throws(ScenarioError) in try decodeApp(reader, file: file) }
        // Event by event, so that a scenario of a million events never holds a reader (and its path)
        // for each of them at once.
        let eventsReader = try top.required("events")
        guard case .array(let eventNodes) = eventsReader.node.value else {
            throw eventsReader.error(.wrongType(expected: "an array", found: eventsReader.node.typeName))
        }
        var events: [ScenarioEvent] = []
        events.reserveCapacity(eventNodes.count)
        for (index, node) in eventNodes.enumerated() {
            events.append(try decodeEvent(ScenarioReader(node: node, path: eventsReader.path.appending(index: index), source: reader.source)))
        }
        // Where each event starts, for errors at run time; one pass over the text for all of them.
        let positions = SourcePosition.positions(ofSortedOffsets: eventNodes.map(\.offset), in: reader.source)
        for index in events.indices { events[index].position = positions[index] }
        let end = try top.optional("end").map { reader throws(ScenarioError) in BudgetInstant.zero + (try reader.seconds()) }
        return (Scenario(description: description, policy: policy, apps: apps, events: events, end: end),
                appReaders.map(ScenarioApp.identifierPath(of:)))
    }

    static func decodePolicy(_ reader: ScenarioReader) throws(ScenarioError) -> BudgetPolicy {
        let object = try reader.object(accepting: policyKeys)
        let presets = BudgetPolicy.presets.map(\.name)
        var policy = BudgetPolicy.iOS13
        if let preset = object.optional("preset") {
            let name = try preset.string()
            guard let match = BudgetPolicy.preset(named: name) else { throw preset.error(.unknownValue(name, accepted: presets)) }
            policy = match
        }
        guard let overrides = object.optional("overrides") else { return policy }
        let fields = try overrides.object(accepting: BudgetPolicy.Field.allCases.map(\.rawValue))
        var readers: [BudgetPolicy.Field: ScenarioReader] = [:]
        for member in fields.members {
            guard let field = BudgetPolicy.Field(rawValue: member.key), let value = fields.optional(member.key) else { continue }
            readers[field] = value
            let number: Double
            // Every yes-or-no field takes `true`/`false` as well as 1/0.
            if field.isBoolean, case .bool(let flag) = value.node.value {
                number = flag ? 1 : 0
            } else {
                number = try value.number()
            }
            do {
                policy = try policy.setting(field, to: number)
            } catch {
                throw value.error(.invalidPolicy(error))
            }
        }
        do {
            try policy.validate()
        } catch {
            throw (readers[error.field] ?? overrides).error(.invalidPolicy(error))
        }
        return policy
    }

    static func decodeApp(_ reader: ScenarioReader, file: String?) throws(ScenarioError) -> ScenarioApp {
        let object = try reader.object(accepting: appKeys)
        let manifest = try ScenarioApp.manifest(from: object, scenarioFile: file)
        guard let behaviourReader = object.optional("behaviour") else { return ScenarioApp(manifest) }
        let callbacks = try behaviourReader.object(accepting: behaviourKeys)
        var behaviour = ScenarioBehaviour()
        for member in callbacks.members {
            guard let value = callbacks.optional(member.key) else { continue }
            try decodeBehaviour(member.key, value, into: &behaviour)
        }
        return ScenarioApp(manifest, behaviour: behaviour)
    }

    /// The keys of an app's `behaviour`.
    static let behaviourKeys = AppCallback.allCases.map(\.eventName)
        + [ScenarioBehaviour.onEventKey, ScenarioBehaviour.fetchKey, ScenarioBehaviour.restorationKey]
        + ScenarioBehaviour.notificationKeys + ScenarioBehaviour.sceneOnlyCallbacks.map(\.eventName)

    /// Reads one key of an app's `behaviour` into it.
    static func decodeBehaviour(_ key: String, _ steps: ScenarioReader, into behaviour: inout ScenarioBehaviour) throws(ScenarioError) {
        if key == ScenarioBehaviour.restorationKey {
            behaviour.restorationActivity = try ScenarioBehaviour.decodeRestorationActivity(steps)
            return
        }
        if key == ScenarioBehaviour.fetchKey {
            let fetch = try steps.object(accepting: ["result", "work"])
            // Optional chaining would flatten `never`'s `nil` into "no result key", read as `newData`.
            var result = BackgroundFetchResult?.some(.newData)
            if let reader = fetch.optional("result") {
                result = try reader.oneOf(["newData": BackgroundFetchResult?.some(.newData),
                                           "noData": .some(.noData), "failed": .some(.failed), "never": nil])
            }
            behaviour.fetch = ScenarioFetch(result: result, work: try fetch.optional("work")?.seconds() ?? .zero)
            return
        }
        let decoded = try steps.array().map { reader throws(ScenarioError) in try decodeStep(reader) }
        if let callback = AppCallback(eventName: key) {
            behaviour.steps[callback] = decoded
        } else if let callback = SceneCallback(eventName: key) {
            behaviour.sceneSteps[callback] = decoded
        } else if let notification = ScenarioBehaviour.observedNotification(forKey: key) {
            behaviour.observed[notification] = decoded
        } else {
            behaviour.onEvent = decoded
        }
    }

    static func decodeStep(_ reader: ScenarioReader) throws(ScenarioError) -> ScenarioStep {
        let verb = try named(reader, in: ScenarioStep.vocabulary.map(\.name)) { ScenarioStep.verb(named: $0) }
        return try verb.decode(reader.object(accepting: ["do"] + verb.keys))
    }

    static func decodeEvent(_ reader: ScenarioReader) throws(ScenarioError) -> ScenarioEvent {
        let verb = try named(reader, in: ScenarioAction.vocabulary.map(\.name)) { ScenarioAction.verb(named: $0) }
        let object = try reader.object(accepting: ["at", "do"] + verb.keys)
        let at = BudgetInstant.zero + (try object.required("at").seconds())
        return ScenarioEvent(at: at, try verb.decode(object))
    }

    /// The vocabulary entry an object's `"do"` names, checked before its other keys (which depend on it).
    private static func named<Verb>(
        _ reader: ScenarioReader, in names: [String], lookUp: (String) -> Verb?
    ) throws(ScenarioError) -> Verb {
        guard case .object(let members) = reader.node.value else {
            throw reader.error(.wrongType(expected: "an object", found: reader.node.typeName))
        }
        let object = ObjectReader(reader: reader, members: members)
        let name = try object.required("do")
        let text = try name.string()
        guard let verb = lookUp(text) else { throw name.error(.unknownValue(text, accepted: names)) }
        return verb
    }

    /// The source offset of the value a JSONPath names (as ``ScenarioError/path`` prints it), or `nil`.
    static func offset(of path: String, in root: JSONNode) -> Int? {
        var node = root
        var rest = Substring(path)
        guard rest.hasPrefix("$") else { return nil }
        rest = rest.dropFirst()
        while !rest.isEmpty {
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]),
                      case .array(let elements) = node.value, elements.indices.contains(index) else { return node.offset }
                node = elements[index]
                rest = rest[rest.index(after: close)...]
            } else if rest.hasPrefix(".") {
                let key = rest.dropFirst().prefix { $0 != "." && $0 != "[" }
                guard case .object(let members) = node.value, let member = members.first(where: { $0.key == key }) else {
                    return node.offset
                }
                node = member.value
                rest = rest.dropFirst(1 + key.count)
            } else {
                return node.offset
            }
        }
        return node.offset
    }
}
