import BackgroundBudgetCore
import BackgroundBudgetExplorer

/// The report as JSON: members in a fixed order, one per line, so that two equal reports are equal
/// files. Seeds and hashes are strings (a JSON number is a double: it cannot hold every 64-bit value).
extension ExploreReport {
    /// The report's JSON text, ending in a newline.
    var json: String {
        var members: [(String, Value)] = [
            ("format", .string(Self.format)), ("version", .int(Self.version)),
            ("scenario", .object([("file", .string(setup.file)), ("digest", .string(setup.digest)), ("apps", .int(setup.apps)),
                                  ("menuEvents", .int(setup.menuEvents)), ("invariants", .array(setup.invariants.map(Value.string)))])),
            ("options", .object([("invariant", .array(setup.invariantOptions.map(Value.string))),
                                 ("weight", .array(setup.weights.map(Value.string))),
                                 ("seeds", setup.seeds.map(Value.int) ?? .null), ("firstSeed", .string(String(setup.firstSeed))),
                                 ("sequences", .int(setup.sequences)), ("length", .int(setup.length)),
                                 ("depth", setup.depth.map(Value.int) ?? .null)])),
            ("shard", shard.map { .string("\($0.index + 1)/\($0.count)") } ?? .null),
            ("stopped", stopped.map(Value.string) ?? .null), ("interrupted", .bool(interrupted)),
        ]
        members.append(("walks", .array(walks.map { walk in
            .object([("seed", .string(String(walk.seed))), ("place", .int(walk.offset)), ("sequencesTried", .int(walk.sequencesTried)),
                     ("find", walk.find.map(Self.value) ?? .null)])
        })))
        members.append(("exhaustive", exhaustive.map { search in
            .object([("before", .object([("sequencesTried", .int(search.before.sequencesTried)),
                                         ("eventsPerformed", .int(search.before.eventsPerformed)),
                                         ("failingSequences", .int(search.before.failingSequences)),
                                         ("statesSeen", .int(search.before.statesSeen))])),
                     ("lastLevel", .object([("sequencesTried", .int(search.lastSequences)), ("eventsPerformed", .int(search.lastEvents)),
                                            ("failingSequences", .int(search.lastFailing))])),
                     ("lastLevelStateCount", .int(search.lastStateCount)),
                     // A shard's own, for the merge; the whole exploration's report has the count alone.
                     ("lastLevelStates", .array(shard == nil ? [] : search.lastStates.map { .string(hex($0)) })),
                     ("finds", .array(search.finds.map(Self.value)))])
        } ?? .null))
        return Value.object(members).rendered(indent: "") + "\n"
    }

    private static func value(_ find: Find) -> Value {
        .object([("invariant", .string(find.invariant)), ("app", find.app.map(Value.string) ?? .null),
                 ("message", .string(find.message)), ("events", .array(find.events.map(Value.string))),
                 ("failingEvent", .int(find.failingEvent)), ("foundLength", .int(find.foundLength)),
                 ("measure", .object([("events", .int(find.measure.events)), ("totalWait", .string(String(find.measure.totalWait))),
                                      ("menuPositions", .int(find.measure.menuPositions)),
                                      ("menuOrder", .array(find.measure.menuOrder.map(Value.int)))])),
                 ("foundAt", find.foundAt.map { .array([.int($0.level), .int($0.prefix), .int($0.entry)]) } ?? .null),
                 ("scenarioFile", .string(find.scenarioFile))])
    }

    /// A JSON value to write.
    indirect enum Value {
        case null
        case bool(Bool)
        case int(Int)
        case string(String)
        case array([Value])
        case object([(String, Value)])

        /// The value, objects and non-empty arrays over several lines indented by two spaces.
        func rendered(indent: String) -> String {
            let inner = indent + "  "
            switch self {
            case .null: return "null"
            case .bool(let flag): return flag ? "true" : "false"
            case .int(let number): return String(number)
            case .string(let text): return jsonString(text)
            case .array(let items):
                guard !items.isEmpty else { return "[]" }
                if items.allSatisfy({ if case .int = $0 { true } else { false } }) {
                    return "[" + items.map { $0.rendered(indent: inner) }.joined(separator: ", ") + "]"
                }
                return "[\n" + items.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
            case .object(let members):
                guard !members.isEmpty else { return "{}" }
                return "{\n" + members.map { inner + jsonString($0.0) + ": " + $0.1.rendered(indent: inner) }.joined(separator: ",\n")
                    + "\n" + indent + "}"
            }
        }
    }
}

/// A 64-bit value as 16 hexadecimal digits.
func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}

/// The FNV-1a 64-bit hash of some bytes, as 16 hexadecimal digits: tells two scenario files apart.
func fnv1a64(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    return hex(hash)
}
