import Foundation
import FuzzSupport
#if DEBUG || FUZZING
@testable import BackgroundBudget
@testable import BackgroundBudgetCore
@testable import BackgroundBudgetExplorer
@testable import BackgroundBudgetScenario
#else
import BackgroundBudget
import BackgroundBudgetExplorer
import BackgroundBudgetScenario
#endif

/// The checks for one input as a scenario file.
enum ScenarioCheck {
    static let file = "fuzz.json"
    /// Runs are bounded by time: only scenarios whose every number is at most this many seconds run.
    static let longestRun = 3600.0

    /// Every property of one input.
    static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        #if DEBUG || FUZZING
        let syntaxError = try checkParser(bytes)
        #endif
        let scenario: Scenario
        do {
            scenario = try Scenario(jsonBytes: bytes, file: file)
        } catch {
            try require(error.file == file, "the error names \(error.file ?? "no file"), not \(file)")
            try require(error.path.hasPrefix("$"), "the error's path \(error.path) is not a JSONPath")
            try require(!error.message.isEmpty, "an empty message")
            // Every error of a scenario read from text has a line and column inside the text.
            guard let position = error.position else { throw PropertyFailure("an error with no position: \(error)") }
            let end = SourcePosition.end(of: bytes)
            try require(position.line >= 1 && position.column >= 1 && position <= end,
                        "position \(position) outside the text, which ends at \(end): \(error)")
            if case .eventRefused = error.problem { throw PropertyFailure("decoding ran an event: \(error)") }
            #if DEBUG || FUZZING
            if let syntaxError {
                try require(error.problem == .malformedJSON(syntaxError.message) && error.path == syntaxError.path.description,
                            "malformed JSON reported as \(error), the parser said \(syntaxError.message) at \(syntaxError.path)")
            } else if case .malformedJSON = error.problem {
                throw PropertyFailure("well-formed JSON reported as malformed: \(error)")
            }
            #endif
            _ = error.description
            return
        }
        #if DEBUG || FUZZING
        try require(syntaxError == nil, "a scenario from malformed JSON")
        #endif
        do {
            try scenario.validate()
        } catch {
            throw PropertyFailure("a decoded scenario does not validate: \(error)")
        }
        try checkRun(scenario, bytes)
    }

    /// Runs a scenario whose run is cheap: a preset policy and no number beyond ``longestRun``.
    static func checkRun(_ scenario: Scenario, _ bytes: [UInt8]) throws(PropertyFailure) {
        guard BudgetPolicy.presets.contains(scenario.policy), scenario.endInstant <= .zero + .seconds(longestRun),
              largestNumber(in: bytes) <= longestRun else { return }
        let run: ScenarioRun
        do {
            run = try scenario.run()
        } catch {
            // Only the lifecycle or a missing task stops a valid scenario, at an event with a position.
            switch error.problem {
            case .eventRefused, .taskNotFound: break
            default: throw PropertyFailure("a valid scenario's run failed with \(error)")
            }
            try require(error.path.hasPrefix("$.events[") && error.position != nil, "a run error without its event: \(error)")
            return
        }
        try require(run.end >= scenario.endInstant, "the run ended at \(run.end), before the scenario's end \(scenario.endInstant)")
        var previous = BudgetInstant.zero
        for event in run.trace.events {
            try require(event.time >= previous, "the trace goes back in time: \(event) after \(previous)")
            previous = event.time
        }
        try require(previous <= run.end, "an event at \(previous) after the run's end \(run.end)")
        #if DEBUG || FUZZING
        // Every JSON Lines record is JSON that this library's own parser reads.
        for line in run.rendered(as: .jsonl).split(separator: "\n") {
            do {
                _ = try JSONParser.parse(Array(line.utf8))
            } catch {
                throw PropertyFailure("the trace's JSON line \(line) is not JSON: \(error.message)")
            }
        }
        #endif
    }

    /// The largest number written in the text, by a plain scan for digits (0 when there is none).
    static func largestNumber(in bytes: [UInt8]) -> Double {
        var largest = 0.0
        var index = 0
        while index < bytes.count {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
                    || [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[index]) {
                index += 1
            }
            largest = max(largest, Double(String(decoding: bytes[start..<index], as: UTF8.self)) ?? .infinity)
        }
        return largest
    }

    #if DEBUG || FUZZING
    /// The JSON parser alone: an error inside the text, or a tree whose offsets point at its values and
    /// whose canonical printing parses back to the same tree.
    /// - Returns: The syntax error, or `nil` for well-formed JSON.
    static func checkParser(_ bytes: [UInt8]) throws(PropertyFailure) -> JSONSyntaxError? {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            try require((0...bytes.count).contains(error.offset), "error offset \(error.offset) outside 0...\(bytes.count)")
            try require(error.path.components.count <= JSONParser.maxDepth + 1, "a path deeper than the nesting limit")
            try require(!error.message.isEmpty, "an empty message")
            return error
        }
        try checkOffsets(root, bytes)
        let printed = canonical(root)
        let again: JSONNode
        do {
            again = try JSONParser.parse(Array(printed.utf8))
        } catch {
            throw PropertyFailure("the canonical printing \(printed) does not parse: \(error.message)")
        }
        try require(canonical(again) == printed, "canonical printing is not stable: \(printed) became \(canonical(again))")
        // What this parser accepts, Foundation's stricter-nowhere parser accepts too.
        let foundation = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        try require(foundation != nil, "JSONSerialization refuses a document this parser accepts")
        return nil
    }

    /// Each node's offset is inside the text, at a character that starts a value of its type.
    static func checkOffsets(_ node: JSONNode, _ bytes: [UInt8]) throws(PropertyFailure) {
        try require(bytes.indices.contains(node.offset), "offset \(node.offset) outside the text")
        let first = bytes[node.offset]
        let expected: Set<UInt8>
        switch node.value {
        case .null: expected = [UInt8(ascii: "n")]
        case .bool(let value): expected = [UInt8(ascii: value ? "t" : "f")]
        case .number: expected = Set(Array("-0123456789".utf8))
        case .string: expected = [UInt8(ascii: "\"")]
        case .array(let elements):
            expected = [UInt8(ascii: "[")]
            for element in elements { try checkOffsets(element, bytes) }
        case .object(let members):
            expected = [UInt8(ascii: "{")]
            for member in members {
                try require(bytes.indices.contains(member.keyOffset) && bytes[member.keyOffset] == UInt8(ascii: "\""),
                            "key \(member.key) at offset \(member.keyOffset), not at a quote")
                try checkOffsets(member.value, bytes)
            }
        }
        try require(expected.contains(first), "a \(node.typeName) at offset \(node.offset) starts with byte \(first)")
    }

    /// The tree as compact JSON: members in source order, numbers in Swift's shortest round-trip form.
    static func canonical(_ node: JSONNode) -> String {
        switch node.value {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return "\(value)"
        case .string(let text): return quoted(text)
        case .array(let elements): return "[" + elements.map(canonical).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { quoted($0.key) + ":" + canonical($0.value) }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20: result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
    #endif
}

extension SourcePosition {
    /// The position just after the last character of a text.
    static func end(of bytes: [UInt8]) -> SourcePosition {
        var line = 1, column = 1
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourcePosition(line: line, column: column)
    }
}

#if FUZZING
/// libFuzzer's per-input callback.
/// - Parameters:
///   - start: The input's bytes.
///   - count: Their number.
/// - Returns: 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenarioInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzOneInput(start, count, check: ScenarioCheck.check)
}

/// The process's entry point in a fuzz build: libFuzzer's driver.
/// - Parameters:
///   - argc: The argument count.
///   - argv: The arguments.
/// - Returns: The exit status.
@_cdecl("FuzzScenario_main")
public func fuzzScenarioMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzScenarioInput)
}
#else
/// Replays files through the checks: `swift run FuzzScenario Tests/Fuzz/Corpus/scenario`.
@main enum FuzzScenarioReplay {
    static func main() {
        exit(replayCorpus(name: "FuzzScenario", paths: CommandLine.arguments.dropFirst(), check: ScenarioCheck.check))
    }
}
#endif
