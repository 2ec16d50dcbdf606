import BackgroundBudgetCore
import BudgetTime

/// Every problem of a scenario file, not only the first: what `bgbudget validate` prints.
///
/// The reading goes on past a bad value wherever the rest does not depend on it: each top-level key,
/// each app (its keys, its manifest, each key of its `behaviour`, each step), each event. The checks
/// across values (identifiers unique, times in order, events naming declared apps) need the whole
/// scenario, so they run once everything reads.
extension Scenario {
    /// The most problems ``problems(inJSONBytes:file:limit:)`` reports unless asked otherwise.
    package static let problemLimit = 20

    /// The problems of a scenario file, each with its JSONPath and line and column, in the order
    /// they are found, and whether more were left out.
    package struct Problems: Sendable, Hashable {
        /// The problems, at most the limit asked for.
        package var errors: [ScenarioError] = []
        /// Whether the limit was reached with the file not yet read through.
        package var truncated = false
        /// The most problems to keep.
        let limit: Int

        /// Whether the limit has been reached.
        var isFull: Bool { errors.count >= limit }

        /// Keeps a problem, or notes that one was left out.
        mutating func add(_ error: ScenarioError) {
            if isFull { truncated = true } else { errors.append(error) }
        }

        /// Runs `body`, keeping the problem it throws; its value, or `nil`.
        mutating func collect<Value>(_ body: () throws(ScenarioError) -> Value) -> Value? {
            do {
                return try body()
            } catch {
                add(error)
                return nil
            }
        }
    }

    /// Reads a scenario file's bytes and returns every problem in it, up to `limit`.
    /// - Parameters:
    ///   - jsonBytes: The file's bytes.
    ///   - file: The file's path, which each problem prints before its position.
    ///   - limit: The most problems to report (at least 1).
    /// - Returns: No errors when ``init(jsonBytes:file:)`` would succeed; otherwise the problem it
    ///   would throw first, then the others, part by part in file order.
    package static func problems(inJSONBytes jsonBytes: [UInt8], file: String? = nil, limit: Int = problemLimit) -> Problems {
        var problems = Problems(limit: max(1, limit))
        let root: JSONNode
        do {
            root = try JSONParser.parse(jsonBytes)
        } catch {
            // Nothing after a syntax error can be read.
            problems.add(named(ScenarioError(.malformedJSON(error.message), path: error.path.description,
                                             position: SourcePosition(offset: error.offset, in: jsonBytes)), file))
            return problems
        }
        let reader = ScenarioReader(node: root, path: .root, source: jsonBytes)
        var read = Problems(limit: problems.limit)
        let scenario = readAll(reader, file: file, into: &read)
        if let scenario, read.errors.isEmpty {
            for var error in scenario.0.validationProblems(idPaths: scenario.1, limit: problems.limit + 1) {
                if let offset = offset(of: error.path, in: root) { error.position = SourcePosition(offset: offset, in: jsonBytes) }
                read.add(error)
            }
        }
        for error in read.errors { problems.add(named(error, file)) }
        problems.truncated = problems.truncated || read.truncated
        return problems
    }

    private static func named(_ error: ScenarioError, _ file: String?) -> ScenarioError {
        var named = error
        named.file = file
        return named
    }

    /// Reads the whole document, keeping every problem; the scenario (with its identifier paths) when
    /// every part read.
    private static func readAll(_ reader: ScenarioReader, file: String?, into problems: inout Problems) -> (Scenario, [String])? {
        guard let top = checkedObject(reader, accepting: topLevelKeys, into: &problems) else { return nil }
        let description = problems.collect { () throws(ScenarioError) in try top.optional("description")?.string() ?? "" }
        let policy = problems.collect { () throws(ScenarioError) in
            try top.optional("policy").map { reader throws(ScenarioError) in try decodePolicy(reader) } ?? .iOS13
        }
        if let device = top.optional("device") { _ = problems.collect { () throws(ScenarioError) in try device.object(accepting: []) } }
        var apps: [ScenarioApp] = []
        var idPaths: [String] = []
        if let appReaders = problems.collect({ () throws(ScenarioError) in try top.required("apps").array() }) {
            for appReader in appReaders {
                if let app = readApp(appReader, file: file, into: &problems) {
                    apps.append(app)
                    idPaths.append(ScenarioApp.identifierPath(of: appReader))
                }
            }
        }
        var events: [ScenarioEvent] = []
        if let eventReaders = problems.collect({ () throws(ScenarioError) in try top.required("events").array() }) {
            for eventReader in eventReaders {
                if var event = problems.collect({ () throws(ScenarioError) in try decodeEvent(eventReader) }) {
                    event.position = SourcePosition(offset: eventReader.node.offset, in: reader.source)
                    events.append(event)
                }
            }
        }
        let end = problems.collect { () throws(ScenarioError) in
            try top.optional("end").map { reader throws(ScenarioError) in BudgetInstant.zero + (try reader.seconds()) }
        }
        guard let description, let policy, let end else { return nil }
        return (Scenario(description: description, policy: policy, apps: apps, events: events, end: end), idPaths)
    }

    /// One app, keeping a problem for each unknown key, for its manifest and for each key of its
    /// behaviour and each step.
    private static func readApp(_ reader: ScenarioReader, file: String?, into problems: inout Problems) -> ScenarioApp? {
        guard let object = checkedObject(reader, accepting: appKeys, into: &problems) else { return nil }
        let manifest = problems.collect { () throws(ScenarioError) in try ScenarioApp.manifest(from: object, scenarioFile: file) }
        var behaviour = ScenarioBehaviour()
        var behaviourRead = true
        if let behaviourReader = object.optional("behaviour"),
           let callbacks = checkedObject(behaviourReader, accepting: behaviourKeys, into: &problems) {
            for member in callbacks.members where behaviourKeys.contains(member.key) {
                guard let value = callbacks.optional(member.key) else { continue }
                // Step lists are read step by step, so that each bad step is reported.
                var stepFailed = false
                if case .array(let elements) = value.node.value, member.key != ScenarioBehaviour.fetchKey,
                   member.key != ScenarioBehaviour.restorationKey {
                    for index in elements.indices {
                        let step = ScenarioReader(node: elements[index], path: value.path.appending(index: index), source: value.source)
                        if problems.collect({ () throws(ScenarioError) in try decodeStep(step) }) == nil { stepFailed = true }
                    }
                }
                if stepFailed || problems.collect({ () throws(ScenarioError) in try decodeBehaviour(member.key, value, into: &behaviour) }) == nil {
                    behaviourRead = false
                }
            }
        }
        guard let manifest, behaviourRead else { return nil }
        return ScenarioApp(manifest, behaviour: behaviour)
    }

    /// The value as an object, keeping a problem for each key not in `accepted` (those keys are then
    /// left unread); `nil`, with the problem kept, when it is not an object.
    private static func checkedObject(_ reader: ScenarioReader, accepting accepted: [String],
                                      into problems: inout Problems) -> ObjectReader? {
        guard case .object(let members) = reader.node.value else {
            problems.add(reader.error(.wrongType(expected: "an object", found: reader.node.typeName)))
            return nil
        }
        for member in members where !accepted.contains(member.key) {
            problems.add(ScenarioError(.unknownKey(member.key, accepted: accepted), path: reader.path.appending(key: member.key).description,
                                       position: SourcePosition(offset: member.keyOffset, in: reader.source)))
        }
        return ObjectReader(reader: reader, members: members.filter { accepted.contains($0.key) })
    }
}
