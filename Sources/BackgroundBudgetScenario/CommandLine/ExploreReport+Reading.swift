import BackgroundBudgetCore
import BackgroundBudgetExplorer

extension ExploreReport {
    /// The largest report file `merge` reads: 1 GiB (a deep search's last level may reach some tens of
    /// millions of states, each 19 bytes in the file).
    static let fileLimit = 1 << 30

    /// Reads a report file that `bgbudget explore --report` wrote.
    /// - Parameter file: The path.
    /// - Throws: ``ExploreReportError`` saying what is wrong and where (its JSONPath).
    init(file: String) throws(ExploreReportError) {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.contents(of: file, limit: Self.fileLimit)
        } catch {
            throw ExploreReportError(file: file, problem: .unreadable("\(error)"))
        }
        try self.init(jsonBytes: bytes, file: file)
    }

    /// Reads a report from its JSON.
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - file: The file's path, for messages.
    /// - Throws: ``ExploreReportError``.
    init(jsonBytes bytes: [UInt8], file: String) throws(ExploreReportError) {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ExploreReportError(file: file, problem: .malformedJSON(error.summary))
        }
        do {
            self = try Self.decode(Reader(node: root, path: "$", file: file))
        } catch let error as ExploreReportError {
            throw error
        } catch {
            throw ExploreReportError(file: file, problem: .badField(path: "$", expected: "a report (\(error))"))
        }
    }

    /// The report in a parsed file; throws ``ExploreReportError`` alone.
    private static func decode(_ top: Reader) throws -> ExploreReport {
        let file = top.file
        guard case .object = top.node.value, case .string(Self.format)? = top.member("format")?.node.value else {
            throw ExploreReportError(file: file, problem: .notAReport)
        }
        let version = try top.field("version").number()
        guard version == Double(Self.version) else { throw ExploreReportError(file: file, problem: .unsupportedVersion(version)) }
        let scenario = try top.field("scenario"), options = try top.field("options")
        var report = ExploreReport(setup: Setup(file: try scenario.field("file").string(), digest: try scenario.field("digest").string(),
                      apps: try scenario.field("apps").int(), menuEvents: try scenario.field("menuEvents").int(),
                      invariants: try scenario.field("invariants").each { try $0.string() },
                      invariantOptions: try options.field("invariant").each { try $0.string() },
                      weights: try options.field("weight").each { try $0.string() },
                      seeds: try options.field("seeds").optional { try $0.int() },
                      firstSeed: try options.field("firstSeed").unsigned(),
                      sequences: try options.field("sequences").int(), length: try options.field("length").int(),
                      depth: try options.field("depth").optional { try $0.int() }))
        report.shard = try top.field("shard").optional { try $0.shard() }
        report.stopped = try top.field("stopped").optional { try $0.string() }
        report.interrupted = try top.field("interrupted").bool()
        report.walks = try top.field("walks").each { walk in
            Walk(offset: try walk.field("place").int(), seed: try walk.field("seed").unsigned(),
                 sequencesTried: try walk.field("sequencesTried").int(), find: try walk.field("find").optional { try $0.find() })
        }
        report.exhaustive = try top.field("exhaustive").optional { search in
            let before = try search.field("before"), last = try search.field("lastLevel")
            return Exhaustive(before: ExplorerCounts(sequencesTried: try before.field("sequencesTried").int(),
                                                     eventsPerformed: try before.field("eventsPerformed").int(),
                                                     failingSequences: try before.field("failingSequences").int(),
                                                     statesSeen: try before.field("statesSeen").int()),
                              lastSequences: try last.field("sequencesTried").int(), lastEvents: try last.field("eventsPerformed").int(),
                              lastFailing: try last.field("failingSequences").int(),
                              lastStateCount: try search.field("lastLevelStateCount").int(),
                              lastStates: try search.field("lastLevelStates").each { try $0.hexadecimal() },
                              finds: try search.field("finds").each { try $0.find() })
        }
        if let search = report.exhaustive, report.shard != nil, search.lastStates.count != search.lastStateCount {
            throw ExploreReportError(file: file, problem: .badField(path: "$.exhaustive.lastLevelStateCount",
                                                                   expected: "the number of $.exhaustive.lastLevelStates in a shard's report"))
        }
        return report
    }
}

