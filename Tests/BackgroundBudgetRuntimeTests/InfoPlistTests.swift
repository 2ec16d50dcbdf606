import Foundation
import Testing
import TestSupport
import BackgroundBudget
import BackgroundBudgetCore

/// Every sample in Examples/InfoPlists loads with every field, and every problem is reported with its
/// key, in XML and in binary alike.
@Suite struct InfoPlistTests {
    static let directory = SampleFiles.infoPlists

    static let formats: [PropertyListSerialization.PropertyListFormat] = [.xml, .binary]

    /// A property list's bytes in a format.
    static func plist(_ root: Any, _ format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0)
    }

    /// The error for a root dictionary, as `description`; the same in XML and binary.
    static func failure(_ root: Any) throws -> String {
        var messages: [String] = []
        for format in formats {
            let data = try plist(root, format)
            do {
                let manifest = try AppManifest(plistData: data)
                messages.append("decoded \(manifest.id)")
            } catch {
                messages.append(error.description)
            }
        }
        #expect(messages[0] == messages[1], "XML and binary disagree")
        return messages[0]
    }

    static func load(_ name: String) throws -> AppManifest {
        try AppManifest(contentsOfInfoPlist: directory.appendingPathComponent(name))
    }

    @Test func everySampleLoadsWithEveryField() throws {
        // Four XML files as Xcode writes them and one binary file as it ships inside an app.
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".plist") }.sorted()
        #expect(files == ["AudioPlayer.plist", "LegacyApp.plist", "LocationTracker.plist", "NewsReader.plist", "VoiceCall.plist"])
        // It declares UIApplicationSceneManifest (one scene): a scene-based app.
        var player = AppManifest(id: "com.example.audioplayer", displayName: "Audio Player", backgroundModes: [.audio])
        player.sceneManifest = SceneManifest(supportsMultipleScenes: false)
        #expect(try Self.load("AudioPlayer.plist") == player)
        #expect(try Self.load("LocationTracker.plist") == AppManifest(
            id: "com.example.trails", displayName: "Trails", backgroundModes: [.location]))
        #expect(try Self.load("NewsReader.plist") == AppManifest(
            id: "com.example.news", displayName: "Morning News", backgroundModes: [.fetch, .remoteNotification, .processing],
            permittedTaskIdentifiers: ["com.example.news.refresh", "com.example.news.prune-cache"]))
        #expect(try Self.load("LegacyApp.plist") == AppManifest(
            id: "com.example.flashlight", displayName: "Flashlight", exitsOnSuspend: true))
        #expect(try Self.load("VoiceCall.plist") == AppManifest(
            id: "com.example.voicecall", displayName: "Voice Call", backgroundModes: [.audio, .voip, .remoteNotification]))
    }

    @Test func theBinarySampleIsBinaryAndEveryXMLSampleReadsTheSameInBinary() throws {
        for name in ["AudioPlayer.plist", "LegacyApp.plist", "LocationTracker.plist", "NewsReader.plist", "VoiceCall.plist"] {
            let bytes = try Data(contentsOf: Self.directory.appendingPathComponent(name))
            var format = PropertyListSerialization.PropertyListFormat.openStep
            let root = try PropertyListSerialization.propertyList(from: bytes, options: [], format: &format)
            #expect(format == (name == "VoiceCall.plist" ? .binary : .xml), "\(name)")
            for other in Self.formats {
                #expect(try AppManifest(plistData: Self.plist(root, other)) == Self.load(name), "\(name) as \(other)")
            }
        }
    }

    @Test func theDisplayNameFallsBackToTheBundleNameThenTheIdentifier() throws {
        let id = "com.example.names"
        #expect(try AppManifest(plistData: Self.plist(["CFBundleIdentifier": id, "CFBundleName": "Names"], .xml)).displayName == "Names")
        #expect(try AppManifest(plistData: Self.plist(["CFBundleIdentifier": id, "CFBundleDisplayName": "",
                                                       "CFBundleName": "Names"], .xml)).displayName == "Names")
        #expect(try AppManifest(plistData: Self.plist(["CFBundleIdentifier": id], .binary))
            == AppManifest(id: "com.example.names", displayName: "com.example.names"))
    }

    @Test func bytesThatAreNotAPropertyListAreMalformed() throws {
        #expect(throws: InfoPlistError(.malformed("the file is empty"))) { try AppManifest(plistData: Data()) }
        let json = Data(#"{"CFBundleIdentifier": "com.example.json"}"#.utf8)
        #expect(throws: InfoPlistError(.malformed(#"not an XML or binary property list (XML starts with "<", binary with "bplist")"#))) {
            try AppManifest(plistData: json)
        }
        let broken = Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>a</key>\n</dict>\n</plist>\n".utf8)
        #expect(try Self.message(broken).hasPrefix("not a valid XML property list: Value missing for key inside <dict>"))
        // A binary plist cut short, as a failed copy leaves it.
        let binary = try Data(contentsOf: Self.directory.appendingPathComponent("VoiceCall.plist"))
        for length in [6, 8, 40, binary.count / 2, binary.count - 1] {
            #expect(try Self.message(binary.prefix(length)).hasPrefix("not a valid binary property list (truncated or corrupt): "), "\(length) bytes")
        }
    }

    /// A binary plist of one object, the root, as a damaged file might hold it.
    static func binaryPlist(root object: [UInt8]) -> Data {
        var bytes = Array("bplist00".utf8) + object
        let table = bytes.count
        bytes.append(8)                                             // the offset table: the root at byte 8
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]                           // 1-byte offsets and references
        bytes += [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] // one object; the root is object 0
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return Data(bytes)
    }

    @Test func damagedBinaryCountsAreRefusedBeforeFoundationReadsThem() throws {
        // A dictionary claiming 2^62 entries: Foundation's scanner traps converting its byte count to Int.
        #expect(try Self.message(Self.binaryPlist(root: [0xDF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]))
            == "not a valid binary property list (truncated or corrupt): object 0 at byte 8: a length of 4611686018427387904 runs past the object data")
        // A UTF-16 string whose characters fit only if each were one byte.
        #expect(try Self.message(Self.binaryPlist(root: [0x63, 0x00, 0x41, 0x00]))
            == "not a valid binary property list (truncated or corrupt): object 0 at byte 8: 6 bytes run past the object data")
        #expect(try Self.message(Self.binaryPlist(root: [0x7A]))
            == "not a valid binary property list (truncated or corrupt): object 0 at byte 8: unknown marker 0x7A")
        // The same layout with an empty dictionary is well formed, so the checks above are the objects'.
        #expect(try Self.message(Self.binaryPlist(root: [0xD0])) == "CFBundleIdentifier: missing required key")
    }

    @Test func theRootMustBeADictionary() throws {
        #expect(try Self.failure(["com.example.a"]) == "expected a dictionary at the root, found an array")
        #expect(try Self.failure("com.example.a") == "expected a dictionary at the root, found a string")
    }

    @Test func aMissingIdentifierIsReportedByName() throws {
        #expect(try Self.failure(["CFBundleName": "Nameless", "UIBackgroundModes": ["audio"]]) == "CFBundleIdentifier: missing required key")
    }

    @Test func aWrongTypeNamesTheKeyTheExpectedTypeAndWhatWasFound() throws {
        let id = "com.example.types"
        #expect(try Self.failure(["CFBundleIdentifier": id, "UIBackgroundModes": "audio"])
            == "UIBackgroundModes: expected an array of strings, found a string")
        #expect(try Self.failure(["CFBundleIdentifier": 42]) == "CFBundleIdentifier: expected a string, found a number")
        #expect(try Self.failure(["CFBundleIdentifier": id, "UIApplicationExitsOnSuspend": "YES"])
            == "UIApplicationExitsOnSuspend: expected a boolean, found a string")
        #expect(try Self.failure(["CFBundleIdentifier": id, "UIApplicationExitsOnSuspend": 1])
            == "UIApplicationExitsOnSuspend: expected a boolean, found a number")
        #expect(try Self.failure(["CFBundleIdentifier": id, "BGTaskSchedulerPermittedIdentifiers": ["a": "b"]])
            == "BGTaskSchedulerPermittedIdentifiers: expected an array of strings, found a dictionary")
        #expect(try Self.failure(["CFBundleIdentifier": id, "CFBundleDisplayName": ["News"]])
            == "CFBundleDisplayName: expected a string, found an array")
        #expect(try Self.failure(["CFBundleIdentifier": id, "CFBundleName": true]) == "CFBundleName: expected a string, found a boolean")
    }

    @Test func theStringDollarNullIsReportedAsTheNullFoundationReadsItAs() throws {
        #expect(try Self.failure(["CFBundleIdentifier": "com.example.null", "CFBundleName": "$null"])
            == #"CFBundleName: expected a string, found null (PropertyListDecoder also reads the string "$null" as null)"#)
    }

    @Test func anElementOfTheWrongTypeIsReportedAtItsIndex() throws {
        let id = "com.example.elements"
        let found: [(Any, String)] = [(7, "a number"), (2.5, "a number"), (true, "a boolean"), (Date(timeIntervalSince1970: 0), "a date"),
                                      (Data([1, 2]), "data"), (["audio"], "an array"), (["mode": "audio"], "a dictionary")]
        for (value, name) in found {
            #expect(try Self.failure(["CFBundleIdentifier": id, "UIBackgroundModes": ["audio", "fetch", value]])
                == "UIBackgroundModes[2]: expected a string, found \(name)")
        }
        #expect(try Self.failure(["CFBundleIdentifier": id, "BGTaskSchedulerPermittedIdentifiers": [1]])
            == "BGTaskSchedulerPermittedIdentifiers[0]: expected a string, found a number")
    }

    @Test func anUnknownModeNamesItsIndexValueAndTheAcceptedModes() throws {
        let message = try Self.failure(["CFBundleIdentifier": "com.example.modes", "UIBackgroundModes": ["audio", "remote-notifications"]])
        #expect(message.hasPrefix(#"UIBackgroundModes[1]: unknown mode "remote-notifications"; accepted: "audio", "location", "voip""#))
        #expect(message.hasSuffix(#""newsstand-content" (did you mean "remote-notification"?)"#))
        let gps = try Self.plist(["CFBundleIdentifier": "com.example.modes", "UIBackgroundModes": ["gps"]], .xml)
        do {
            _ = try AppManifest(plistData: gps)
            Issue.record("decoded")
        } catch {
            #expect(error.problem == .unknownBackgroundMode(UnknownBackgroundModeError(value: "gps", index: 0)))
            #expect(error.key == "UIBackgroundModes[0]")
        }
    }

    @Test func anInvalidBundleIdentifierSaysWhy() throws {
        #expect(try Self.failure(["CFBundleIdentifier": "my app"])
            == #"CFBundleIdentifier: "my app" is not a valid bundle identifier: it contains " "; only letters, digits, '-' and '.' are allowed"#)
        #expect(try Self.failure(["CFBundleIdentifier": ""]) == #"CFBundleIdentifier: "" is not a valid bundle identifier: it is empty"#)
        // An Info.plist straight from an Xcode project, before the build expands it.
        #expect(try Self.failure(["CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)"])
            .hasSuffix("it looks like a build setting that Xcode expands when it builds the app: use the built app's Info.plist"))
    }

    @Test func fileErrorsNameThePath() throws {
        let missing = Self.directory.appendingPathComponent("Missing.plist")
        #expect(throws: InfoPlistError(.unreadable("no such file"), file: missing.path)) { try AppManifest(contentsOfInfoPlist: missing) }
        #expect(throws: InfoPlistError(.unreadable("it is a directory"), file: Self.directory.path)) {
            try AppManifest(contentsOfInfoPlist: Self.directory)
        }
        #expect(throws: InfoPlistError(.unreadable("it is not a regular file"), file: "/dev/zero")) {
            try AppManifest(contentsOfInfoPlist: URL(fileURLWithPath: "/dev/zero"))
        }
        let url = try #require(URL(string: "https://example.com/Info.plist"))
        #expect(throws: InfoPlistError(.unreadable("not a file URL"), file: "https://example.com/Info.plist")) {
            try AppManifest(contentsOfInfoPlist: url)
        }
        let error = InfoPlistError(.wrongType(expected: "an array of strings", found: "a string"), key: "UIBackgroundModes", file: "App/Info.plist")
        #expect(error.description == "App/Info.plist: UIBackgroundModes: expected an array of strings, found a string")
        #expect(InfoPlistError(.unreadable("no such file"), file: "Info.plist").description == "Info.plist: cannot read the file: no such file")
    }

    /// The error some bytes give, as `key: message`.
    static func message(_ data: Data) throws -> String {
        do {
            let manifest = try AppManifest(plistData: data)
            return "decoded \(manifest.id)"
        } catch {
            return error.description
        }
    }
}
