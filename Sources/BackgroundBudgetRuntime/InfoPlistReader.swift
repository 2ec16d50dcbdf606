import BackgroundBudgetCore
import Foundation

/// Reads the Info.plist keys of an ``AppManifest`` through `PropertyListDecoder`, one level at a time.
///
/// Only the keys the manifest needs are decoded, and never deeper than a string inside an array: a
/// generic decoder that walks the whole tree costs stack for every level. (Cycles and deep nesting
/// are refused before this reader runs, by `BinaryPlistCheck` and `XMLPlistCheck`.) When a value has the wrong type, ``kind(of:)`` tries each property
/// list type in turn, without descending, to name what was found.
///
/// Problems with the manifest throw ``InfoPlistError``; a value the decoder cannot read at all throws
/// ``Unreadable``, which ``AppManifest/init(plistData:file:)`` turns into a malformed-file error that
/// names the format.
struct InfoPlistReader: Decodable {
    /// The manifest the keys describe.
    let manifest: AppManifest

    /// A value the property-list decoder failed to read, with the key it belongs to.
    struct Unreadable: Error {
        /// The key, as errors print it (`UIBackgroundModes[2]`), or `nil` for the root.
        var key: String?
        /// The decoder's message.
        var detail: String
    }

    /// Any dictionary key.
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let root: KeyedDecodingContainer<Key>
        do {
            root = try decoder.container(keyedBy: Key.self)
        } catch {
            guard let found = Self.kind(of: decoder) else { throw Unreadable(detail: Self.describe(error)) }
            throw InfoPlistError(.rootNotDictionary(found: found))
        }
        guard let identifier = try Self.string(in: root, "CFBundleIdentifier") else {
            throw InfoPlistError(.missingKey, key: "CFBundleIdentifier")
        }
        let id = AppID(rawValue: identifier)
        if let why = id.validationProblem {
            throw InfoPlistError(.invalidBundleIdentifier(identifier, why: why), key: "CFBundleIdentifier")
        }
        // An empty name would print as nothing in log lines; iOS, too, falls back to the bundle name.
        let displayName = try Self.string(in: root, "CFBundleDisplayName").flatMap { $0.isEmpty ? nil : $0 }
        let bundleName = try Self.string(in: root, "CFBundleName").flatMap { $0.isEmpty ? nil : $0 }
        var modes: BackgroundModes = []
        if let values = try Self.strings(in: root, "UIBackgroundModes") {
            do {
                modes = try BackgroundModes(plistValues: values)
            } catch {
                throw InfoPlistError(.unknownBackgroundMode(error), key: "UIBackgroundModes[\(error.index)]")
            }
        }
        let exitsOnSuspend = try Self.bool(in: root, "UIApplicationExitsOnSuspend") ?? false
        let identifiers = try Self.strings(in: root, "BGTaskSchedulerPermittedIdentifiers") ?? []
        var manifest = AppManifest(id: id, displayName: displayName ?? bundleName, exitsOnSuspend: exitsOnSuspend,
                                   backgroundModes: modes, permittedTaskIdentifiers: identifiers)
        manifest.sceneManifest = try Self.sceneManifest(in: root)
        self.manifest = manifest
    }

    /// `UIApplicationSceneManifest`, a dictionary whose `UIApplicationSupportsMultipleScenes` (a
    /// boolean) is read; its other keys (the scene configurations) are ignored. `nil` when absent.
    private static func sceneManifest(in root: KeyedDecodingContainer<Key>) throws -> SceneManifest? {
        let key = "UIApplicationSceneManifest"
        guard let value = try value(in: root, key) else { return nil }
        let keys: KeyedDecodingContainer<Key>
        do {
            keys = try value.container(keyedBy: Key.self)
        } catch {
            throw mismatch(value, key: key, expected: "a dictionary", error: error)
        }
        let multiple = "UIApplicationSupportsMultipleScenes"
        guard let flag = try Self.value(in: keys, multiple) else { return SceneManifest() }
        do {
            return SceneManifest(supportsMultipleScenes: try flag.singleValueContainer().decode(Bool.self))
        } catch {
            throw mismatch(flag, key: "\(key).\(multiple)", expected: "a boolean", error: error)
        }
    }

    /// The decoder of a key's value, or `nil` when the key is absent.
    private static func value(in root: KeyedDecodingContainer<Key>, _ key: String) throws -> (any Decoder)? {
        guard root.contains(Key(key)) else { return nil }
        do {
            return try root.superDecoder(forKey: Key(key))
        } catch {
            throw Unreadable(key: key, detail: describe(error))
        }
    }

    /// A string value, or `nil` when the key is absent.
    private static func string(in root: KeyedDecodingContainer<Key>, _ key: String) throws -> String? {
        guard let value = try value(in: root, key) else { return nil }
        return try string(value, key: key)
    }

    private static func string(_ value: any Decoder, key: String) throws -> String {
        do {
            return try value.singleValueContainer().decode(String.self)
        } catch {
            throw mismatch(value, key: key, expected: "a string", error: error)
        }
    }

    /// A boolean value (`<true/>` or `<false/>`), or `nil` when the key is absent.
    private static func bool(in root: KeyedDecodingContainer<Key>, _ key: String) throws -> Bool? {
        guard let value = try value(in: root, key) else { return nil }
        do {
            return try value.singleValueContainer().decode(Bool.self)
        } catch {
            throw mismatch(value, key: key, expected: "a boolean", error: error)
        }
    }

    /// An array of strings, or `nil` when the key is absent.
    private static func strings(in root: KeyedDecodingContainer<Key>, _ key: String) throws -> [String]? {
        guard let value = try value(in: root, key) else { return nil }
        var elements: any UnkeyedDecodingContainer
        do {
            elements = try value.unkeyedContainer()
        } catch {
            throw mismatch(value, key: key, expected: "an array of strings", error: error)
        }
        var strings: [String] = []
        while !elements.isAtEnd {
            let elementKey = "\(key)[\(elements.currentIndex)]"
            let element: any Decoder
            do {
                element = try elements.superDecoder()
            } catch {
                throw Unreadable(key: elementKey, detail: describe(error))
            }
            strings.append(try string(element, key: elementKey))
        }
        return strings
    }

    /// The error for a value that did not decode as `expected`: the wrong type when the value is of
    /// another type, or unreadable when it is of none.
    private static func mismatch(_ value: any Decoder, key: String, expected: String, error: any Error) -> any Error {
        guard let found = kind(of: value) else { return Unreadable(key: key, detail: describe(error)) }
        return InfoPlistError(.wrongType(expected: expected, found: found), key: key)
    }

    /// What a value is, with its article (`"a string"`, `"an array"`), or `nil` when it is none of
    /// the property list types. Looks only at the value itself, never inside it.
    static func kind(of value: any Decoder) -> String? {
        if (try? value.container(keyedBy: Key.self)) != nil { return "a dictionary" }
        if (try? value.unkeyedContainer()) != nil { return "an array" }
        guard let single = try? value.singleValueContainer() else { return nil }
        // A binary null, which no writer emits, or the string "$null", which the decoder takes for one.
        if single.decodeNil() { return #"null (PropertyListDecoder also reads the string "$null" as null)"# }
        if (try? single.decode(Bool.self)) != nil { return "a boolean" }
        if (try? single.decode(String.self)) != nil { return "a string" }
        if (try? single.decode(Int64.self)) != nil || (try? single.decode(Double.self)) != nil { return "a number" }
        if (try? single.decode(Date.self)) != nil { return "a date" }
        if (try? single.decode(Data.self)) != nil { return "data" }
        return nil
    }

    /// The most specific message in a decoding error: the parser's own `NSDebugDescription` when
    /// there is one ("Encountered unknown tag strin on line 5").
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context),
             DecodingError.typeMismatch(_, let context),
             DecodingError.valueNotFound(_, let context),
             DecodingError.keyNotFound(_, let context):
            if let underlying = context.underlyingError { return describe(underlying) }
            return context.debugDescription
        case let error as CocoaError:
            return (error.userInfo[NSDebugDescriptionErrorKey] as? String) ?? error.localizedDescription
        default:
            return String(describing: error)
        }
    }
}
