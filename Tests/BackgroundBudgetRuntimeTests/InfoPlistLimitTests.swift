import Foundation
import Testing
import TestSupport
@testable import BackgroundBudget
@testable import BackgroundBudgetRuntime
@testable import BackgroundBudgetCore
@testable import BackgroundBudgetScenario
@testable import BudgetClock
@testable import JobBudgets
@testable import SavedState

/// Info.plists built to hurt the parser: nested thousands deep (Foundation's recursive parsers
/// overflow the stack on 10,000 levels), millions of references, files of many megabytes. Each is
/// refused by our own checks, with a typed error saying what and where, before Foundation sees it.
@Suite struct InfoPlistLimitTests {
    /// Lines 1 to 7 of the XML plists below; the value of `Deep` starts on line 8.
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        <key>CFBundleIdentifier</key>
        <string>com.example.deep</string>
        <key>Deep</key>
        """

    /// An XML Info.plist whose `Deep` value holds `body`.
    static func xml(_ body: String) -> Data {
        Data((header + "\n" + body + "\n</dict>\n</plist>\n").utf8)
    }

    /// An XML Info.plist whose deepest value is `depth` levels down: the root dictionary is level 1,
    /// then `depth - 1` arrays, one per line from line 8.
    static func deepXML(depth: Int) -> Data {
        xml(Array(repeating: "<array>", count: depth - 1).joined(separator: "\n") + String(repeating: "</array>", count: depth - 1))
    }

    /// The same as a binary plist: object 3 is the root, objects 4 on the arrays, the innermost first.
    static func deepBinary(depth: Int) -> Data {
        var plist = BinaryPlistBuilder()
        let idKey = plist.add(.string("CFBundleIdentifier")), id = plist.add(.string("com.example.deep"))
        let deepKey = plist.add(.string("Deep")), root = plist.add(.dictionary([]))
        var next = plist.add(.array([]))
        for _ in 2..<depth { next = plist.add(.array([next])) }
        plist.set(root, .dictionary([(idKey, id), (deepKey, next)]))
        return Data(plist.bytes(top: root))
    }

    /// A binary Info.plist whose `Many` value is `value`, which may refer to objects from 4 on.
    static func binary(_ build: (inout BinaryPlistBuilder) -> BinaryPlistBuilder.Object) -> Data {
        var plist = BinaryPlistBuilder()
        let idKey = plist.add(.string("CFBundleIdentifier")), id = plist.add(.string("com.example.many"))
        let manyKey = plist.add(.string("Many")), root = plist.add(.dictionary([]))
        let many = plist.add(.falseValue)
        plist.set(many, build(&plist))
        plist.set(root, .dictionary([(idKey, id), (manyKey, many)]))
        return Data(plist.bytes(top: root))
    }

    /// The error some bytes give, or `nil` when they load.
    static func error(_ data: Data, file: String? = nil) -> InfoPlistError? {
        do {
            _ = try AppManifest(plistData: data, file: file)
            return nil
        } catch {
            return error
        }
    }

    /// Text as UTF-16 code units, without a byte-order mark.
    static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// Runs `body` on a thread with a 256 KiB stack, half the smallest a secondary thread gets on Apple platforms.
    static func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = LockedValue<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        done.wait()
        return result.withLock { $0! }
    }

    // MARK: Nesting

    static let limit = InfoPlistLimits.maximumDepth

    @Test(arguments: [limit + 1, 600, 10_000])
    func xmlNestedPastTheLimitIsRefusedWhereItPassesIt(depth: Int) throws {
        let error = try #require(Self.error(Self.deepXML(depth: depth), file: "Deep.plist"))
        // The 128th array (level 129) is on line 7 + 128; its "<" follows 127 lines of "\n<array>".
        #expect(error.problem == .nestedTooDeep(limit: 128, location: "line 135, byte 1,267"))
        #expect(Self.header.utf8.count + 1 + 8 * 127 == 1_267)
        #expect(error.key == "Deep")
        #expect(error.description == "Deep.plist: Deep: values nest more than 128 deep (at line 135, byte 1,267); "
            + "an Info.plist nests a few levels")
    }

    @Test(arguments: [limit + 1, 600, 10_000])
    func binaryNestedPastTheLimitIsRefusedAtTheObjectThatPassesIt(depth: Int) throws {
        let error = try #require(Self.error(Self.deepBinary(depth: depth)))
        guard case .nestedTooDeep(let limit, let location) = error.problem else {
            Issue.record("\(error)")
            return
        }
        #expect(limit == 128)
        // The outermost array, object depth + 2, is level 2; level 129 is 127 objects further in.
        #expect(location.hasPrefix("object \(depth + 2 - 127), byte "), "\(location)")
        // Objects 0 to 3 and the empty innermost array take bytes 8 to 62; each array after is 3 bytes.
        #expect(depth != 10_000 || location == "object 9875, byte 29,673")
        #expect(error.key == "Deep")
    }

    @Test func nestingExactlyAtTheLimitLoadsEvenOnASmallStack() {
        // Half the smallest stack a secondary thread gets; Foundation needs about 0.9 KiB per level.
        let loaded = Self.onSmallStack {
            [Self.deepXML(depth: Self.limit), Self.deepBinary(depth: Self.limit)].map { try? AppManifest(plistData: $0).id.rawValue }
        }
        #expect(loaded == ["com.example.deep", "com.example.deep"])
    }

    @Test func markupInCommentsCDATAAndDeclarationsDoesNotNest() {
        // 600 levels of arrays, but only in text the parser skips, and 600 empty arrays side by side.
        let body = "<array>\n" + String(repeating: "<!-- <array> -->", count: 600) + "<?pi <array?>"
            + String(repeating: "<array/><dict/><true/>", count: 600) + "<string><![CDATA[" + String(repeating: "<array>", count: 600)
            + "]]></string>\n</array>"
        #expect(Self.error(Self.xml(body)) == nil)
    }

    /// Divider comments, common in hand-kept plists, load: a comment ends at the first "-->", as it
    /// does for Foundation, whatever dashes it holds (found by review: they were refused).
    @Test(arguments: ["<!-- ---------- Background work ---------- -->", "<!--- note --->", "<!-- a -- <key>X</key> -->"])
    func dividerCommentsLoadAsFoundationReadsThem(comment: String) throws {
        let data = Data((Self.plain + comment + "<key>UIBackgroundModes</key><array><string>fetch</string></array></dict></plist>").utf8)
        #expect(throws: Never.self) { try PropertyListSerialization.propertyList(from: data, options: [], format: nil) }
        let manifest = try AppManifest(plistData: data)
        #expect(manifest.backgroundModes == [.fetch])
    }

    @Test func markupThatParsersCouldReadTwoWaysIsRefused() throws {
        // A quoted ">" or "<", a "<" inside a tag, an unfinished comment, an internal DTD subset:
        // parsers disagree on where these end, so the nesting could hide in them.
        let cases = [
            (#"<array a="x>y</z>"></array>"#, #"a ">" or "<" inside quotes in a tag at line 8, byte 251"#),
            ("<array <array>></array>", #"a "<" inside a tag at line 8, byte 251"#),
            ("<!--> <array> --> <true/>", #"a malformed comment ("<!-->" and "<!--->" are read differently by different parsers) at line 8, byte 251"#),
        ]
        for (body, detail) in cases {
            let error = try #require(Self.error(Self.xml(body)), "\(body)")
            #expect(error.problem == .malformed("not a valid XML property list: " + detail), "\(body)")
        }
        let subset = Data(#"<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "b">]><plist><dict/></plist>"#.utf8)
        #expect(Self.error(subset)?.problem
            == .malformed(#"not a valid XML property list: a "[" or "<" inside a declaration at line 1, byte 21"#))
        // The same trick 10,000 times: refused at the first, never parsed.
        let hidden = Self.xml(String(repeating: #"<array a="</x>">"#, count: 10_000))
        #expect(Self.error(hidden)?.problem == .malformed(#"not a valid XML property list: a ">" or "<" inside quotes in a tag at line 8, byte 251"#))
    }

    @Test func utf16NestingIsCountedLikeUTF8AndOtherEncodingsAreRefused() throws {
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian] {
            let bom: [UInt8] = encoding == .utf16LittleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
            // "UTF-16" is a character longer than "UTF-8": the 128th array starts one character later.
            let text = String(decoding: Self.deepXML(depth: 600), as: UTF8.self).replacingOccurrences(of: "UTF-8", with: "UTF-16")
            let data = Data(bom + Self.utf16(text, bigEndian: encoding == .utf16BigEndian))
            let error = try #require(Self.error(data))
            #expect(error.problem == .nestedTooDeep(limit: 128, location: "line 135, byte \(InfoPlistLimits.grouped(2 + 2 * 1_268))"))
            let sample = try String(contentsOf: SampleFiles.infoPlists.appendingPathComponent("AudioPlayer.plist"), encoding: .utf8)
                .replacingOccurrences(of: "UTF-8", with: "UTF-16")
            #expect(try AppManifest(plistData: Data(bom + Self.utf16(sample, bigEndian: encoding == .utf16BigEndian)))
                == AppManifest(contentsOfInfoPlist: SampleFiles.infoPlists.appendingPathComponent("AudioPlayer.plist")))
        }
        let utf7 = Data((Self.header.replacingOccurrences(of: "UTF-8", with: "UTF-7") + "<true/></dict></plist>").utf8)
        #expect(Self.error(utf7)?.problem == .malformed(#"not a valid XML property list: the encoding "UTF-7" is not read; "#
            + "an Info.plist is UTF-8, or UTF-16 with a byte-order mark"))
        // UTF-16 without a byte-order mark: its NUL bytes could hide markup from a scan of the bytes.
        let bare = Data(Self.utf16(String(decoding: Self.deepXML(depth: 600), as: UTF8.self), bigEndian: false))
        #expect(Self.error(bare)?.problem == .malformed("not a valid XML property list: a NUL byte at line 1, byte 1; "
            + "XML without a byte-order mark must be UTF-8"))
        #expect(Self.error(Data([0xFF, 0xFE, 0, 0]) + Data(Self.utf16(Self.header, bigEndian: false)))?.problem
            == .malformed("not a valid XML property list: a UTF-32 byte-order mark; an Info.plist is UTF-8, or UTF-16 with a byte-order mark"))
    }

    /// An XML plist's opening up to its identifier, for values to follow.
    static let plain = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>"#
        + "<key>CFBundleIdentifier</key><string>com.example.a</string>"

    /// Found by fuzzing: Foundation traps (SIGILL) on invalid UTF-8 inside an `<integer>` instead of
    /// throwing, as the root value and as a manifest key's value. Invalid sequences are refused first.
    @Test func invalidUTF8AndUnpairedSurrogatesAreRefusedBeforeFoundationSeesThem() throws {
        let integer = Array("<integer>".utf8) + [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + Array("</integer>".utf8)
        #expect(Self.error(Data(integer))?.problem
            == .malformed("not a valid XML property list: bytes that are not valid UTF-8 at line 1, byte 9; "
                + "an Info.plist is UTF-8, or UTF-16 with a byte-order mark"))
        let keyed = Array((Self.plain + "<key>UIApplicationExitsOnSuspend</key><integer>").utf8) + [0xC3] + Array("</integer></dict></plist>".utf8)
        guard case .malformed(let message)? = Self.error(Data(keyed))?.problem else {
            Issue.record("invalid UTF-8 under a manifest key was not refused as malformed")
            return
        }
        #expect(message.contains("not valid UTF-8"))
        // A lone high surrogate after a UTF-16 byte-order mark.
        let lone = Data([0xFF, 0xFE] + Self.utf16("<plist>", bigEndian: false) + [0x00, 0xD8] + Self.utf16("</plist>", bigEndian: false))
        #expect(Self.error(lone)?.problem
            == .malformed("not a valid XML property list: bytes that are not valid UTF-16 at line 1, byte 16; "
                + "an Info.plist is UTF-8, or UTF-16 with a byte-order mark"))
        // Valid multi-byte UTF-8 still loads.
        let accented = Data((Self.plain + "<key>CFBundleDisplayName</key><string>Café ☕︎</string></dict></plist>").utf8)
        #expect(try AppManifest(plistData: accented).displayName == "Café ☕︎")
    }

    @Test func cyclesInABinaryPlistAreRefused() throws {
        let itself = Self.binary { plist in .array([4]) }
        #expect(Self.error(itself)?.problem
            == .malformed("not a valid binary property list (truncated or corrupt): object 4 at byte 58 contains itself"))
        let loop = Self.binary { plist in
            let other = plist.add(.array([4]))
            return .array([other])
        }
        #expect(Self.error(loop)?.problem
            == .malformed("not a valid binary property list (truncated or corrupt): object 4 at byte 58 contains itself"))
    }

    // MARK: Size and object count

    @Test func tooManyObjectsAreRefusedInBothFormats() throws {
        let limit = InfoPlistLimits.maximumObjects
        // 100,001 distinct objects in the object table.
        let table = Self.binary { plist in .array((0...limit).map { _ in plist.add(.falseValue) }) }
        #expect(Self.error(table)?.problem == .tooManyObjects(limit: limit))
        // 200,000 references to one object: few objects, but each reference is a value to decode.
        let references = Self.binary { plist in .repeated(plist.add(.falseValue), count: 2 * limit) }
        #expect(Self.error(references)?.problem == .tooManyObjects(limit: limit))
        // Forty levels of two references to the next: 2^40 values once unfolded, from 45 objects.
        let doubling = Self.binary { plist in
            var next = plist.add(.falseValue)
            for _ in 0..<40 { next = plist.add(.array([next, next])) }
            return .array([next])
        }
        #expect(Self.error(doubling)?.problem == .tooManyObjects(limit: limit))
        let elements = Self.xml("<array>" + String(repeating: "<true/>", count: limit) + "</array>")
        #expect(Self.error(elements)?.problem == .tooManyObjects(limit: limit))
        // Just under the limit loads: the header's keys and values are 4 objects, the array 1.
        let most = Self.xml("<array>" + String(repeating: "<true/>", count: limit - 5) + "</array>")
        #expect(Self.error(most) == nil)
    }

    @Test func filesPastTheSizeLimitAreRefusedBeforeTheyAreParsed() throws {
        let limit = InfoPlistLimits.maximumBytes
        // 20 MB, as the 5-million-reference plist was: refused on its size alone.
        #expect(Self.error(Data("bplist00".utf8) + Data(count: 20_000_000))?.problem == .tooLarge(bytes: 20_000_008, limit: limit))
        let padded = Self.xml("<string>" + String(repeating: "x", count: limit) + "</string>")
        #expect(Self.error(padded, file: "Big.plist")?.description
            == "Big.plist: the file is \(InfoPlistLimits.grouped(padded.count)) bytes, more than the 4,194,304 an Info.plist may have")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plist-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Big.plist")
        try padded.write(to: url)
        #expect(throws: InfoPlistError(.tooLarge(bytes: padded.count, limit: limit), file: url.path)) {
            try AppManifest(contentsOfInfoPlist: url)
        }
    }

    // MARK: Through scenarios and bgbudget

    @Test func bgbudgetValidateReportsADeepPlistAtItsInfoPlistKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.deepXML(depth: 10_000).write(to: folder.appendingPathComponent("Deep.plist"))
        let file = folder.appendingPathComponent("deep.json").path
        let scenario = #"""
            {"description": "plists",
             "apps": [{"infoPlist": "Deep.plist"}],
             "events": [{"at": 0, "do": "open", "app": "com.example.deep"}]}
            """#
        try Data(scenario.utf8)
            .write(to: URL(fileURLWithPath: file))
        let outcome = ScenarioCommand.run(["validate", file])
        #expect(outcome.status == .failure)
        #expect(outcome.standardError == "\(file):2:25: error: $.apps[0].infoPlist: \(folder.path)/Deep.plist: Deep: "
            + "values nest more than 128 deep (at line 135, byte 1,267); an Info.plist nests a few levels\n")
    }
}
