import BackgroundBudgetCore
import Foundation

extension AppManifest {
    /// Reads a manifest from the bytes of an app's Info.plist, XML or binary.
    ///
    /// | Key | Type | Becomes |
    /// |---|---|---|
    /// | `CFBundleIdentifier` | string, required | ``id``, checked as ``BackgroundSystem/install(_:delegate:)-lo7l`` checks it |
    /// | `CFBundleDisplayName` | string | ``displayName`` |
    /// | `CFBundleName` | string | ``displayName`` when `CFBundleDisplayName` is absent or empty |
    /// | `UIBackgroundModes` | array of strings | ``backgroundModes`` |
    /// | `UIApplicationExitsOnSuspend` | boolean | ``exitsOnSuspend`` |
    /// | `BGTaskSchedulerPermittedIdentifiers` | array of strings | ``permittedTaskIdentifiers`` |
    /// | `UIApplicationSceneManifest` | dictionary | ``sceneManifest`` (its `UIApplicationSupportsMultipleScenes`, a boolean, becomes ``SceneManifest/supportsMultipleScenes``; the scene configurations are ignored) |
    ///
    /// Every other key is ignored; a real Info.plist has dozens.
    ///
    /// ```swift
    /// let manifest = try AppManifest(plistData: Data(contentsOf: url))
    /// manifest.backgroundModes   // [audio]
    /// ```
    /// - Parameters:
    ///   - plistData: The file's bytes.
    ///   - file: The file's path, which errors print first; `nil` when the bytes come from elsewhere.
    /// Before Foundation parses the bytes, our own checks hold them to ``InfoPlistLimits``: at most
    /// 4 MiB, values nested at most 128 deep, at most 100,000 objects; and a binary plist's structure
    /// is checked object by object.
    /// - Throws: ``InfoPlistError`` for bytes that are not an XML or binary property list, a file past
    ///   a limit (``InfoPlistError/Problem/tooLarge(bytes:limit:)``,
    ///   ``InfoPlistError/Problem/nestedTooDeep(limit:location:)``,
    ///   ``InfoPlistError/Problem/tooManyObjects(limit:)``), a root that is not a dictionary, a missing
    ///   `CFBundleIdentifier`, a value of the wrong type, an unknown background mode or an invalid
    ///   bundle identifier. Never traps or overflows the stack, whatever the bytes.
    public init(plistData: Data, file: String? = nil) throws(InfoPlistError) {
        guard plistData.count <= InfoPlistLimits.maximumBytes else {
            throw InfoPlistError(.tooLarge(bytes: plistData.count, limit: InfoPlistLimits.maximumBytes), file: file)
        }
        let kind: String
        let check: InfoPlistError?
        switch Self.propertyListFormat(of: plistData) {
        case .some("binary"):
            kind = "binary property list (truncated or corrupt)"
            // Foundation's binary scanner traps on some damaged counts and recurses once per level.
            check = BinaryPlistCheck.problem(in: Array(plistData))
        case .some(let name):
            kind = "\(name) property list"
            // Foundation's XML parser recurses once per level: 10,000 levels overflow the stack.
            check = XMLPlistCheck.problem(in: plistData)
        case .none where plistData.isEmpty:
            throw InfoPlistError(.malformed("the file is empty"), file: file)
        case .none:
            throw InfoPlistError(.malformed("not an XML or binary property list (XML starts with \"<\", binary with \"bplist\")"),
                                 file: file)
        }
        if var error = check {
            if case .malformed(let detail) = error.problem { error.problem = .malformed("not a valid \(kind): \(detail)") }
            error.file = file
            throw error
        }
        // Foundation falls back to old-style OpenStep text for bytes it cannot read as XML or binary
        // (a binary plist cut short to its header reads as the string "bplist").
        var detected = PropertyListDecoder.PropertyListFormat.xml
        let openStep = InfoPlistError(.malformed("not a valid \(kind): Foundation reads it only as old-style OpenStep text"),
                                      file: file)
        do {
            let reader = try PropertyListDecoder().decode(InfoPlistReader.self, from: plistData, format: &detected)
            guard detected != .openStep else { throw openStep }
            self = reader.manifest
        } catch let error as InfoPlistError {
            guard detected != .openStep else { throw openStep }
            var located = error
            located.file = file
            throw located
        } catch let error as InfoPlistReader.Unreadable {
            guard detected != .openStep else { throw openStep }
            throw InfoPlistError(.malformed("not a valid \(kind): \(error.detail)"), key: error.key, file: file)
        } catch {
            throw InfoPlistError(.malformed("not a valid \(kind): \(InfoPlistReader.describe(error))"), file: file)
        }
    }

    /// Reads a manifest from an app's Info.plist file, XML or binary.
    ///
    /// ```swift
    /// let player = try AppManifest(contentsOfInfoPlist: URL(fileURLWithPath: "Examples/InfoPlists/AudioPlayer.plist"))
    /// player.id               // com.example.audioplayer
    /// player.backgroundModes  // [audio]
    /// ```
    /// - Parameter url: The file's URL.
    /// - Throws: ``InfoPlistError`` with ``InfoPlistError/Problem/unreadable(_:)`` when the file does not
    ///   exist, is a directory or another kind of file that is not a regular one, or cannot be read;
    ///   with ``InfoPlistError/Problem/tooLarge(bytes:limit:)`` when it is larger than
    ///   ``InfoPlistLimits/maximumBytes`` (read no further than one byte past the limit); and
    ///   otherwise as ``init(plistData:file:)``. Every error names the file's path.
    public init(contentsOfInfoPlist url: URL) throws(InfoPlistError) {
        let path = url.isFileURL ? url.path : url.absoluteString
        var isDirectory: ObjCBool = false
        guard url.isFileURL, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InfoPlistError(.unreadable(url.isFileURL ? "no such file" : "not a file URL"), file: path)
        }
        if isDirectory.boolValue { throw InfoPlistError(.unreadable("it is a directory"), file: path) }
        // A device or a pipe could block or never end.
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular else {
            throw InfoPlistError(.unreadable("it is not a regular file"), file: path)
        }
        let limit = InfoPlistLimits.maximumBytes
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > limit {
            throw InfoPlistError(.tooLarge(bytes: size, limit: limit), file: path)
        }
        let data: Data
        do {
            // At most one byte past the limit, in case the file grew since it was measured.
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw InfoPlistError(.unreadable(error.localizedDescription), file: path)
        }
        try self.init(plistData: data, file: path)
    }

    /// `"binary"` or `"XML"` by the bytes a property list starts with, or `nil` for neither.
    ///
    /// Foundation also reads old-style OpenStep text (`{ key = value; }`), which no Info.plist uses;
    /// refusing it here means a text file of any other kind is reported as what it is, not as a plist
    /// whose root is a string.
    static func propertyListFormat(of data: Data) -> String? {
        if data.starts(with: Array("bplist".utf8)) { return "binary" }
        // UTF-16 XML starts with a byte-order mark; the decoder reads it.
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) { return "XML" }
        var rest = data[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        let first = rest.first { ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")].contains($0) }
        return first == UInt8(ascii: "<") ? "XML" : nil
    }
}
