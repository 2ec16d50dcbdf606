import Testing
@testable import BackgroundBudget
@testable import BackgroundBudgetCore
@testable import BackgroundBudgetExplorer
@testable import BackgroundBudgetScenario

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        try JSONParser.parse(Array(text.utf8))
    }

    /// The problem and where it is, as `line:column message`.
    private func failure(_ text: String) -> String {
        do {
            _ = try JSONParser.parse(Array(text.utf8))
            return "parsed"
        } catch {
            return "\(SourcePosition(offset: error.offset, in: Array(text.utf8))) \(error.message)"
        }
    }

    @Test func readsEveryKindOfValueWithItsOffset() throws {
        let node = try parse(#" {"a": [1, -2.5e1, true, false, null, "x\n\u00e9\ud83d\ude00"], "b": {}}"#)
        guard case .object(let members) = node.value else { Issue.record("not an object"); return }
        #expect(node.offset == 1)
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members[0].keyOffset == 2)
        guard case .array(let elements) = members[0].value.value else { Issue.record("not an array"); return }
        #expect(elements.map(\.value) == [.number(1), .number(-25), .bool(true), .bool(false), .null, .string("x\né😀")])
        #expect(elements.map(\.offset) == [8, 11, 19, 25, 32, 38])
        #expect(members[1].value.value == .object([]))
    }

    @Test func reportsTheLineAndColumnOfSyntaxErrors() {
        #expect(failure("{\n  \"a\": 1\n  \"b\": 2\n}") == "3:3 unexpected '\"'; expected ',' or '}' after the value of \"a\"")
        #expect(failure("{\"a\": [1, 2,]}") == "1:13 a trailing comma before ']' is not allowed in JSON")
        #expect(failure("{\"a\": \"open") == "1:12 unexpected end of text inside the string that starts at 1:7")
        #expect(failure("") == "1:1 the text is empty; expected a JSON value")
        #expect(failure("{} x") == "1:4 unexpected 'x' after the end of the document")
        #expect(failure("{\"a\": tru}") == "1:10 unexpected '}'; expected true")
        #expect(failure("{\"é\": é}") == "1:7 unexpected 'é'; expected a value (object, array, string, number, true, false or null)")
    }

    @Test func refusesWhatRFC8259LeavesOpen() {
        #expect(failure("{\"at\": 1, \"at\": 2}") == "1:11 duplicate key \"at\" (first at 1:2)")
        #expect(failure("[NaN]") == "1:2 unexpected 'N'; JSON has no NaN or Infinity, only finite numbers")
        #expect(failure("[1e309]") == "1:2 the number 1e309 is too large")
        #expect(failure("[-Infinity]") == "1:3 expected a digit in the number")
        #expect(failure("[012]") == "1:3 a number must not start with a leading zero")
        #expect(failure("[1.]") == "1:4 expected a digit after the decimal point")
        #expect(failure(#"["\ud800"]"#) == "1:3 \\u escape of a lone high surrogate; it must be followed by a low surrogate")
        #expect(failure(#"["\udc00"]"#) == "1:3 \\u escape of a lone low surrogate")
        #expect(failure(#"["\x"]"#) == "1:3 unknown escape '\\x'; JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        #expect(failure("[\"a\tb\"]") == "1:4 control character byte 0x9 inside a string; write it as an escape such as \\n")
    }

    @Test func refusesInvalidUTF8AtTheOffendingByte() {
        let bytes: [UInt8] = Array("{\"a\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bytes) }
        do { _ = try JSONParser.parse(bytes) } catch {
            #expect(error.offset == 7)
            #expect(error.message.hasPrefix("invalid UTF-8 byte 0xc3"))
        }
    }

    @Test func refusesOverlongFormsSurrogatesAndTruncatedSequences() {
        let bad: [[UInt8]] = [[0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF]]
        for sequence in bad {
            #expect(JSONParser.firstInvalidUTF8Offset(in: Array("[\"".utf8) + sequence + Array("\"]".utf8)) == 2, "\(sequence)")
        }
        #expect(JSONParser.firstInvalidUTF8Offset(in: Array("[\"é€😀\u{10FFFF}\"]".utf8)) == nil)
    }

    @Test func limitsNestingInsteadOfExhaustingTheStack() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(failure(deep) == "1:65 arrays and objects are nested more than 64 deep")
        let allowed = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(failure(allowed) == "parsed")
    }

    @Test func keepsThePathOfTheValueBeingRead() {
        do {
            _ = try parse(#"{"events": [{"at": 1}, {"at": 2 "do": 1}]}"#)
            Issue.record("parsed")
        } catch {
            #expect(error.path.description == "$.events[1]")
        }
    }

    @Test func skipsAByteOrderMarkAndCountsColumnsInCharacters() throws {
        _ = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8))
        #expect(SourcePosition(offset: 9, in: Array("\"éé\"\n\"é\" x".utf8)) == SourcePosition(line: 2, column: 3))
    }

    @Test func printsPathsAsJSONPath() {
        let path = JSONPath.root.appending(key: "apps").appending(index: 0).appending(key: "behaviour")
            .appending(key: "application:didFinishLaunchingWithOptions").appending(key: "it's")
        #expect(path.description == "$.apps[0].behaviour['application:didFinishLaunchingWithOptions']['it\\'s']")
    }
}