/// Reads one value of a report, knowing its JSONPath for messages.
private struct Reader {
    let node: JSONNode
    let path: String
    let file: String

    func fail(_ expected: String) -> ExploreReportError {
        ExploreReportError(file: file, problem: .badField(path: path, expected: expected))
    }

    func member(_ key: String) -> Reader? {
        guard case .object(let members) = node.value, let found = members.last(where: { $0.key == key }) else { return nil }
        return Reader(node: found.value, path: path + "." + key, file: file)
    }

    func field(_ key: String) throws(ExploreReportError) -> Reader {
        guard case .object = node.value else { throw fail("an object") }
        guard let found = member(key) else { throw ExploreReportError(file: file, problem: .badField(path: path + "." + key, expected: "present")) }
        return found
    }

    func string() throws(ExploreReportError) -> String {
        guard case .string(let text) = node.value else { throw fail("a string") }
        return text
    }

    func bool() throws(ExploreReportError) -> Bool {
        guard case .bool(let flag) = node.value else { throw fail("true or false") }
        return flag
    }

    func number() throws(ExploreReportError) -> Double {
        guard case .number(let value) = node.value else { throw fail("a number") }
        return value
    }

    /// A whole number from 0 to 2^53.
    func int() throws(ExploreReportError) -> Int {
        let value = try number()
        guard value >= 0, value <= 9_007_199_254_740_992, value == value.rounded() else { throw fail("a whole number from 0") }
        return Int(value)
    }

    func unsigned() throws(ExploreReportError) -> UInt64 {
        guard let value = UInt64(try string()) else { throw fail("a whole number from 0 to 2^64 - 1, as a string") }
        return value
    }

    func hexadecimal() throws(ExploreReportError) -> UInt64 {
        let text = try string()
        guard text.utf8.count == 16, let value = UInt64(text, radix: 16) else { throw fail("16 hexadecimal digits") }
        return value
    }

    func array() throws(ExploreReportError) -> [Reader] {
        guard case .array(let items) = node.value else { throw fail("an array") }
        return items.enumerated().map { Reader(node: $1, path: path + "[\($0)]", file: file) }
    }

    func each<T>(_ read: (Reader) throws -> T) throws -> [T] {
        var values: [T] = []
        for item in try array() { values.append(try read(item)) }
        return values
    }

    func optional<T>(_ read: (Reader) throws -> T) throws -> T? {
        if case .null = node.value { return nil }
        return try read(self)
    }

    /// `2/4`: a shard, 1-based in the file, 0-based in memory.
    func shard() throws -> ExplorerPartition {
        guard let parsed = ScenarioCommand.parseShard(try string()) else { throw fail("a shard 'I/N', I from 1 to N") }
        return parsed
    }

    func find() throws -> ExploreReport.Find {
        let measure = try field("measure")
        guard let totalWait = Int64(try measure.field("totalWait").string()) else { throw try measure.field("totalWait").fail("a whole number, as a string") }
        let foundAt = try field("foundAt").optional { (at: Reader) throws -> ExplorerFindOrder in
            let parts = try at.each { try $0.int() }
            guard parts.count == 3 else { throw at.fail("[level, prefix, entry]") }
            return ExplorerFindOrder(level: parts[0], prefix: parts[1], entry: parts[2])
        }
        let events = try field("events").each { try $0.string() }
        let failingEvent = try field("failingEvent").int()
        guard events.indices.contains(failingEvent) else { throw try field("failingEvent").fail("the index of one of the events") }
        return ExploreReport.Find(
            invariant: try field("invariant").string(), app: try field("app").optional { try $0.string() },
            message: try field("message").string(), events: events, failingEvent: failingEvent,
            foundLength: try field("foundLength").int(),
            measure: Explorer.ShrinkMeasure(events: try measure.field("events").int(), totalWait: totalWait,
                                            menuPositions: try measure.field("menuPositions").int(),
                                            menuOrder: try measure.field("menuOrder").each { try $0.int() }),
            foundAt: foundAt, scenarioFile: try field("scenarioFile").string())
    }
}
